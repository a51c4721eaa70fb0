import { z } from 'zod';
import { Id, SpaceParams, Timestamp } from './common.ts';
import { type SourceKind as KindName, sourceKinds } from './constants/sources.ts';
import { LineError, NormalisedEvent } from './events.ts';

/** What a source's lines look like: ModSecurity v3 JSON audit records, generic JSON events, RFC 5424 syslog. */
export const SourceKind = z.enum(sourceKinds).meta({ id: 'SourceKind' });
export type SourceKind = KindName;

const SourceName = z.string().trim().min(1, 'Name the source.').max(80, 'Use at most 80 characters.');
const SourceRetention = z.number().int().min(1, 'Keep events at least 1 day.').max(365).nullable();

export const CreateSourceBody = z
  .object({ name: SourceName, kind: SourceKind, retentionDays: SourceRetention.optional() })
  .meta({ id: 'CreateSourceBody' });
export type CreateSourceBody = z.input<typeof CreateSourceBody>;

export const UpdateSourceBody = z
  .object({ name: SourceName.optional(), kind: SourceKind.optional(), retentionDays: SourceRetention.optional() })
  .strict()
  .meta({ id: 'UpdateSourceBody' });
export type UpdateSourceBody = z.input<typeof UpdateSourceBody>;

/** A log source with its ingest figures. */
export const Source = z
  .object({
    id: Id,
    spaceId: Id,
    name: z.string(),
    kind: SourceKind,
    /** The first characters of the token, to tell tokens apart; the token itself is shown once. */
    tokenPrefix: z.string(),
    retentionDays: z.number().int().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    /** Events received in the last hour. */
    eventsLastHour: z.number().int(),
    lastEventAt: Timestamp.nullable(),
    /** Lines refused in the last 24 hours. */
    errorsLast24h: z.number().int(),
  })
  .meta({ id: 'Source' });
export type Source = z.infer<typeof Source>;

/** One source as its page reads it: the figures plus the most recent refused lines (newest first, at most 20). */
export const SourceDetail = Source.extend({
  recentErrors: z.array(z.object({ line: z.number().int(), message: z.string(), at: Timestamp })),
}).meta({ id: 'SourceDetail' });
export type SourceDetail = z.infer<typeof SourceDetail>;

/** A source with its ingest token, answered once at creation and at each rotation. */
export const CreatedSource = Source.extend({ token: z.string() }).meta({ id: 'CreatedSource' });
export type CreatedSource = z.infer<typeof CreatedSource>;

export const SourceList = z.object({ items: z.array(Source) }).meta({ id: 'SourceList' });

export const SourceParams = SpaceParams.extend({ id: Id });

export const TestSourceBody = z
  .object({ sample: z.string().max(1_000_000, 'Paste at most 1 MB.') })
  .meta({ id: 'TestSourceBody' });

/** The parser test's answer: what each valid line becomes, and why the others failed. */
export const TestSourceAnswer = z
  .object({
    events: z.array(NormalisedEvent.extend({ line: z.number().int() })),
    errors: z.array(LineError),
  })
  .meta({ id: 'TestSourceAnswer' });
export type TestSourceAnswer = z.infer<typeof TestSourceAnswer>;
