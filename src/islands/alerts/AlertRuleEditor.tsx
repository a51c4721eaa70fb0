import { useState } from 'react';
import type { AlertRule } from '../../../contract/alert-rules.ts';
import { type AlertRuleKind, alertLimits, alertRuleKinds } from '../../../contract/constants/alerts.ts';
import { type Severity, severities } from '../../../contract/constants/events.ts';
import { deleteAlertRule, saveAlertRule } from '../../stores/alerts.ts';
import { $firewalls } from '../../stores/firewalls.ts';
import { $sources } from '../../stores/sources.ts';
import { Alert } from '../shared/Alert.tsx';
import { ConfirmButton } from '../shared/ConfirmButton.tsx';
import { Field } from '../shared/Field.tsx';
import { Form } from '../shared/Form.tsx';
import { SelectField } from '../shared/SelectField.tsx';
import { useApi } from '../shared/use-api.ts';
import { useSubmit } from '../shared/use-submit.ts';
import { ChannelsEditor } from './ChannelsEditor.tsx';
import { GroupByField } from './GroupByField.tsx';
import { QueryField } from './QueryField.tsx';
import { RulePreview } from './RulePreview.tsx';
import { RuleSuppressions } from './RuleSuppressions.tsx';
import { previewBody, type RuleDraft, ruleBody } from './rule-draft.ts';
import { SendTest } from './SendTest.tsx';

interface Props {
  readonly spaceId: string;
  /** The saved rule being edited, or null for a new one. */
  readonly rule: AlertRule | null;
  /** What the form starts with (the saved rule, an empty rule or a prefill link's). */
  readonly initial: RuleDraft;
  /** Admins and owners save, test and delete; the others read. */
  readonly canEdit: boolean;
  /** Analysts and up preview and remove suppressions. */
  readonly canWork: boolean;
  readonly onSaved: (rule: AlertRule, created: boolean) => void;
  readonly onDeleted: (name: string) => void;
}

const KINDS: Readonly<Record<AlertRuleKind, string>> = {
  match: 'Match (every event)',
  threshold: 'Threshold (more than N)',
  silence: 'Silence (no events)',
};
const KIND_HINTS: Readonly<Record<AlertRuleKind, string>> = {
  match: 'Fires on every matching event, one alert per group.',
  threshold: 'Fires when more than N events match within the window, per group.',
  silence: 'Fires when a source or firewall sends nothing for the window.',
};
const kindOptions = alertRuleKinds.map((kind) => ({ value: kind, label: KINDS[kind] }));
const severityOptions = severities.map((severity) => ({ value: severity, label: severity }));
const parseKind = (value: string): AlertRuleKind => alertRuleKinds.find((kind) => kind === value) ?? 'match';
const parseSeverity = (value: string): Severity => severities.find((item) => item === value) ?? 'high';

