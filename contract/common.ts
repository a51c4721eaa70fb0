import { z } from 'zod';

/** Space roles, weakest last, as in PRODUCT.md §2. */
export const roles = ['owner', 'admin', 'analyst', 'viewer'] as const;
export const Role = z.enum(roles).meta({ id: 'Role' });
export type Role = z.infer<typeof Role>;

/** Rank of a role: a caller may act when its rank is at least the route's least role. */
export const roleRank: Record<Role, number> = { owner: 4, admin: 3, analyst: 2, viewer: 1 };

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
