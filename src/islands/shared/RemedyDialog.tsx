import { type RefObject, useEffect, useRef, useState } from 'react';
import { firewallModeLabels } from '../../../contract/constants/firewalls.ts';
import { blockDurations } from '../../../contract/constants/waf.ts';
import type { RemedyInput, RemedyPreview, RemedyResult } from '../../../contract/waf.ts';
import { buildPath } from '../../lib/routes.ts';
import { applyRemedy, previewRemedy } from '../../stores/waf.ts';
import { Alert } from './Alert.tsx';
import { DiffView } from './DiffView.tsx';
import { Drawer } from './Drawer.tsx';
import { Field } from './Field.tsx';
import { diffLines } from './line-diff.ts';
import { SelectField } from './SelectField.tsx';
import { FormProblem, useSubmit } from './use-submit.ts';
import './remedy.css';

/** The remedy a screen proposes: block an address or network, or exclude a rule on a path (either may be left to fill in). */
export type RemedyDraft =
  | { readonly kind: 'block-ip'; readonly ip: string }
  | { readonly kind: 'exclude-rule'; readonly ruleId: number | null; readonly path: string };

interface Props {
  readonly spaceId: string;
  /** The firewalls a remedy may change; the first is chosen unless `firewallId` names one. */
  readonly firewalls: readonly { readonly id: string; readonly name: string }[];
  readonly firewallId?: string;
  readonly remedy: RemedyDraft;
  /** Admins and owners apply; everyone else sees the preview only. */
  readonly canApply: boolean;
  readonly open: boolean;
  readonly onClose: () => void;
  /** Where the focus goes back to when the dialog closes. */
  readonly returnFocus: RefObject<HTMLElement | null>;
}

const durationLabels: Readonly<Record<(typeof blockDurations)[number], string>> = {
  60: '1 hour',
  1440: '24 hours',
  10080: '7 days',
};
/** The "Block for" choice of a block with no end. */
const PERMANENT = 'permanent';

const FIELDS = ['firewallId', 'ip', 'durationMinutes', 'ruleId', 'path', 'comment'] as const;

/** "1 request", "6 requests". */
const count = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** A previewed remedy: the body it was computed for and the answer. */
type Previewed = { readonly body: RemedyInput; readonly answer: RemedyPreview };

/**
 * One remedy, shown before it is applied: what it would have affected over the last 7 days, the sentence, the diff of
 * the compiled files; then (admins and owners) applied as the firewall's next version, with a link to its history.
 * Used by WAF discover, the alert pages, the event drawer and the overview.
 */
