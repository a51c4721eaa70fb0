/**
 * Members of a space and their roles. Who may give or touch which role is decided in
 * contract/constants/roles.ts (`atLeast`, `assignableRoles`, `canManage`); this module adds the rules that
 * need the database: a space always keeps an owner, and membership changes of one space run one at a time.
 */
import { and, asc, count, eq } from 'drizzle-orm';
import type { Role } from '../../../contract/constants/roles.ts';
import type { Member } from '../../../contract/members.ts';
import { assignableRoles, canManage } from '../../../contract/roles.ts';
import type { SpaceCaller } from '../../caller.ts';
import type { Db, Executor } from '../../db/database.ts';
import { memberships } from '../../db/schema/memberships.ts';
import { type SpaceRow, spaces } from '../../db/schema/spaces.ts';
import { type User, users } from '../../db/schema/users.ts';
import { ApiError, notFound } from '../../errors.ts';
import { recordActivity } from '../activity/record.ts';
import { lockSpace } from './lock-space.ts';

/** 403 for an admin acting on an owner or on the owner role. */
export function ownerRequired(): ApiError {
  return new ApiError(403, 'owner_required', 'Only an owner may manage owners.');
}

/** The space and the user's role in it, or null when the user is not a member (the access middleware's one query). */
export async function membershipOf(
  db: Db,
  spaceId: string,
  userId: string,
): Promise<{ space: SpaceRow; role: Role } | null> {
  const [row] = await db
    .select({ space: spaces, role: memberships.role })
    .from(memberships)
    .innerJoin(spaces, eq(spaces.id, memberships.spaceId))
    .where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, userId)));
  return row ?? null;
}

/** How many owners a space has. */
export async function ownerCount(tx: Executor, spaceId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.spaceId, spaceId), eq(memberships.role, 'owner')));
  return row?.n ?? 0;
}

type MemberRow = { membership: typeof memberships.$inferSelect; user: User };

/** A member with its user; 404 when the user is not a member of the space. */
async function memberOf(tx: Executor, spaceId: string, userId: string): Promise<MemberRow> {
  const [row] = await tx
    .select({ membership: memberships, user: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, userId)));
  if (!row) throw notFound('member');
  return row;
}

/** A member as the API shows it, with its new role when it just changed. */
function memberView(row: MemberRow, role?: Role): Member {
  return {
    userId: row.user.id,
    name: row.user.name,
    email: row.user.email,
    role: role ?? row.membership.role,
    joinedAt: row.membership.createdAt.toISOString(),
  };
}

/** Takes a user out of a space, forgetting it as the user's last space. */
async function dropMembership(tx: Executor, spaceId: string, userId: string): Promise<void> {
  await tx.delete(memberships).where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, userId)));
  await tx
    .update(users)
    .set({ lastSpaceId: null })
    .where(and(eq(users.id, userId), eq(users.lastSpaceId, spaceId)));
}

/** The members of the caller's space, by join date. */
export async function listMembers(sc: SpaceCaller): Promise<{ items: Member[] }> {
  const rows = await sc.deps.db
    .select({ membership: memberships, user: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.spaceId, sc.space.id))
    .orderBy(asc(memberships.createdAt), asc(users.id));
  return { items: rows.map((r) => memberView(r)) };
}

/** Changes a member's role; only owners touch the owner role, and the last owner stays owner. */
export async function changeRole(sc: SpaceCaller, userId: string, role: Role): Promise<Member> {
  const { space } = sc;
  return sc.deps.db.transaction(async (tx) => {
    await lockSpace(tx, space.id);
    const target = await memberOf(tx, space.id, userId);
    const from = target.membership.role;
    if (!canManage(sc.role, from) || !assignableRoles(sc.role).includes(role)) throw ownerRequired();
    if (from === role) return memberView(target);
    if (from === 'owner' && (await ownerCount(tx, space.id)) <= 1) {
      throw new ApiError(409, 'last_owner', 'A space always keeps an owner; make someone else owner first.');
    }
    await tx
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.spaceId, space.id), eq(memberships.userId, userId)));
    await recordActivity(tx, sc.actor, {
      spaceId: space.id,
      action: 'member.role_change',
      objectType: 'member',
      objectId: userId,
      change: { email: target.user.email, from, to: role },
    });
    return memberView(target, role);
  });
}

/** Removes a member; removing an owner needs an owner, and the last owner cannot go. */
export async function removeMember(sc: SpaceCaller, userId: string): Promise<void> {
  const { space } = sc;
  await sc.deps.db.transaction(async (tx) => {
    await lockSpace(tx, space.id);
    const target = await memberOf(tx, space.id, userId);
    if (!canManage(sc.role, target.membership.role)) throw ownerRequired();
    if (target.membership.role === 'owner' && (await ownerCount(tx, space.id)) <= 1) {
      throw new ApiError(409, 'last_owner', 'A space always keeps an owner; transfer ownership first.');
    }
    await dropMembership(tx, space.id, userId);
    await recordActivity(tx, sc.actor, {
      spaceId: space.id,
      action: 'member.remove',
      objectType: 'member',
      objectId: userId,
      change: { email: target.user.email, role: target.membership.role },
    });
  });
}

/** The caller leaves the space; the last owner must transfer ownership (or delete the space) first. */
export async function leaveSpace(sc: SpaceCaller): Promise<void> {
  const { space, user } = sc;
  await sc.deps.db.transaction(async (tx) => {
    await lockSpace(tx, space.id);
    if (sc.role === 'owner' && (await ownerCount(tx, space.id)) <= 1) {
      throw new ApiError(409, 'last_owner', 'You are the last owner; transfer ownership or delete the space.');
    }
    await dropMembership(tx, space.id, user.id);
    await recordActivity(tx, sc.actor, {
      spaceId: space.id,
      action: 'member.leave',
      objectType: 'member',
      objectId: user.id,
      change: { role: sc.role },
    });
  });
}