/** Creates or edits one alert rule: fields per kind, notifications, a preview, a test send, suppressions and delete. */
export function AlertRuleEditor({ spaceId, rule, initial, canEdit, canWork, onSaved, onDeleted }: Props) {
  const [draft, setDraft] = useState<RuleDraft>(initial);
  const [previewFields, setPreviewFields] = useState<Readonly<Record<string, string>>>({});
  const sources = useApi($sources);
  const firewalls = useApi($firewalls);
  const set = <K extends keyof RuleDraft>(key: K, value: RuleDraft[K]): void =>
    setDraft((now) => ({ ...now, [key]: value }));
  const submit = useSubmit(async () => {
    setPreviewFields({});
    const body = ruleBody(draft);
    const saved = await saveAlertRule(spaceId, rule?.id ?? null, body);
    onSaved(saved, rule === null);
  });
  const fields = { ...previewFields, ...submit.fields };
  const number = (key: 'threshold' | 'windowMinutes' | 'renotifyMinutes' | 'autoResolveMinutes') => ({
    value: draft[key],
    inputMode: 'numeric' as const,
    autoComplete: 'off',
    error: fields[key],
    onChange: (event: { currentTarget: HTMLInputElement }) => set(key, event.currentTarget.value),
  });
  const sourceOptions =
    sources.loaded.state === 'ready'
      ? sources.loaded.data.items.map((source) => ({ value: source.id, label: source.name }))
      : [];
  const firewallOptions =
    firewalls.loaded.state === 'ready'
      ? firewalls.loaded.data.items.map((firewall) => ({ value: firewall.id, label: firewall.name }))
      : [];
  const title = rule ? (canEdit ? `Edit “${rule.name}”` : `Rule “${rule.name}”`) : 'New alert rule';

  return (
    <div className="sg-al-editor">
      <h2>{title}</h2>
      {!canEdit && <p className="muted">Only admins and owners of this space can change alert rules.</p>}
      <Form onSubmit={submit.onSubmit} pending={submit.pending} aria-label={title}>
        <fieldset className="plain-fieldset" disabled={!canEdit}>
          {submit.error && <Alert tone="error">{submit.error}</Alert>}
          <div className="sg-al-grid">
            <Field
              label="Name"
              required
              maxLength={alertLimits.nameLength}
              autoComplete="off"
              value={draft.name}
              error={fields.name}
              onChange={(event) => set('name', event.currentTarget.value)}
            />
            <SelectField
              label="Severity"
              options={severityOptions}
              value={draft.severity}
              error={fields.severity}
              onChange={(event) => set('severity', parseSeverity(event.currentTarget.value))}
            />
            <SelectField
              label="Kind"
              options={kindOptions}
              value={draft.kind}
              hint={KIND_HINTS[draft.kind]}
              error={fields.kind}
              onChange={(event) => set('kind', parseKind(event.currentTarget.value))}
            />
            <label className="sg-al-enabled">
              <input
                type="checkbox"
                checked={draft.enabled}
                onChange={(event) => set('enabled', event.currentTarget.checked)}
              />{' '}
              Enabled
            </label>
          </div>
          {draft.kind !== 'silence' && (
            <QueryField value={draft.query} error={fields.query} onChange={(value) => set('query', value)} />
          )}
          {draft.kind === 'threshold' && (
            <div className="sg-al-sentence">
              <Field label="More than (events)" {...number('threshold')} />
              <Field label="In (minutes)" {...number('windowMinutes')} />
            </div>
          )}
          {draft.kind === 'silence' && (
            <>
              <fieldset className="sg-al-checks">
                <legend>Watch</legend>
                <label>
                  <input
                    type="radio"
                    name="sg-al-watch"
                    checked={draft.watch === 'source'}
                    onChange={() => set('watch', 'source')}
                  />{' '}
                  a log source
                </label>
                <label>
                  <input
                    type="radio"
                    name="sg-al-watch"
                    checked={draft.watch === 'firewall'}
                    onChange={() => set('watch', 'firewall')}
                  />{' '}
                  a firewall
                </label>
              </fieldset>
              {draft.watch === 'source' ? (
                <SelectField
                  label="Source"
                  options={[{ value: '', label: 'Choose a source' }, ...sourceOptions]}
                  value={draft.sourceId}
                  error={fields.sourceId}
                  onChange={(event) => set('sourceId', event.currentTarget.value)}
                />
              ) : (
                <SelectField
                  label="Firewall"
                  options={[{ value: '', label: 'Choose a firewall' }, ...firewallOptions]}
                  value={draft.firewallId}
                  error={fields.firewallId ?? fields.sourceId}
                  onChange={(event) => set('firewallId', event.currentTarget.value)}
                />
              )}
              <Field label="Alert after this many minutes without events" {...number('windowMinutes')} />
            </>
          )}
          {draft.kind !== 'silence' && (
            <GroupByField value={draft.groupBy} error={fields.groupBy} onChange={(value) => set('groupBy', value)} />
          )}
          <Field
            label="Title template (optional)"
            maxLength={alertLimits.titleLength}
            autoComplete="off"
            placeholder="SQL injection from {ip}"
            value={draft.titleTemplate}
            hint="{ip}, {country}… (the grouped fields), {rule} (the rule's name) and {count} are filled in; empty uses the rule's name."
            error={fields.titleTemplate}
            onChange={(event) => set('titleTemplate', event.currentTarget.value)}
          />
          <div className="sg-al-grid">
            <Field
              label="Re-notify every (minutes, optional)"
              hint="While the alert stays open; 5 to 43,200."
              {...number('renotifyMinutes')}
            />
            <Field
              label="Auto-resolve after (minutes, optional)"
              hint="Without new events; 5 to 43,200."
              {...number('autoResolveMinutes')}
            />
          </div>
          <ChannelsEditor channels={draft.channels} errors={fields} onChange={(value) => set('channels', value)} />
          {canEdit && (
            <button type="submit" className="button" disabled={submit.pending}>
              {submit.pending ? 'Saving…' : rule ? 'Save rule' : 'Create rule'}
            </button>
          )}
        </fieldset>
      </Form>
      {canWork && <RulePreview spaceId={spaceId} body={() => previewBody(draft)} onFieldErrors={setPreviewFields} />}
      {rule && canEdit && <SendTest spaceId={spaceId} ruleId={rule.id} />}
      {rule && <RuleSuppressions spaceId={spaceId} ruleId={rule.id} canRemove={canWork} />}
      {rule && canEdit && (
        <section className="sg-danger-zone" aria-labelledby="sg-al-delete-heading">
          <h3 id="sg-al-delete-heading">Delete this rule</h3>
          <p className="muted">Its alerts stay, without a rule.</p>
          <DeleteRule spaceId={spaceId} rule={rule} onDeleted={onDeleted} />
        </section>
      )}
    </div>
  );
}

function DeleteRule({
  spaceId,
  rule,
  onDeleted,
}: {
  spaceId: string;
  rule: AlertRule;
  onDeleted: (name: string) => void;
}) {
  const submit = useSubmit(async () => {
    await deleteAlertRule(spaceId, rule.id);
    onDeleted(rule.name);
  });
  return (
    <>
      {submit.error && <Alert tone="error">{submit.error}</Alert>}
      <ConfirmButton
        label="Delete rule"
        question={`Delete “${rule.name}”?`}
        disabled={submit.pending}
        onConfirm={() => submit.run()}
      />
    </>
  );
}
