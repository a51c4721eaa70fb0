import { createHash } from 'node:crypto';
import type { Condition, CustomRule } from '../../../../contract/firewall-settings.ts';
import { countryCidrs } from '../country-ranges.ts';
import { commentText, modsecRegex, modsecText, regexLiteral, UnsafeValueError } from './escape.ts';
import { modsecNetworks } from './networks.ts';
import { compilerRuleIds, customRuleIds } from './rule-ids.ts';

/** The `SecRule` lines of the custom rules and the data files they read (country ranges). */
export type CompiledCustomRules = { text: string; files: Record<string, string> };

const headerName = /^[A-Za-z0-9-]{1,64}$/;
const countryCode = /^[A-Z]{2}$/;

/** The data file of a set of countries: one CIDR a line, ascending by country then address. */
export function countryFile(codes: readonly string[]): string {
  const lines = [...new Set(codes)].sort().flatMap((code) => {
    if (!countryCode.test(code)) throw new UnsafeValueError(`Not a country code: ${JSON.stringify(code)}`);
    return countryCidrs(code);
  });
  return lines.map((line) => `${line}\n`).join('');
}

/** The ModSecurity variable a condition reads, with the transformations that normalise it. */
function variableOf(condition: Condition): { variable: string; transforms: string } {
  switch (condition.field) {
    case 'ip':
    case 'country':
      return { variable: 'REMOTE_ADDR', transforms: 't:none' };
    case 'method':
      return { variable: 'REQUEST_METHOD', transforms: 't:none' };
    case 'path':
      return { variable: 'REQUEST_FILENAME', transforms: 't:none,t:urlDecodeUni,t:normalisePath' };
    case 'query':
      return { variable: 'QUERY_STRING', transforms: 't:none,t:urlDecodeUni' };
    case 'userAgent':
      return { variable: 'REQUEST_HEADERS:User-Agent', transforms: 't:none' };
    case 'header': {
      const name = condition.header ?? '';
      if (!headerName.test(name)) throw new UnsafeValueError(`Not a header name: ${JSON.stringify(name)}`);
      return { variable: `REQUEST_HEADERS:${name}`, transforms: 't:none' };
    }
  }
}

/** The operator and its argument (never holding a quote, `%` or a lone backslash), plus a data file when it needs one. */
function operatorOf(condition: Condition): { operator: string; file?: [string, string] } {
  const values = Array.isArray(condition.value) ? condition.value : [condition.value];
  const not = condition.negate ? '!' : '';
  if (condition.field === 'ip') {
    const cidrs = [...new Set(values.flatMap(modsecNetworks))];
    return { operator: `${not}@ipMatch ${cidrs.join(',')}` };
  }
  if (condition.field === 'country') {
    const codes = [...new Set(values)].sort();
    // Named by its countries; a long list by a digest of them, to keep file names short.
    const key =
      codes.length <= 6 ? codes.join('-') : createHash('sha256').update(codes.join(',')).digest('hex').slice(0, 16);
    const name = `country-${key}.txt`;
    return { operator: `${not}@ipMatchFromFile ${name}`, file: [name, countryFile(codes)] };
  }
  const alternatives = (parts: string[]) => (parts.length === 1 ? (parts[0] ?? '') : `(?:${parts.join('|')})`);
  switch (condition.operator) {
    case 'equals':
      return { operator: `${not}@rx \\A${alternatives(values.map(regexLiteral))}\\z` };
    case 'startsWith':
      return { operator: `${not}@rx \\A${alternatives(values.map(regexLiteral))}` };
    case 'contains':
      return { operator: `${not}@rx ${alternatives(values.map(regexLiteral))}` };
    case 'regex':
      return {
        operator: `${not}@rx ${values.length === 1 ? modsecRegex(values[0] ?? '') : values.map((value) => `(?:${modsecRegex(value)})`).join('|')}`,
      };
    case 'inCidr':
      throw new UnsafeValueError(`"inCidr" applies to the ip field only, not ${condition.field}.`);
  }
}

/** What a matching rule does: block (403), allow (the rest of the evaluation is skipped) or log. */
function actionsOf(rule: CustomRule, id: number): string {
  const msg = `msg:'Custom rule ${id}: ${modsecText(rule.name)}',tag:'spaceguard/custom-rule'`;
  switch (rule.action) {
    case 'block':
      return `id:${id},phase:1,deny,status:403,log,auditlog,${msg}`;
    case 'log':
      return `id:${id},phase:1,pass,log,auditlog,${msg}`;
    case 'allow':
      return `id:${id},phase:1,pass,nolog,ctl:ruleEngine=Off,skipAfter:END_SPACEGUARD_ALLOW`;
  }
}

/** A negated test on a header that may be absent: ModSecurity tests nothing when the header is missing, so "not X" needs a helper. */
function needsHelper(condition: Condition): boolean {
  return condition.negate === true && (condition.field === 'header' || condition.field === 'userAgent');
}

/**
 * The custom rules in their order, each a `SecRule` chain (conditions ANDed), ids from the reserved range and stable by
 * each rule's own `id`; disabled rules stay as a comment so the preview shows them. A negated header condition becomes
 * a helper rule just before (the positive test sets `tx.sg_<id>_<n>`) and a chain link that the variable is unset, so
 * a missing header counts as "does not contain" instead of silently never matching.
 */
export function compileCustomRules(rules: readonly CustomRule[]): CompiledCustomRules {
  const ids = customRuleIds(rules);
  const files: Record<string, string> = {};
  let helperId = compilerRuleIds.firstHelper;
  const blocks = rules.map((rule, index) => {
    const id = ids[index] ?? 0;
    const head = `# Custom rule ${id} (${rule.action}${rule.enabled ? '' : ', disabled'}): ${commentText(rule.name)}`;
    if (!rule.enabled) return head;
    const helpers: string[] = [];
    const lines = rule.conditions.map((condition, at) => {
      let { variable, transforms } = variableOf(condition);
      let { operator, file } = operatorOf(condition);
      if (file) files[file[0]] = file[1];
      if (needsHelper(condition)) {
        const flag = `sg_${id}_${at}`;
        if (helperId > compilerRuleIds.lastHelper) throw new Error('Too many negated header conditions.');
        const positive = operatorOf({ ...condition, negate: false }).operator;
        helpers.push(
          `SecRule ${variable} "${positive}" "id:${helperId++},phase:1,pass,nolog,${transforms},setvar:tx.${flag}=1"`,
        );
        variable = `&TX:${flag}`;
        operator = '@eq 0';
        transforms = 't:none';
        file = undefined;
      }
      const last = at === rule.conditions.length - 1;
      const actions = at === 0 ? `${actionsOf(rule, id)},${transforms}` : transforms;
      return `${at === 0 ? '' : '    '}SecRule ${variable} "${operator}" "${actions}${last ? '' : ',chain'}"`;
    });
    return [head, ...helpers, ...lines].join('\n');
  });
  return { text: blocks.join('\n'), files };
}
