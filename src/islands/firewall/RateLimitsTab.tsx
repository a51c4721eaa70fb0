import { type RateLimitAction, rateLimitActions } from '../../../contract/constants/firewalls.ts';
import type { FirewallSettings, RateLimit } from '../../../contract/firewall-settings.ts';
import { rateLimitMeaning, rateLimitProblem } from '../../../contract/rate-limits.ts';
import { editDraft } from '../../stores/firewalls.ts';
import { Field } from '../shared/Field.tsx';
import { errorAt, type FieldErrors } from '../shared/field-errors.ts';
import { SelectField } from '../shared/SelectField.tsx';
import { removeAt, replaceAt } from './list-edit.ts';
import { NumberField } from './NumberField.tsx';

interface Props {
  readonly settings: FirewallSettings;
  readonly errors: FieldErrors;
  readonly editable: boolean;
}

const actionOptions: readonly { value: RateLimitAction; label: string }[] = [
  { value: 'block', label: 'Block (answer 429)' },
  { value: 'log', label: 'Log only' },
];

/** Narrows a typed action. */
function parseAction(value: string): RateLimitAction | undefined {
  return rateLimitActions.find((action) => action === value);
}

/** What the WAF does with a limit as typed, in the words the API's refusal would use when it cannot. */
function RateMeaning({ limit }: { readonly limit: RateLimit }) {
  const meaning = rateLimitMeaning(limit);
  const problem = meaning === null ? rateLimitProblem(limit) : null;
  if (meaning === null && problem === null) return null;
  return (
    <p className={problem ? 'field__error' : 'muted'} aria-live="polite">
      {meaning ?? `Not enforceable: ${problem}`}
    </p>
  );
}

/** Requests per window per client IP under a path prefix, blocked with 429 or logged. */
export function RateLimitsTab({ settings, errors, editable }: Props) {
  const list = settings.rateLimits;
  const set = (index: number, limit: RateLimit): void => editDraft('rateLimits', replaceAt(list, index, limit));
  return (
    <>
      <p className="muted">
        Each limit counts requests per client IP under a path prefix (nginx limit_req). Over the limit, requests are
        answered 429 or only logged. nginx counts whole requests a second or a minute: N requests per W seconds lets N
        through at once, then one more every W/N seconds, and the slowest rate it enforces is 1 request per 60 s.
      </p>
      {errorAt(errors, 'rateLimits') && <p className="field__error">Rate limits: {errorAt(errors, 'rateLimits')}</p>}
      {list.length === 0 && <p className="sg-empty">No rate limits. Add one to slow down, for example, /login.</p>}
      {list.map((limit, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rate limits have no id; the position is what the API names
        <fieldset key={index} className="sg-fw-item">
          <legend>
            Rate limit {index + 1}
            {limit.path ? `: ${limit.path}` : ''}
          </legend>
          <div className="sg-fw-grid">
            <Field
              label="Path prefix"
              value={limit.path}
              spellCheck={false}
              onChange={(event) => set(index, { ...limit, path: event.currentTarget.value })}
              hint="Such as /login; / for every path."
              error={errorAt(errors, `rateLimits.${index}.path`)}
            />
            <NumberField
              label="Requests"
              value={limit.requests}
              onChange={(value) => set(index, { ...limit, requests: value })}
              error={errorAt(errors, `rateLimits.${index}.requests`)}
            />
            <NumberField
              label="Window (seconds)"
              value={limit.windowSeconds}
              onChange={(value) => set(index, { ...limit, windowSeconds: value })}
              error={errorAt(errors, `rateLimits.${index}.windowSeconds`)}
            />
            <SelectField
              label="Action"
              options={actionOptions}
              value={limit.action}
              onChange={(event) => set(index, { ...limit, action: parseAction(event.currentTarget.value) ?? 'block' })}
              error={errorAt(errors, `rateLimits.${index}.action`)}
            />
          </div>
          <RateMeaning limit={limit} />
          {editable && (
            <button
              type="button"
              className="button secondary"
              onClick={() => editDraft('rateLimits', removeAt(list, index))}
            >
              Remove rate limit {index + 1}
            </button>
          )}
        </fieldset>
      ))}
      {editable && (
        <div className="row">
          <button
            type="button"
            className="button secondary"
            onClick={() =>
              editDraft('rateLimits', [...list, { path: '/', requests: 60, windowSeconds: 60, action: 'block' }])
            }
          >
            Add a rate limit
          </button>
        </div>
      )}
    </>
  );
}
