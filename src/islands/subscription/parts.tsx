/** Pieces the subscription pages share: the test-mode mark, the owners-only refusal, usage bars, dates and money. */
import { formatUsd } from '../../../contract/billing.ts';
import { testModeMark } from '../../../contract/constants/billing.ts';
import { type LimitName, limitNames, limits } from '../../../contract/constants/limits.ts';
import type { Usage } from '../../../contract/subscription.ts';
import { buildPath } from '../../lib/routes.ts';
import { dayUtc } from '../shared/format.ts';

export { formatUsd };

/** Every billing page says so while the bundled test provider takes the payments. */
export function TestModeMark() {
  return (
    <p className="sg-test-mode" role="note">
      <strong>{testModeMark}.</strong> Payments go to the bundled test provider, which takes only its test cards; they
      are listed beside the card form when you change plan.
    </p>
  );
}

/** Only owners see a subscription (docs/product.md §2): the API answers others as it answers non-members. */
export const OWNERS_ONLY = (
  <>
    <p>Only the owners of a space see and change its subscription.</p>
    <p className="muted">Ask an owner of this space, or open one of your own spaces.</p>
  </>
);

/** A date as a person reads it, in UTC: "24 Nov 2026". */
export const day = dayUtc;

const number = (n: number) => n.toLocaleString('en');

/** How full a limit is: fine, amber from 80 %, red at the limit. */
export function usageLevel(used: number, limit: number | null): 'ok' | 'warn' | 'full' {
  if (limit === null || limit === 0) return 'ok';
  if (used >= limit) return 'full';
  return used / limit >= 0.8 ? 'warn' : 'ok';
}

const levelWords = { ok: '', warn: ' (nearly at the limit)', full: ' (at the limit)' } as const;

function amount(name: LimitName, value: number): string {
  return name === 'retentionDays' ? `${number(value)} days` : number(value);
}

/** This period's use of every limit as a bar, each linking to where that use lives. */
export function UsageBars({ spaceId, usage }: { spaceId: string; usage: Usage }) {
  return (
    <ul className="sg-usage">
      {limitNames.map((name) => {
        const { used, limit } = usage[name];
        const level = usageLevel(used, limit);
        const label = limits[name].label;
        return (
          <li key={name} className={`sg-usage__item sg-usage__item--${level}`}>
            <div className="sg-usage__head">
              <a href={buildPath(limits[name].route as never, { space_id: spaceId })}>{label}</a>
              <span>
                {amount(name, used)} of {limit === null ? 'unlimited' : amount(name, limit)}
                {levelWords[level]}
              </span>
            </div>
            {limit !== null && (
              <meter
                className="sg-usage__bar"
                min={0}
                max={limit}
                low={limit * 0.8}
                high={limit * 0.999}
                optimum={0}
                value={Math.min(used, limit)}
                aria-label={`${label}: ${amount(name, used)} of ${amount(name, limit)}`}
              />
            )}
          </li>
        );
      })}
    </ul>
  );
}
