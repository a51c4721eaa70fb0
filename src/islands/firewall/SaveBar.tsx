import { useState } from 'react';
import type { FirewallSettings } from '../../../contract/firewall-settings.ts';
import type { Firewall, UpdateFirewallBody } from '../../../contract/firewalls.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { invalidateApi } from '../../stores/fetcher.ts';
import {
  $firewall,
  $firewallVersions,
  type FirewallDraft,
  loadFirewall,
  type SettingsKey,
  saveFirewallSettings,
  startDraft,
} from '../../stores/firewalls.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import type { FieldErrors } from '../shared/field-errors.ts';
import { ConflictPanel } from './ConflictPanel.tsx';

interface Props {
  readonly spaceId: string;
  readonly draft: FirewallDraft;
  readonly changed: readonly SettingsKey[];
  readonly onErrors: (errors: FieldErrors) => void;
  readonly onSaved: (firewall: Firewall) => void;
}

/** Copies one key of the settings into a body. */
function copyKey<K extends SettingsKey>(target: Partial<FirewallSettings>, source: FirewallSettings, key: K): void {
  target[key] = source[key];
}

/** The PATCH body of a draft: only the changed top-level keys, the version the draft started from, the comment. */
export function saveBody(draft: FirewallDraft, changed: readonly SettingsKey[], comment: string): UpdateFirewallBody {
  const changes: Partial<FirewallSettings> = {};
  for (const key of changed) copyKey(changes, draft.settings, key);
  return { ...changes, version: draft.baseVersion, ...(comment.trim() ? { comment: comment.trim() } : {}) };
}

/** Save (only what changed, with an optional comment) and discard; a 409 shows both sides. */
export function SaveBar({ spaceId, draft, changed, onErrors, onSaved }: Props) {
  const [comment, setComment] = useState('');
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [conflict, setConflict] = useState<{ message: string; current: Firewall } | null>(null);
  const [saved, setSaved] = useState<number | null>(null);

  const save = async (): Promise<void> => {
    setPending(true);
    setProblem(null);
    setSaved(null);
    try {
      const firewall = await saveFirewallSettings(spaceId, draft.firewallId, saveBody(draft, changed, comment));
      onErrors({});
      setComment('');
      setSaved(firewall.version);
      startDraft(firewall);
      onSaved(firewall);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        try {
          const current = await loadFirewall(spaceId, draft.firewallId);
          setConflict({ message: error.message, current });
        } catch (again) {
          setProblem(`Not saved: ${error.message} The saved version could not be read: ${errorMessage(again)}`);
        }
      } else if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
        onErrors(error.fields);
        setProblem(`Not saved: ${error.message} The tabs marked “has errors” name each field.`);
      } else {
        setProblem(`Not saved: ${errorMessage(error)}`);
      }
    } finally {
      setPending(false);
    }
  };

  return (
    <section className="sg-fw-savebar" aria-labelledby="sg-fw-save-heading">
      <h2 id="sg-fw-save-heading" className="visually-hidden">
        Save
      </h2>
      {conflict && (
        <ConflictPanel
          message={conflict.message}
          draft={draft}
          changed={changed}
          current={conflict.current}
          onDone={() => {
            setConflict(null);
            invalidateApi($firewall, $firewallVersions);
          }}
        />
      )}
      {problem && <Alert tone="error">{problem}</Alert>}
      {saved !== null && changed.length === 0 && <Alert tone="success">Saved as version {saved}.</Alert>}
      {/* One row: what is unsaved, the comment once there is something to save, and the two buttons. */}
      <div className="sg-fw-save-row">
        <p role="status" className="muted sg-fw-save-status">
          {changed.length === 0
            ? `No unsaved changes (version ${draft.baseVersion}).`
            : `Unsaved changes to ${changed.join(', ')}, made from version ${draft.baseVersion}.`}
        </p>
        {changed.length > 0 && (
          <Field
            label="Comment for this version (optional)"
            value={comment}
            maxLength={500}
            autoComplete="off"
            onChange={(event) => setComment(event.currentTarget.value)}
            hint="Why this change, for the History tab."
          />
        )}
        <div className="row">
          <button
            type="button"
            className="button"
            disabled={pending || changed.length === 0}
            onClick={() => void save()}
          >
            {pending ? 'Saving…' : 'Save'}
          </button>
          <button
            type="button"
            className="button secondary"
            disabled={pending || changed.length === 0}
            onClick={() => {
              startDraft({ ...draft.base, id: draft.firewallId, version: draft.baseVersion });
              onErrors({});
              setConflict(null);
            }}
          >
            Discard changes
          </button>
        </div>
      </div>
    </section>
  );
}
