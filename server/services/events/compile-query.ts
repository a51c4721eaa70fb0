import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import type { CompareOp, QueryNode } from '../../../contract/query/ast.ts';
import { likeLiteral } from '../shared/like.ts';
import { freeTextExpression } from './expressions.ts';

/** The events table columns a query reads, typed structurally so any table with these columns fits. */
export type EventQueryColumns = {
  ip: AnyColumn;
  /** The address as inet where `ip` is one, else null (the events table's generated column). */
  ipNet: AnyColumn;
  country: AnyColumn;
  method: AnyColumn;
  host: AnyColumn;
  path: AnyColumn;
  status: AnyColumn;
  action: AnyColumn;
  severity: AnyColumn;
  ruleIds: AnyColumn;
  tags: AnyColumn;
  message: AnyColumn;
  userAgent: AnyColumn;
  firewallId: AnyColumn;
};

const operators: Record<CompareOp, SQL> = { '=': sql`=`, '>': sql`>`, '>=': sql`>=`, '<': sql`<`, '<=': sql`<=` };

function operator(op: CompareOp): SQL {
  const found = operators[op];
  if (!found) throw new Error(`Unknown comparison ${String(op)}`);
  return found;
}

/** A LIKE pattern that matches `value` literally. */

/** A leaf is never null, so that NOT of a missing value is true, as in the in-memory matcher. */
const leaf = (condition: SQL) => sql`coalesce(${condition}, false)`;

/** Compiles a parsed query to a parameterised SQL condition over the events columns. */
export function compileQuery(ast: QueryNode, c: EventQueryColumns): SQL {
  switch (ast.kind) {
    case 'and':
      return ast.children.length === 0
        ? sql`true`
        : sql`(${sql.join(
            ast.children.map((child) => compileQuery(child, c)),
            sql` and `,
          )})`;
    case 'or':
      return ast.children.length === 0
        ? sql`false`
        : sql`(${sql.join(
            ast.children.map((child) => compileQuery(child, c)),
            sql` or `,
          )})`;
    case 'not':
      return sql`(not ${compileQuery(ast.child, c)})`;
    case 'text': {
      const pattern = `%${likeLiteral(ast.value)}%`;
      const columns = [c.message, c.path, c.host, c.userAgent];
      // The columns joined, as the trigram index holds them, pick the candidates; each column is then checked, so a
      // match across two columns' boundary is not one. Never null: the joined text is never null.
      return sql`(${sql.raw(freeTextExpression)} ilike ${pattern} and (${sql.join(
        columns.map((column) => leaf(sql`${column} ilike ${pattern}`)),
        sql` or `,
      )}))`;
    }
    case 'compare':
      if (ast.field === 'status') return leaf(sql`${c.status} ${operator(ast.op)} ${ast.value}`);
      // rule_ids and tags are never null, so containment needs no coalesce, and the GIN indexes can answer it.
      if (ast.op === '=') return sql`${c.ruleIds} @> array[${ast.value}::integer]`;
      return sql`exists (select 1 from unnest(${c.ruleIds}) as q_rule(id) where q_rule.id ${operator(ast.op)} ${ast.value})`;
    case 'range':
      if (ast.field === 'status') return leaf(sql`${c.status} between ${ast.from} and ${ast.to}`);
      return sql`exists (select 1 from unnest(${c.ruleIds}) as q_rule(id) where q_rule.id between ${ast.from} and ${ast.to})`;
    case 'severity':
      if (ast.levels.length === 0) return sql`false`;
      return leaf(
        sql`${c.severity} in (${sql.join(
          ast.levels.map((level) => sql`${level}`),
          sql`, `,
        )})`,
      );
    case 'ip':
      // ip_net is null where the text is no address (a malformed address never fails a query), and an index on
      // (space_id, ip_net, time) answers the range. Never null: false where there is no address.
      return sql`(${c.ipNet} is not null and ${c.ipNet} <<= ${ast.cidr}::inet)`;
    case 'equals':
      return leaf(sql`lower(${c[ast.field]}) = ${ast.value}`);
    case 'contains':
      return leaf(sql`${c[ast.field]} ilike ${`%${likeLiteral(ast.value)}%`}`);
    case 'path':
      return ast.prefix
        ? leaf(sql`${c.path} like ${`${likeLiteral(ast.value)}%`}`)
        : leaf(sql`${c.path} = ${ast.value}`);
    case 'tag':
      return ast.prefix
        ? sql`exists (select 1 from unnest(${c.tags}) as q_tag(tag) where q_tag.tag like ${`${likeLiteral(ast.value)}%`})`
        : sql`${c.tags} @> array[${ast.value}::text]`;
    case 'firewall':
      // Never null (false where the event has no firewall) without coalesce, which would hide the column from the
      // index on (space_id, firewall_id, time) that a firewall's events are read from.
      return sql`(${c.firewallId} is not null and ${c.firewallId} = ${ast.id}::uuid)`;
  }
}
