import { SpaceParams } from '../../contract/common.ts';
import {
  EVENT_EXPORT_LIMIT,
  EventExportQuery,
  EventPage,
  EventPageQuery,
  EventParams,
  EventUsage,
  eventCsvColumns,
  FacetQuery,
  Facets,
  Histogram,
  HistogramQuery,
} from '../../contract/event-search.ts';
import { Event } from '../../contract/events.ts';
import { inSpace } from '../caller.ts';
import { createRouter, json, route, streamDownload } from '../router.ts';
import { exportEvents } from '../services/events/export.ts';
import { eventById, eventFacets, eventHistogram, eventPage } from '../services/events/search.ts';
import { usageThisMonth } from '../services/events/usage.ts';

/**
 * The event log of a space: a page of matching events, a histogram, facet counts, this month's usage, the
 * export, and one event. Every path lives in this one router, so no mount order in app.ts decides whether
 * `/events/export` is read as `/events/{eventId}`; here the fixed paths come first (events.test.ts checks it).
 */
export const eventRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/events',
      summary: 'Events matching a query and time range, newest first, cursor-paginated',
      request: { params: SpaceParams, query: EventPageQuery },
      responses: { 200: json(EventPage, 'One page') },
    }),
    async (c) => c.json(await eventPage(inSpace(c), c.req.valid('query')), 200),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/events/histogram',
      summary: 'Matching and blocked events per time bucket (default: the last 24 hours)',
      request: { params: SpaceParams, query: HistogramQuery },
      responses: { 200: json(Histogram, 'Buckets, oldest first') },
    }),
    async (c) => c.json(await eventHistogram(inSpace(c), c.req.valid('query')), 200),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/events/facets',
      summary: 'The most frequent actions, severities, countries, rules, hosts, tags and client IPs of matching events',
      request: { params: SpaceParams, query: FacetQuery },
      responses: { 200: json(Facets, 'Facet counts') },
    }),
    async (c) => c.json(await eventFacets(inSpace(c), c.req.valid('query')), 200),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/events/usage',
      summary:
        "This month's ingest (UTC) against the plan's monthly quota: events stored and events refused past the quota",
      request: { params: SpaceParams },
      responses: { 200: json(EventUsage, 'Usage this month') },
    }),
    async (c) => c.json(await usageThisMonth(inSpace(c)), 200),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/events/export',
      summary: `Every event matching a query and time range, newest first, as NDJSON or CSV (at most ${EVENT_EXPORT_LIMIT.toLocaleString('en')} events)`,
      description: [
        'Streams the whole result, fetched in keyset-paged chunks, as a file download.',
        '`X-Total-Count` gives the number of matching events up front, so a client can show progress.',
        'NDJSON lines are events as `GET .../events/{eventId}` answers them, `raw` included.',
        `CSV columns: ${eventCsvColumns.join(', ')} (source by name; rule ids and tags space-separated);`,
        'every cell quoted (RFC 4180), and cells starting with = + - @ get a leading apostrophe so spreadsheets do not run them.',
        `A result of more than ${EVENT_EXPORT_LIMIT.toLocaleString('en')} events is refused with 422: narrow the range or the query.`,
      ].join(' '),
      request: { params: SpaceParams, query: EventExportQuery },
      responses: {
        200: {
          description: 'The events, newest first',
          headers: {
            'X-Total-Count': {
              description: 'How many events matched when the export started (events ingested meanwhile may add a few)',
              schema: { type: 'integer' },
            },
            'Content-Disposition': {
              description: 'attachment; filename="spaceguard-events-{space}-{from}-{to}.ndjson|csv"',
              schema: { type: 'string' },
            },
          },
          content: {
            'application/x-ndjson': { schema: { type: 'string' } },
            'text/csv': { schema: { type: 'string' } },
          },
        },
      },
    }),
    async (c) => streamDownload(c, await exportEvents(inSpace(c), c.req.valid('query'))),
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/events/{eventId}',
      summary: 'One event with its raw record',
      request: { params: EventParams },
      responses: { 200: json(Event, 'The event') },
    }),
    async (c) => c.json(await eventById(inSpace(c), c.req.valid('param').eventId), 200),
  );
