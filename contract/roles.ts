/**
 * What a space role may do (docs/product.md §2): ranks compared, labels, the roles a caller may give and manage.
 * No zod, so islands import it as the server does.
 */
import { type Role, roleRank, roles } from './constants/roles.ts';

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
