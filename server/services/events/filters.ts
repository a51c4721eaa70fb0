/** What every read of the event log shares: the stored event as the API shows it, and the filters as SQL. */
import { and, eq, getTableColumns, gte, lte, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { EventFilters } from '../../../contract/event-search.ts';
import type { Event, EventSummary } from '../../../contract/events.ts';
import type { QueryNode } from '../../../contract/query/ast.ts';
import { parseQuery } from '../../../contract/query/parse.ts';
import { type EventRow, eventRaw, events } from '../../db/schema/events.ts';
import { fieldError } from '../../errors.ts';
import { compileQuery } from './compile-query.ts';

/** The event log's filters: a query in the event query language and a time range. */
export type Filters = z.infer<typeof EventFilters>;

/** The columns of an event with its raw record: select these from `events` joined to `event_raw` on `rawOfEvent`. */
export const eventWithRaw = { ...getTableColumns(events), raw: eventRaw.raw };
/** The join of an event to its raw record (the side table shares its key). */
export const rawOfEvent = and(
  eq(eventRaw.spaceId, events.spaceId),
  eq(eventRaw.id, events.id),
  eq(eventRaw.time, events.time),
) as SQL;

/** The stored event as the API shows it, with its raw record (read from the side table). */
export function eventView(row: EventRow & { raw: unknown }): z.infer<typeof Event> {
  return { ...eventSummaryView(row), raw: row.raw };
}

/** The stored event as a row of the event log's page shows it: without the raw record. */
export function eventSummaryView(row: EventRow): z.infer<typeof EventSummary> {
  return {
    id: row.id,
    sourceId: row.sourceId,
    time: row.time.toISOString(),
    receivedAt: row.receivedAt.toISOString(),
    dedupKey: row.dedupKey,
    ip: row.ip,
    country: row.country,
    method: row.method,
    host: row.host,
    path: row.path,
    status: row.status,
    action: row.action,
    severity: row.severity,
    ruleIds: row.ruleIds,
    tags: row.tags,
    message: row.message,
    userAgent: row.userAgent,
    firewallId: row.firewallId,
  };
}

/**
 * A query in the event query language, parsed; one that does not parse, or goes past the cost budget, is a 400 on
 * `field` naming the problem (or the limit) and its position.
 */
export function parsedQuery(q: string, field: string): QueryNode {
  const parsed = parseQuery(q);
  if (!parsed.ok) {
    // A query past the cost budget is well formed but refused: its own code, so a client can tell the two apart.
    const code = parsed.error.limit ? 'query_limit' : 'query_invalid';
    throw fieldError(field, `${parsed.error.message} (at character ${parsed.error.position + 1})`, code);
  }
  return parsed.ast;
}

/** The space, the time range and the compiled query; a query that does not parse is a 400 naming its position. */
export function whereOf(spaceId: string, f: Filters): SQL[] {
  const where: SQL[] = [eq(events.spaceId, spaceId), compileQuery(parsedQuery(f.q, 'q'), events)];
  if (f.from) where.push(gte(events.time, new Date(f.from)));
  if (f.to) where.push(lte(events.time, new Date(f.to)));
  return where;
}
