/** Space roles and what they rank (docs/product.md §2): plain values, no zod, for schemas, server and islands. */

/** Space roles, strongest first. */
export const roles = ['owner', 'admin', 'analyst', 'viewer'] as const;
export type Role = (typeof roles)[number];

/** Rank of a role: a caller may act when its rank is at least the least role an action needs. */
export const roleRank: Readonly<Record<Role, number>> = { owner: 4, admin: 3, analyst: 2, viewer: 1 };
