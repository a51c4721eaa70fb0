/** Checks of a firewall's settings that zod cannot make alone: against the installed CRS and PCRE, and custom rule ids. */
import { eq, sql } from 'drizzle-orm';
import { customRuleIdRange } from '../../../contract/constants/firewalls.ts';
import type { CustomRule, FirewallSettings } from '../../../contract/firewall-settings.ts';
import { rateLimitProblem } from '../../../contract/rate-limits.ts';
import { type Executor, rowsOf } from '../../db/database.ts';
import { firewallVersions } from '../../db/schema/firewalls.ts';
import { ApiError } from '../../errors.ts';
import { checkRegex, exclusionTargetProblem } from './compile/index.ts';

/** What the installed Core Rule Set holds (a `CrsCatalog` fits): its rule ids and rule groups (files). */
export type CrsFacts = {
  ruleIds: ReadonlySet<number>;
  groups: readonly { name: string; optional: boolean }[];
};

/** 400 naming each field and its reason; the message is the reason itself when there is one. */
function refuse(fields: Record<string, string>): never {
  const reasons = Object.values(fields);
  const message = reasons.length === 1 ? (reasons[0] ?? '') : 'Some fields need attention.';
  throw new ApiError(400, 'validation', message, { fields });
}

/**
 * Exclusions naming a rule the installed CRS does not have (the firewall's own custom rules count too) or a target
 * ModSecurity refuses, and disabled groups that are no rule file of it (or one that cannot be left out).
 */
function crsProblems(settings: FirewallSettings, crs: CrsFacts, fields: Record<string, string>): void {
  const own = new Set(settings.customRules.flatMap((rule) => (rule.id === undefined ? [] : [rule.id])));
  for (const [index, exclusion] of settings.exclusions.entries()) {
    if (!crs.ruleIds.has(exclusion.ruleId) && !own.has(exclusion.ruleId)) {
      fields[`exclusions.${index}.ruleId`] =
        `Rule ${exclusion.ruleId} is not in the installed Core Rule Set, nor one of this firewall's custom rules.`;
    }
    const target = exclusion.target === undefined ? null : exclusionTargetProblem(exclusion.target);
    if (target !== null) fields[`exclusions.${index}.target`] = target;
  }
  const groups = new Map(crs.groups.map((group) => [group.name, group]));
  for (const [index, name] of settings.managedRules.disabledGroups.entries()) {
    const group = groups.get(name);
    const field = `managedRules.disabledGroups.${index}`;
    if (!group) fields[field] = `"${name}" is not a rule group of the installed Core Rule Set.`;
    else if (!group.optional) {
      fields[field] = `${name} holds the Core Rule Set together (scoring or blocking): it cannot be turned off.`;
    }
  }
}

/** Custom rule regexes ModSecurity's PCRE would not compile (`customRules.1.conditions.0.value`, `.value.2` in a list). */
function regexProblems(settings: FirewallSettings, fields: Record<string, string>): void {
  for (const [r, rule] of settings.customRules.entries()) {
    for (const [n, condition] of rule.conditions.entries()) {
      if (condition.operator !== 'regex') continue;
      const values = Array.isArray(condition.value) ? condition.value : [condition.value];
      for (const [k, value] of values.entries()) {
        const problem = checkRegex(value);
        if (problem === null) continue;
        const field = `customRules.${r}.conditions.${n}.value${Array.isArray(condition.value) ? `.${k}` : ''}`;
        fields[field] = `Rule "${rule.name}", condition ${n + 1}: the regular expression does not compile (${problem})`;
      }
    }
  }
}

/**
 * Rate limits nginx cannot enforce as they read. The contract refuses them in a body; this finds one saved before it
 * did, kept by a save that does not send `rateLimits`, so the save names it instead of compiling another rate.
 */
function rateProblems(settings: FirewallSettings, fields: Record<string, string>): void {
  for (const [index, limit] of settings.rateLimits.entries()) {
    const problem = rateLimitProblem(limit);
    if (problem !== null) fields[`rateLimits.${index}.windowSeconds`] = problem;
  }
}

/**
 * 400 naming every field nginx and ModSecurity would not take as the settings hold it: exclusions against the
 * installed CRS (`exclusions.2.ruleId`, `exclusions.0.target`), disabled groups (`managedRules.disabledGroups.0`),
 * regexes, rate limits (`rateLimits.0.windowSeconds`).
 */
export function checkForModSecurity(settings: FirewallSettings, crs: CrsFacts): void {
  const fields: Record<string, string> = {};
  crsProblems(settings, crs, fields);
  regexProblems(settings, fields);
  rateProblems(settings, fields);
  if (Object.keys(fields).length > 0) refuse(fields);
}

/** Every custom rule id a firewall's versions ever held: ids are never given to another rule. */
async function idsEverUsed(tx: Executor, firewallId: string | null): Promise<Set<number>> {
  if (firewallId === null) return new Set();
  const rows = rowsOf<{ id: number }>(
    await tx.execute(sql`
      select distinct (rule->>'id')::int as id
      from ${firewallVersions}, jsonb_array_elements(${firewallVersions.settings}->'customRules') as rule
      where ${eq(firewallVersions.firewallId, firewallId)} and rule ? 'id'`),
  );
  return new Set(rows.map((row) => Number(row.id)));
}

/**
 * Gives custom rules their ModSecurity ids from the reserved range: a rule keeps the id it came with (one this
 * firewall gave before), a new rule gets the next id never used by this firewall. 400 on `customRules.N.id` for
 * an id Spaceguard did not give or one given twice.
 */
export async function withRuleIds(tx: Executor, firewallId: string | null, rules: CustomRule[]): Promise<CustomRule[]> {
  const used = await idsEverUsed(tx, firewallId);
  const fields: Record<string, string> = {};
  const taken = new Set<number>();
  for (const [index, rule] of rules.entries()) {
    if (rule.id === undefined) continue;
    if (!used.has(rule.id))
      fields[`customRules.${index}.id`] = 'Rule ids are given by Spaceguard: leave id out for a new rule.';
    else if (taken.has(rule.id))
      fields[`customRules.${index}.id`] = `Rule id ${rule.id} is used by another rule above.`;
    taken.add(rule.id);
  }
  if (Object.keys(fields).length > 0) refuse(fields);
  let next = Math.max(customRuleIdRange.first - 1, ...used, ...taken) + 1;
  // The next id after every id used so far; past the end of the range, the lowest id no current rule holds.
  const nextFree = (index: number): number => {
    while (next <= customRuleIdRange.last && taken.has(next)) next++;
    if (next > customRuleIdRange.last) {
      next = customRuleIdRange.first;
      while (next <= customRuleIdRange.last && taken.has(next)) next++;
      if (next > customRuleIdRange.last) refuse({ [`customRules.${index}`]: 'No custom rule id is left.' });
    }
    taken.add(next);
    return next++;
  };
  return rules.map(({ id, ...rule }, index) => ({ id: id ?? nextFree(index), ...rule }));
}
