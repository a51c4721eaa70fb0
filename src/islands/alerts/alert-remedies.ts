/** The remedies an alert's traffic suggests, alike for an alert's kept events and a WAF alert's requests. */
import { isProtectedRule, isScoringRule } from '../../../contract/crs.ts';
import { pathOnly } from '../shared/remedy-path.ts';

/** What a kept event or request says about the traffic: its client, its path and the rules it matched. */
export interface Traffic {
  readonly ip: string | null;
  readonly path: string | null;
  readonly ruleIds: readonly number[];
}

/** An exclusion of one rule on one path prefix. */
export interface Exclusion {
  readonly ruleId: number;
  readonly path: string;
}

/** The most exclusions offered at once: a longer list is read as noise, and discover groups the rest. */
const MOST_EXCLUSIONS = 5;

/**
 * Block the group's address (or the one address every request came from), and exclude each rule that detected
 * something on each path it fired on (the group's rule and path when it is grouped by them). The rules that score and
 * decide are never offered: excluding one would switch the firewall off.
 */
export function remediesOf(
  group: Readonly<Record<string, string>>,
  traffic: readonly Traffic[],
): { ip: string | undefined; exclusions: Exclusion[] } {
  const ips = new Set(traffic.map((item) => item.ip).filter((ip): ip is string => Boolean(ip)));
  const ip = group.ip || (ips.size === 1 ? [...ips][0] : undefined);
  const groupRule = group.rule && /^\d+$/.test(group.rule) ? Number(group.rule) : null;
  const exclusions = new Map<string, Exclusion>();
  for (const item of traffic) {
    const path = group.path ? pathOnly(group.path) : pathOnly(item.path);
    const rules = groupRule === null ? item.ruleIds : item.ruleIds.filter((id) => id === groupRule);
    for (const ruleId of rules.filter((id) => !isProtectedRule(id) && !isScoringRule(id))) {
      if (exclusions.size < MOST_EXCLUSIONS) exclusions.set(`${ruleId} ${path}`, { ruleId, path });
    }
  }
  return { ip, exclusions: [...exclusions.values()] };
}
