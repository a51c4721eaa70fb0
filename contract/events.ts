import { z } from 'zod';
import { Id, Timestamp } from './common.ts';
import {
  type EventAction as ActionName,
  eventActions,
  type Severity as SeverityName,
  severities,
} from './constants/events.ts';

export const EventAction = z.enum(eventActions).meta({ id: 'EventAction' });
export type EventAction = ActionName;

/** Severities, strongest first. */
export const Severity = z.enum(severities).meta({ id: 'Severity' });
export type Severity = SeverityName;

/** The generic event of docs/product.md §7: only `time` is required, unknown fields are kept in `raw`. */
export const GenericEvent = z
  .looseObject({
    time: z.iso.datetime({ offset: true, message: 'time must be an RFC 3339 timestamp.' }),
    id: z.string().min(1).max(200).optional(),
    ip: z.string().max(64).optional(),
    method: z.string().max(32).optional(),
    host: z.string().max(512).optional(),
    path: z.string().max(8192).optional(),
    status: z.number().int().min(0).max(999).optional(),
    action: EventAction.optional(),
    severity: Severity.optional(),
    ruleIds: z.array(z.number().int().min(0).max(2_147_483_647)).max(200).optional(),
    tags: z.array(z.string().max(200)).max(200).optional(),
    message: z.string().max(8192).optional(),
    userAgent: z.string().max(2048).optional(),
    firewallId: Id.optional(),
  })
  .meta({ id: 'GenericEvent' });
export type GenericEvent = z.infer<typeof GenericEvent>;

/** An event as normalised by a parser, before it is stored. */
export const NormalisedEvent = z
  .object({
    time: Timestamp,
    dedupKey: z.string().nullable(),
    ip: z.string().nullable(),
    country: z.string().length(2).nullable(),
    method: z.string().nullable(),
    host: z.string().nullable(),
    path: z.string().nullable(),
    status: z.number().int().nullable(),
    action: EventAction,
    severity: Severity,
    ruleIds: z.array(z.number().int()),
    tags: z.array(z.string()),
    message: z.string().nullable(),
    userAgent: z.string().nullable(),
    firewallId: Id.nullable(),
    raw: z.unknown(),
  })
  .meta({ id: 'NormalisedEvent' });
export type NormalisedEvent = z.infer<typeof NormalisedEvent>;

/** A stored event: the normalised fields plus its id, source and arrival time. */
export const Event = NormalisedEvent.extend({ id: Id, sourceId: Id, receivedAt: Timestamp }).meta({ id: 'Event' });
export type Event = z.infer<typeof Event>;

/**
 * An event as a row of the event log's page: every field but the raw record, which only the detail
 * (`GET .../events/{id}`) and the export read, so that a page of 100 rows stays small.
 */
export const EventSummary = Event.omit({ raw: true }).meta({ id: 'EventSummary' });
export type EventSummary = z.infer<typeof EventSummary>;

/** One refused line of a batch, numbered from 1. */
export const LineError = z.object({ line: z.number().int().min(1), message: z.string() }).meta({ id: 'LineError' });
export type LineError = z.infer<typeof LineError>;

/** The answer of `POST /api/ingest/{sourceToken}`; `refused` counts events past the monthly quota. */
export const IngestAnswer = z
  .object({
    accepted: z.number().int().min(0),
    errors: z.array(LineError),
    refused: z.number().int().min(0).optional(),
  })
  .meta({ id: 'IngestAnswer' });
export type IngestAnswer = z.infer<typeof IngestAnswer>;

/** The 429 answer of an ingest past the monthly quota: the error, what was accepted, and how many were refused. */
export const IngestRefusal = IngestAnswer.extend({
  error: z.object({ code: z.string(), message: z.string() }),
  refused: z.number().int().min(0),
}).meta({ id: 'IngestRefusal' });
export type IngestRefusal = z.infer<typeof IngestRefusal>;
