import { customRuleIdRange } from '../../../../contract/constants/firewalls.ts';
import type { CustomRule } from '../../../../contract/firewall-settings.ts';

/**
 * ModSecurity ids the compiler gives its own rules (engine set-up, lists, exclusions): right after the custom rule
 * range, so neither collides with the CRS (900 000–999 999), Debian's base file (200 000–200 007) or each other.
 */
export const compilerRuleIds = {
  requestBodyXml: 4_210_001,
  requestBodyJson: 4_210_002,
  argumentsLimit: 4_210_003,
  requestBodyError: 4_210_004,
  multipartStrict: 4_210_005,
  multipartBoundary: 4_210_006,
  internalError: 4_210_007,
  ipAllow: 4_210_010,
  ipDeny: 4_210_011,
  countryBlock: 4_210_012,
  /** One per exclusion scoped by path or method, by its place in the list. */
  firstExclusion: 4_211_000,
  /** Helpers of negated header conditions, in the order they are written. */
  firstHelper: 4_212_000,
  lastHelper: 4_213_999,
  last: 4_219_999,
} as const;

/** True when an id lies in the reserved custom rule range. */
function inRange(id: number | undefined): id is number {
  return id !== undefined && Number.isInteger(id) && id >= customRuleIdRange.first && id <= customRuleIdRange.last;
}

/**
 * The ModSecurity id of each custom rule, in order: its own `id` when it has a valid one not taken by an earlier rule,
 * otherwise the lowest id of the reserved range nobody uses. The API stores the ids it gets back, so they stay stable.
 */
export function customRuleIds(rules: readonly Pick<CustomRule, 'id'>[]): number[] {
  const taken = new Set<number>();
  const own = rules.map((rule) => {
    if (inRange(rule.id) && !taken.has(rule.id)) {
      taken.add(rule.id);
      return rule.id;
    }
    return null;
  });
  let next = customRuleIdRange.first;
  return own.map((id) => {
    if (id !== null) return id;
    while (taken.has(next)) next++;
    if (next > customRuleIdRange.last) throw new Error('The custom rule id range is exhausted.');
    taken.add(next);
    return next;
  });
}

/** The rules with their ids filled in (what the API saves, so a rule keeps its id across versions). */
export function withCustomRuleIds<T extends Pick<CustomRule, 'id'>>(rules: readonly T[]): T[] {
  const ids = customRuleIds(rules);
  return rules.map((rule, index) => ({ ...rule, id: ids[index] ?? rule.id }));
}
