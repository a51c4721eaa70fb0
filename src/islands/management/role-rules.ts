/** What a caller's role lets them do to members and invitations (PRODUCT.md §2); the API stays the authority. */
import type { Role } from '../../../contract/common.ts';

/** All roles, strongest first (mirrors contract/common.ts without pulling zod into the bundle). */
export const ROLES: readonly Role[] = ['owner', 'admin', 'analyst', 'viewer'];

const rank: Record<Role, number> = { owner: 4, admin: 3, analyst: 2, viewer: 1 };

/** Human label of a role. */
export function roleLabel(role: Role): string {
  return role.charAt(0).toUpperCase() + role.slice(1);
}

/** True when `role` is at least `least`. */
export function atLeast(role: Role, least: Role): boolean {
  return rank[role] >= rank[least];
}

/** Roles the caller may give when inviting or changing a role: owners any, admins any but owner, others none. */
export function assignableRoles(caller: Role): readonly Role[] {
  if (caller === 'owner') return ROLES;
  if (caller === 'admin') return ROLES.filter((r) => r !== 'owner');
  return [];
}

/** True when the caller may change the role of, or remove, a member (or revoke an invitation) with role `target`. */
export function canManage(caller: Role, target: Role): boolean {
  if (!atLeast(caller, 'admin')) return false;
  return target !== 'owner' || caller === 'owner';
}
