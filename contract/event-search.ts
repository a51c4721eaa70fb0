import { z } from 'zod';
import { Cursor, Id, Timestamp } from './common.ts';
import { exportFormats } from './constants/events.ts';
import { EventSummary } from './events.ts';
import { Plan } from './spaces.ts';

/** The event log's filters: a query in the event query language and a time range. */
export const EventFilters = z.object({
  q: z.string().max(2000, 'Use at most 2000 characters.').default(''),
  from: Timestamp.optional(),
  to: Timestamp.optional(),
});

/** One page of events, newest first. */
export const EventPageQuery = EventFilters.extend({
  cursor: Cursor.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const EventPage = z
  .object({ items: z.array(EventSummary), nextCursor: z.string().nullable() })
  .meta({ id: 'EventPage' });
export type EventPage = z.infer<typeof EventPage>;

export const HistogramQuery = EventFilters.extend({
  /**
   * How many buckets the range is cut into at most: each is a round width (1 s ... 30 days: 1, 2, 5, 10, 15, 30 s,
   * 1, 2, 5, 10, 15, 30 min, 1, 2, 3, 6, 12 h, 1, 2, 7, 14, 30 days), the narrowest that fits, starting at multiples
   * of it since the epoch; so one more bucket when the range does not start on a boundary.
   */
  buckets: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(60)
    .describe(
      'At most this many buckets of a round width (the narrowest that fits), starting at multiples of it since the epoch: one more when the range does not start on one.',
    ),
});

/** Counts per time bucket: all matching events, the blocked and the logged ones. The first bucket may start before `from`. */
export const Histogram = z
  .object({
    from: Timestamp,
    to: Timestamp,
    intervalSeconds: z.number().int(),
    buckets: z.array(
      z.object({
        time: Timestamp,
        total: z.number().int(),
        blocked: z.number().int(),
        /** Logged but let through (detection only); the rest of `total` was allowed. */
        logged: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'Histogram' });
export type Histogram = z.infer<typeof Histogram>;

const FacetValues = z.array(z.object({ value: z.string(), count: z.number().int() }));

/** The most frequent values of each facet among matching events (ten unless `size` says otherwise). */
export const Facets = z
  .object({
    total: z.number().int(),
    action: FacetValues,
    severity: FacetValues,
    country: FacetValues,
    rule: FacetValues,
    host: FacetValues,
    tag: FacetValues,
    ip: FacetValues,
  })
  .meta({ id: 'Facets' });

/** Facet filters plus how many values to list per facet (the overview's map wants every country). */
export const FacetQuery = EventFilters.extend({
  size: z.coerce.number().int().min(1).max(250).default(10),
});
export type Facets = z.infer<typeof Facets>;

export const EventParams = z.object({ spaceId: Id, eventId: Id });

/** The most events one export sends; a larger result is refused (422) and asks for a narrower range or query. */
export const EVENT_EXPORT_LIMIT = 1_000_000;

/** The export: the event log's filters and a format. */
export const EventExportQuery = EventFilters.extend({
  format: z.enum(exportFormats, 'Choose ndjson or csv.').default('ndjson'),
});
export type EventExportQuery = z.input<typeof EventExportQuery>;

/** The CSV export's columns, in order; rule ids and tags are space-separated. */
export const eventCsvColumns = [
  'time',
  'id',
  'source',
  'ip',
  'country',
  'method',
  'host',
  'path',
  'status',
  'action',
  'severity',
  'ruleIds',
  'tags',
  'message',
  'userAgent',
] as const;

/** This calendar month's (UTC) ingest against the plan's quota: what was stored and what was refused past it. */
export const EventUsage = z
  .object({
    /** 'YYYY-MM', UTC. */
    month: z.string(),
    plan: Plan,
    quota: z.number().int(),
    accepted: z.number().int(),
    refused: z.number().int(),
    /** When the quota starts again: the first moment of the next month, UTC. */
    resetsAt: Timestamp,
  })
  .meta({ id: 'EventUsage' });
export type EventUsage = z.infer<typeof EventUsage>;
