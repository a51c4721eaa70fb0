import { z } from 'zod';

import { type Role as RoleName, roles } from './constants/roles.ts';

/** Space roles, strongest first, as in PRODUCT.md §2. */
export const Role = z.enum(roles).meta({ id: 'Role' });
export type Role = RoleName;

/** Ids are UUIDs everywhere. */
export const Id = z.uuid();

/** Timestamps travel as RFC 3339 strings. */
export const Timestamp = z.iso.datetime({ offset: true });

/** Cursor pagination query shared by every list. */
export const PageQuery = z.object({
  cursor: z.string().max(200).optional(),
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
