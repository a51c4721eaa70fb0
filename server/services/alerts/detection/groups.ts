/**
 * Grouping an alert rule's events: one alert per distinct combination of the rule's `groupBy` fields. The same
 * grouping is done in memory (match rules on ingest), in SQL (threshold rules and the preview), and turned back into
 * event log terms so an alert links to exactly its events.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { AlertGroupField } from '../../../../contract/alert-rules.ts';
import type { NormalisedEvent } from '../../../../contract/events.ts';

/** A group: its key (stable, for deduplication) and its values by field. */
export type Group = { key: string; values: Record<string, string> };

/** The values an event has for one field: rules and tags may give several (the event is in each group). */
export function valuesOf(field: AlertGroupField, event: NormalisedEvent, sourceId: string): string[] {
  switch (field) {
    case 'rule':
      return event.ruleIds.length > 0 ? [...new Set(event.ruleIds)].map(String) : [''];
    case 'tag':
      return event.tags.length > 0 ? [...new Set(event.tags)] : [''];
    case 'status':
      return [event.status === null || event.status === undefined ? '' : String(event.status)];
    case 'firewall':
      return [event.firewallId ?? ''];
    case 'source':
      return [sourceId];
    default:
      return [event[field] ?? ''];
  }
}

/** The key of a group's values, in the rule's field order. */
export function groupKeyOf(fields: readonly AlertGroupField[], values: Record<string, string>): string {
  return fields.map((field) => `${field}=${encodeURIComponent(values[field] ?? '')}`).join('&');
}

/** Every group an event falls in (one, unless it has several rules or tags and the rule groups by them). */
export function groupsOfEvent(fields: readonly AlertGroupField[], event: NormalisedEvent, sourceId: string): Group[] {
  let combos: Record<string, string>[] = [{}];
  for (const field of fields) {
    const next: Record<string, string>[] = [];
    for (const value of valuesOf(field, event, sourceId)) {
      for (const combo of combos) next.push({ ...combo, [field]: value });
    }
    combos = next;
  }
  return combos.map((values) => ({ key: groupKeyOf(fields, values), values }));
}

/** The SQL of one field's value over the events table `e` (rules and tags unnested by the caller's lateral). */
export function groupColumnSql(field: AlertGroupField): SQL {
  switch (field) {
    case 'rule':
      return sql.raw(`coalesce(g_rule.v::text, '')`);
    case 'tag':
      return sql.raw(`coalesce(g_tag.v, '')`);
    case 'status':
      return sql.raw(`coalesce(events.status::text, '')`);
    case 'firewall':
      return sql.raw(`coalesce(events.firewall_id::text, '')`);
    case 'source':
      return sql.raw('events.source_id::text');
    default:
      return sql.raw(`coalesce(events.${field}::text, '')`);
  }
}

/** The laterals that unnest rules and tags when a rule groups by them (an event without any is in the '' group). */
export function groupJoinsSql(fields: readonly AlertGroupField[]): SQL {
  const joins: SQL[] = [];
  if (fields.includes('rule'))
    joins.push(
      sql.raw(
        `cross join lateral unnest(case when cardinality(events.rule_ids) = 0 then array[null]::integer[] else events.rule_ids end) as g_rule(v)`,
      ),
    );
  if (fields.includes('tag'))
    joins.push(
      sql.raw(
        `cross join lateral unnest(case when cardinality(events.tags) = 0 then array[null]::text[] else events.tags end) as g_tag(v)`,
      ),
    );
  return sql.join(joins, sql` `);
}

const termField: Partial<Record<AlertGroupField, string>> = {
  ip: 'ip',
  country: 'country',
  host: 'host',
  path: 'path',
  method: 'method',
  status: 'status',
  action: 'action',
  severity: 'severity',
  rule: 'rule',
  tag: 'tag',
  firewall: 'firewall',
};

/** A value as the query language reads it literally: bare when it is safe, quoted otherwise (a `*` included). */
function literal(value: string): string {
  const bare = /^[A-Za-z0-9._:/@%+=-]+$/.test(value) && !/^(OR|AND)$/.test(value);
  return bare ? value : `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/**
 * The event log query of a rule's group: the rule's query and one term per group value, so the link from an alert
 * shows its events. Fields the language has no term for (source) and empty values are left out.
 */
export function groupEventQuery(ruleQuery: string, values: Record<string, string>): string {
  const terms: string[] = [];
  for (const [field, value] of Object.entries(values)) {
    const name = termField[field as AlertGroupField];
    if (!name || value === '') continue;
    terms.push(`${name}:${literal(value)}`);
  }
  const base = ruleQuery.trim();
  if (terms.length === 0) return base;
  return base === '' ? terms.join(' ') : `(${base}) ${terms.join(' ')}`;
}

/** An alert's title: the template with `{field}`, `{rule}` and `{count}` filled in, or the rule's name and group. */
export function alertTitle(
  template: string | null,
  ruleName: string,
  values: Record<string, string>,
  count: number,
): string {
  const shown = Object.entries(values)
    .filter(([, value]) => value !== '')
    .map(([field, value]) => `${field} ${value}`);
  const title = template
    ? template.replace(/\{(\w+)\}/g, (whole, name: string) => {
        if (name === 'rule') return ruleName;
        if (name === 'count') return String(count);
        return name in values ? values[name] || '(none)' : whole;
      })
    : shown.length > 0
      ? `${ruleName}: ${shown.join(', ')}`
      : ruleName;
  return title.slice(0, 300);
}
