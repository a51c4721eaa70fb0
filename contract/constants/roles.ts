/** Space roles and what they rank (PRODUCT.md §2): plain values, no zod, for schemas, server and islands. */

/** Space roles, strongest first. */
export const roles = ['owner', 'admin', 'analyst', 'viewer'] as const;
export type Role = (typeof roles)[number];

/** Rank of a role: a caller may act when its rank is at least the least role an action needs. */
export const roleRank: Readonly<Record<Role, number>> = { owner: 4, admin: 3, analyst: 2, viewer: 1 };

/** True when `role` is at least `least`. */
export function atLeast(role: Role, least: Role): boolean {
  return roleRank[role] >= roleRank[least];
}

/** Human label of a role, e.g. "Admin". */
export function roleLabel(role: Role): string {
  return role.charAt(0).toUpperCase() + role.slice(1);
}

/** Turns any value into a role, or null when it names none. */
export function parseRole(value: unknown): Role | null {
  return roles.find((r) => r === value) ?? null;
}

/** Roles a caller may give when inviting or changing a role: owners any, admins any but owner, others none. */
export function assignableRoles(caller: Role): readonly Role[] {
  if (caller === 'owner') return roles;
  if (caller === 'admin') return roles.filter((r) => r !== 'owner');
  return [];
}

/** True when the caller may change the role of, or remove, a member (or revoke an invitation) with role `target`. */
export function canManage(caller: Role, target: Role): boolean {
  if (!atLeast(caller, 'admin')) return false;
  return target !== 'owner' || caller === 'owner';
}