export function RemedyDialog({ spaceId, firewalls, firewallId, remedy, canApply, open, onClose, returnFocus }: Props) {
  const [firewall, setFirewall] = useState(firewallId ?? firewalls[0]?.id ?? '');
  const [ip, setIp] = useState(remedy.kind === 'block-ip' ? remedy.ip : '');
  const [duration, setDuration] = useState('1440');
  const [ruleId, setRuleId] = useState(remedy.kind === 'exclude-rule' && remedy.ruleId ? String(remedy.ruleId) : '');
  const [path, setPath] = useState(remedy.kind === 'exclude-rule' ? remedy.path : '');
  const [comment, setComment] = useState('');
  const [previewed, setPreviewed] = useState<Previewed | null>(null);
  const [applied, setApplied] = useState<RemedyResult | null>(null);
  const block = remedy.kind === 'block-ip';

  /** The body the fields stand for; a rule id or path left empty is named before asking the API. */
  const bodyOf = (): RemedyInput => {
    const note = comment.trim() ? { comment: comment.trim() } : {};
    if (block) {
      const durationMinutes = duration === PERMANENT ? null : Number(duration);
      return { kind: 'block-ip', firewallId: firewall, ip, durationMinutes, ...note };
    }
    const problems: Record<string, string> = {};
    if (!/^\d+$/.test(ruleId.trim())) problems.ruleId = 'Enter the rule id, such as 942100.';
    if (!path.trim()) problems.path = 'Enter a path prefix, such as /search.';
    if (Object.keys(problems).length > 0) throw new FormProblem(problems);
    return { kind: 'exclude-rule', firewallId: firewall, ruleId: Number(ruleId), path: path.trim(), ...note };
  };

  const previewing = useSubmit(
    async () => {
      const body = bodyOf();
      const answer = await previewRemedy(spaceId, body);
      setPreviewed({ body, answer });
    },
    { fields: FIELDS },
  );
  const applying = useSubmit(
    async () => {
      if (!previewed) return;
      setApplied(await applyRemedy(spaceId, previewed.body, previewed.answer.firewall.version));
    },
    { fields: FIELDS },
  );

  // The firewalls may arrive after the dialog opened: the first is chosen then.
  useEffect(() => {
    if (!firewall && firewalls[0]) setFirewall(firewalls[0].id);
  }, [firewall, firewalls]);

  // A remedy that is complete when proposed is previewed at once.
  const asked = useRef(false);
  const complete = block || (ruleId !== '' && path !== '');
  const { run } = previewing;
  useEffect(() => {
    if (!asked.current && complete && firewall) {
      asked.current = true;
      void run();
    }
  }, [complete, firewall, run]);

  /** A changed field makes the preview stale: it goes, so Apply can only send what was shown. */
  const edit =
    (set: (value: string) => void) =>
    (event: { target: { value: string } }): void => {
      set(event.target.value);
      setPreviewed(null);
    };
  const fields = { ...previewing.fields, ...applying.fields };
  const title = block ? 'Block an IP address' : 'Add an exclusion';
  const answer = previewed?.answer;
  const chosen = firewalls.find((item) => item.id === firewall);

  return (
    <Drawer open={open} onClose={onClose} label={title} returnFocus={returnFocus} variant="panel">
      <div className="sg-remedy">
        <h2>{title}</h2>
        {firewalls.length === 0 ? (
          <p>
            This space has no firewall yet.{' '}
            <a href={buildPath('/console/firewall/{space_id}', { space_id: spaceId })}>Create one</a> first.
          </p>
        ) : (
          <form
            aria-label={title}
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void previewing.run();
            }}
          >
            <SelectField
              label="Firewall"
              value={firewall}
              options={firewalls.map((item) => ({ value: item.id, label: item.name }))}
              error={fields.firewallId}
              onChange={edit(setFirewall)}
            />
            {block ? (
              <>
                <Field
                  label="IP address or CIDR range"
                  value={ip}
                  error={fields.ip}
                  spellCheck={false}
                  onChange={edit(setIp)}
                />
                <SelectField
                  label="Block for"
                  value={duration}
                  options={[
                    ...blockDurations.map((minutes) => ({ value: String(minutes), label: durationLabels[minutes] })),
                    { value: PERMANENT, label: 'Permanently' },
                  ]}
                  error={fields.durationMinutes}
                  hint={
                    duration === PERMANENT
                      ? 'The entry stays in the deny list until someone removes it.'
                      : 'The entry leaves the deny list by itself when it expires.'
                  }
                  onChange={edit(setDuration)}
                />
              </>
            ) : (
              <>
                <Field
                  label="Rule id"
                  value={ruleId}
                  inputMode="numeric"
                  error={fields.ruleId}
                  onChange={edit(setRuleId)}
                />
                <Field
                  label="Path prefix"
                  value={path}
                  error={fields.path}
                  hint="The rule stops matching requests whose path starts with this."
                  spellCheck={false}
                  onChange={edit(setPath)}
                />
              </>
            )}
            <Field label="Comment (optional)" value={comment} error={fields.comment} onChange={edit(setComment)} />
            {previewing.error && <Alert tone="error">{previewing.error}</Alert>}
            <button type="submit" className="button secondary" disabled={previewing.pending}>
              {previewing.pending ? 'Previewing…' : 'Preview'}
            </button>
          </form>
        )}
        {answer && (
          <section className="sg-remedy__preview" aria-label="What this changes">
            {answer.affected.firewallRequests > 0 ? (
              <p className="sg-remedy__affected">
                Would have affected {count(answer.affected.requests, 'request', 'requests')} from{' '}
                {count(answer.affected.distinctIps, 'IP', 'IPs')} in the last 7 days.
              </p>
            ) : (
              <p className="sg-remedy__affected">
                “{answer.firewall.name}” has seen no requests in the last 7 days, so nothing to count there. Across the
                space, {count(answer.affected.space.requests, 'request', 'requests')} from{' '}
                {count(answer.affected.space.distinctIps, 'IP', 'IPs')} match.
              </p>
            )}
            <p>{answer.change}</p>
            {block && answer.firewall.mode !== 'block' && (
              <Alert tone="info">
                “{answer.firewall.name}” is set to {firewallModeLabels[answer.firewall.mode]}: it logs requests from a
                denied address but lets them through until its mode is Block.
              </Alert>
            )}
            {answer.files.map((file) => (
              <section key={file.name} className="sg-remedy__file" aria-label={`Changes to ${file.name}`}>
                <h3 className="sg-mono">{file.name}</h3>
                <DiffView
                  label={`${file.name}: version ${answer.firewall.version} to ${answer.firewall.version + 1}`}
                  lines={diffLines(file.before, file.after)}
                  layout="unified"
                />
              </section>
            ))}
            {applied ? (
              <Alert tone="success">
                Version {applied.version} of “{applied.firewall.name}” is saved; its connector applies it.{' '}
                <a
                  href={`${buildPath('/console/firewall/config/{space_id}/{id}', {
                    space_id: spaceId,
                    id: applied.firewall.id,
                  })}?tab=history`}
                >
                  Open {applied.firewall.name} and its history
                </a>
              </Alert>
            ) : canApply ? (
              !answer.alreadyInPlace && (
                <div className="sg-remedy__apply">
                  {applying.error && <Alert tone="error">{applying.error}</Alert>}
                  <button
                    type="button"
                    className="button"
                    disabled={applying.pending}
                    onClick={() => void applying.run()}
                  >
                    {applying.pending
                      ? 'Applying…'
                      : `Apply as version ${answer.firewall.version + 1} of ${chosen?.name ?? answer.firewall.name}`}
                  </button>
                </div>
              )
            ) : (
              <p className="muted">Only admins and owners of this space can change firewalls.</p>
            )}
          </section>
        )}
      </div>
    </Drawer>
  );
}
