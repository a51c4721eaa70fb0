import { z } from 'zod';

import { type Role as RoleName, roles } from './constants/roles.ts';

/** Space roles, strongest first, as in docs/product.md §2. */
export const Role = z.enum(roles).meta({ id: 'Role' });
export type Role = RoleName;

/** True when a text holds a control character (a line break, NUL, DEL…), which no one-line value may carry. */
export function hasControl(value: string): boolean {
  return [...value].some((char) => {
    const code = char.charCodeAt(0);
    return code < 0x20 || code === 0x7f;
  });
}

/** Ids are UUIDs everywhere. */
export const Id = z.uuid();

/**
 * The times the product takes, ingest and query alike: PostgreSQL holds more, but a time outside 1970–2200 is a
 * mistake or an attack, and years like 0000 or 10000 fail its statements (`latest` is exclusive).
 */
export const timeRange = {
  earliest: Date.UTC(1970, 0, 1),
  latest: Date.UTC(2201, 0, 1),
  rule: 'Use a time between 1970 and 2200.',
} as const;

/** Timestamps travel as RFC 3339 strings, between 1970 and 2200. */
export const Timestamp = z.iso.datetime({ offset: true }).refine((value) => {
  const at = Date.parse(value);
  return at >= timeRange.earliest && at < timeRange.latest;
}, timeRange.rule);

/** An opaque list cursor: base64url text as the server wrote it (what it holds is checked where it is read). */
export const Cursor = z
  .string()
  .max(200, 'This cursor is not valid; start from the first page.')
  .regex(/^[A-Za-z0-9_-]*$/, 'This cursor is not valid; start from the first page.');

/** Cursor pagination query shared by every list. */
export const PageQuery = z.object({
  cursor: Cursor.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** Params of every space path. */
export const SpaceParams = z.object({ spaceId: Id });

/** A list page: `{ items, nextCursor }`. */
export function page<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

/** `{ ok: true }` for operations with nothing else to say. */
export const Ok = z.object({ ok: z.literal(true) }).meta({ id: 'Ok' });

/** A comma-separated query value of known words (`status=open,acknowledged`); a bad word is named on the field. */
export const csv = <const T extends string>(values: readonly T[]) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? value.split(',').filter(Boolean) : value),
    z
      .array(z.string().max(20))
      .max(values.length, `Name each of ${values.join(', ')} at most once.`)
      .refine((list) => list.every((v) => (values as readonly string[]).includes(v)), {
        message: `Use any of ${values.join(', ')}, separated by commas.`,
      })
      .transform((list) => list as T[])
      .optional(),
  );
