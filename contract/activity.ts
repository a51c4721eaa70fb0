import { z } from 'zod';
import { Cursor, Id, Timestamp } from './common.ts';
import { exportFormats } from './constants/events.ts';

/** One audit record. */
export const Activity = z
  .object({
    id: Id,
    spaceId: Id.nullable(),
    actorId: Id.nullable(),
    actorName: z.string().nullable(),
    action: z.string(),
    objectType: z.string(),
    objectId: z.string().nullable(),
    createdAt: Timestamp,
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    change: z.unknown(),
  })
  .meta({ id: 'Activity' });
export type Activity = z.infer<typeof Activity>;
export const ActivityPage = z
  .object({ items: z.array(Activity), nextCursor: z.string().nullable() })
  .meta({ id: 'ActivityPage' });
export type ActivityPage = z.infer<typeof ActivityPage>;

/** What the space's log holds, for the filters' pick lists: its actions, object types and actors, sorted. */
export const ActivityChoices = z
  .object({
    actions: z.array(z.string()),
    objectTypes: z.array(z.string()),
    actors: z.array(z.object({ id: Id, name: z.string().nullable() })),
  })
  .meta({ id: 'ActivityChoices' });
export type ActivityChoices = z.infer<typeof ActivityChoices>;

const Filters = {
  actor: Id.optional(),
  action: z.string().max(100).optional(),
  objectType: z.string().max(100).optional(),
  from: Timestamp.optional(),
  to: Timestamp.optional(),
};

export const ActivityQuery = z.object({
  ...Filters,
  cursor: Cursor.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ActivityQuery = z.input<typeof ActivityQuery>;

export const ActivityExportQuery = z.object({ ...Filters, format: z.enum(exportFormats).default('ndjson') });
