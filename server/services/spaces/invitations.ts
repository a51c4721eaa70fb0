import { and, count, eq, gt, isNull, type SQL } from 'drizzle-orm';
import type { Context } from 'hono';
import type { Role } from '../../../contract/common.ts';
import { planTerms } from '../../../contract/constants/plans.ts';
import type { AppEnv } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { invitations } from '../../db/schema/invitations.ts';
import { memberships } from '../../db/schema/memberships.ts';
import { type SpaceRow, spaces } from '../../db/schema/spaces.ts';
import { users } from '../../db/schema/users.ts';
import { ApiError, notFound } from '../../errors.ts';
import { recordActivity } from '../activity/record.ts';
import { lockSpace } from './lock-space.ts';

/** 422 naming the limit and the plan that lifts it, when a space would exceed its member limit. */
export async function checkMemberLimit(tx: Executor, space: SpaceRow, adding: number, now: Date): Promise<void> {
  const [members] = await tx.select({ n: count() }).from(memberships).where(eq(memberships.spaceId, space.id));
  const [pending] = await tx
    .select({ n: count() })
    .from(invitations)
    .where(and(eq(invitations.spaceId, space.id), isNull(invitations.acceptedAt), gt(invitations.expiresAt, now)));
  const limit = planTerms[space.plan].members;
  if ((members?.n ?? 0) + (pending?.n ?? 0) + adding > limit) {
    const next = space.plan === 'free' ? 'Pro' : 'Business';
    throw new ApiError(
      422,
      'plan_limit_members',
      `The ${planTerms[space.plan].label} plan allows ${limit} members (pending invitations included); the ${next} plan allows ${planTerms[space.plan === 'free' ? 'pro' : 'business'].members}.`,
      { fields: { email: `Member limit of the ${planTerms[space.plan].label} plan reached (${limit}).` } },
    );
  }
}

/** Accepts the invitation matching `where` for the signed-in user, in one transaction. */
export async function acceptInvitation(
  c: Context<AppEnv>,
  where: SQL | undefined,
): Promise<{ spaceId: string; role: Role }> {
  const user = c.var.user;
  if (!user) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
  const { db, now } = c.var.deps;
  const at = now();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ invitation: invitations, space: spaces })
      .from(invitations)
      .innerJoin(spaces, eq(spaces.id, invitations.spaceId))
      .where(where);
    if (!row) throw notFound('invitation');
    const { invitation, space } = row;
    await lockSpace(tx, space.id);
    if (invitation.email !== user.email) {
      throw new ApiError(
        403,
        'invitation_other_email',
        `This invitation is for ${invitation.email}; sign in with that address.`,
      );
    }
    if (invitation.acceptedAt) throw new ApiError(409, 'token_used', 'This invitation was already used.');
    if (invitation.expiresAt <= at) {
      throw new ApiError(422, 'token_expired', 'This invitation has expired; ask for a new one.');
    }
    const [existing] = await tx
      .select()
      .from(memberships)
      .where(and(eq(memberships.spaceId, space.id), eq(memberships.userId, user.id)));
    const taken = await tx
      .update(invitations)
      .set({ acceptedAt: at })
      .where(and(eq(invitations.id, invitation.id), isNull(invitations.acceptedAt)))
      .returning({ id: invitations.id });
    if (taken.length === 0) throw new ApiError(409, 'token_used', 'This invitation was already used.');
    if (existing) return { spaceId: space.id, role: existing.role };
    // This invitation was counted as pending; once accepted it counts as a member instead.
    await checkMemberLimit(tx, space, 1, at);
    await tx.insert(memberships).values({ spaceId: space.id, userId: user.id, role: invitation.role });
    await tx.update(users).set({ lastSpaceId: space.id }).where(eq(users.id, user.id));
    await recordActivity(tx, c.var.actor, {
      spaceId: space.id,
      action: 'member.join',
      objectType: 'member',
      objectId: user.id,
      change: { email: user.email, role: invitation.role, invitationId: invitation.id },
    });
    return { spaceId: space.id, role: invitation.role };
  });
}
