import { z } from 'zod';
import { Cursor, Id, SpaceParams, Timestamp } from './common.ts';

/** The event log's relative ranges, as its URL keeps them (`range=24h`). */
export const savedSearchRanges = ['1h', '24h', '7d', '30d'] as const;
export const SavedSearchRange = z.enum(savedSearchRanges).meta({ id: 'SavedSearchRange' });
export type SavedSearchRange = z.infer<typeof SavedSearchRange>;

const Name = z.string().trim().min(1, 'Name the search.').max(80, 'Use at most 80 characters.');
const Query = z.string().max(2000, 'Use at most 2000 characters.');

type RangeFields = {
  range?: SavedSearchRange | null | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
};

/**
 * A saved search's time range is either relative (`range`) or absolute (`from` and `to`, start first), never both.
 * `required` says whether a range must be given at all (creation) or may be left out (an update that keeps it).
 */
function checkRange(value: RangeFields, ctx: z.RefinementCtx, required: boolean): void {
  const relative = value.range !== undefined && value.range !== null;
  const from = value.from ?? null;
  const to = value.to ?? null;
  const absolute = from !== null || to !== null;
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (relative && absolute) {
    issue('range', 'Give either a relative range or from and to, not both.');
  } else if (absolute) {
    if (from === null) issue('from', 'Give the start of the range too.');
    else if (to === null) issue('to', 'Give the end of the range too.');
    else if (Date.parse(from) >= Date.parse(to)) issue('from', 'The start of the range must be before its end.');
  } else if (!relative && (required || value.range === null)) {
    issue('range', 'Give a relative range (1h, 24h, 7d or 30d) or both from and to.');
  }
}

const Fields = {
  name: Name,
  /** In the event query language; checked by its parser (a 400 names the position). */
  query: Query,
  range: SavedSearchRange.nullable(),
  from: Timestamp.nullable(),
  to: Timestamp.nullable(),
};

export const CreateSavedSearchBody = z
  .object({
    name: Fields.name,
    query: Fields.query.default(''),
    range: Fields.range.optional(),
    from: Fields.from.optional(),
    to: Fields.to.optional(),
  })
  .strict()
  .superRefine((value, ctx) => checkRange(value, ctx, true))
  .meta({ id: 'CreateSavedSearchBody' });
export type CreateSavedSearchBody = z.input<typeof CreateSavedSearchBody>;

/** Any of the fields; a new range replaces the old one whole (a relative range, or both from and to). */
export const UpdateSavedSearchBody = z
  .object({
    name: Fields.name.optional(),
    query: Fields.query.optional(),
    range: Fields.range.optional(),
    from: Fields.from.optional(),
    to: Fields.to.optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.range !== undefined || value.from !== undefined || value.to !== undefined) checkRange(value, ctx, false);
  })
  .meta({ id: 'UpdateSavedSearchBody' });
export type UpdateSavedSearchBody = z.input<typeof UpdateSavedSearchBody>;

/** A named event log search: the query and the range as the screen keeps them, and who saved it. */
export const SavedSearch = z
  .object({
    id: Id,
    spaceId: Id,
    name: z.string(),
    query: z.string(),
    /** A relative range, or null when `from` and `to` are absolute. */
    range: SavedSearchRange.nullable(),
    from: Timestamp.nullable(),
    to: Timestamp.nullable(),
    createdById: Id.nullable(),
    createdByName: z.string(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'SavedSearch' });
export type SavedSearch = z.infer<typeof SavedSearch>;

export const SavedSearchPage = z
  .object({ items: z.array(SavedSearch), nextCursor: z.string().nullable() })
  .meta({ id: 'SavedSearchPage' });
export type SavedSearchPage = z.infer<typeof SavedSearchPage>;

/** Saved searches are listed by name (ignoring case). */
export const SavedSearchListQuery = z.object({
  cursor: Cursor.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export const SavedSearchParams = SpaceParams.extend({ id: Id });
