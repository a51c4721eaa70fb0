/** Invitations to a space: sent by mail with a role, previewed and accepted through their link, revoked, tidied. */
import { and, desc, eq, gt, isNull, lt, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Role } from '../../../contract/constants/roles.ts';
import type { AcceptedInvitation, Invitation, InvitationPreview, InviteBody } from '../../../contract/members.ts';
import { assignableRoles, canManage, roleLabel } from '../../../contract/roles.ts';
import type { SpaceCaller, UserCaller } from '../../caller.ts';
import type { Db } from '../../db/database.ts';
import { type InvitationRow, invitations } from '../../db/schema/invitations.ts';
import { memberships } from '../../db/schema/memberships.ts';
import { spaces } from '../../db/schema/spaces.ts';
import { users } from '../../db/schema/users.ts';
import type { AppDeps } from '../../deps.ts';
import { ApiError, notFound } from '../../errors.ts';
import { recordActivity } from '../activity/record.ts';
import { checkLimit } from '../limits/limits.ts';
import { deliver } from '../mail/mailer.ts';
import { invitationMail } from '../mail/templates.ts';
import { hashToken, randomToken } from '../shared/tokens.ts';
import { lockSpace } from './lock-space.ts';
import { ownerRequired } from './members.ts';

const invitationLifetimeMs = 7 * 86_400_000;

function tokenUsed(): ApiError {
  return new ApiError(409, 'token_used', 'This invitation was already used.');
}

function tokenExpired(): ApiError {
  return new ApiError(422, 'token_expired', 'This invitation has expired; ask for a new one.');
}

/** 409 for re-inviting an address whose pending invitation has a role the caller may not give. */
function pendingRoleTaken(role: Role): ApiError {
  const label = roleLabel(role);
  return new ApiError(
    409,
    'invitation_role_pending',
    `This address has a pending invitation as ${label}; only an owner may replace or revoke it.`,
    { fields: { email: `Already invited as ${label}.` } },
  );
}

/** Not accepted yet and not expired at `now`. */
function pendingAt(now: Date): SQL[] {
  return [isNull(invitations.acceptedAt), gt(invitations.expiresAt, now)];
}

/** A pending invitation as the space's members see it. */
function invitationView(i: InvitationRow, inviter: string | null): Invitation {
  return {
    id: i.id,
    email: i.email,
    role: i.role,
    invitedBy: inviter,
    createdAt: i.createdAt.toISOString(),
    expiresAt: i.expiresAt.toISOString(),
  };
}

/** An invitation as its invitee sees it. */
function previewView(i: InvitationRow, spaceName: string): InvitationPreview {
  return {
    id: i.id,
    spaceId: i.spaceId,
    spaceName,
    email: i.email,
    role: i.role,
    expiresAt: i.expiresAt.toISOString(),
  };
}

/** The pending invitations of the caller's space, newest first. */
export async function listInvitations(sc: SpaceCaller): Promise<{ items: Invitation[] }> {
  const rows = await sc.deps.db
    .select({ invitation: invitations, inviter: users.name })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(and(eq(invitations.spaceId, sc.space.id), ...pendingAt(sc.deps.now())))
    .orderBy(desc(invitations.createdAt));
  return { items: rows.map(({ invitation, inviter }) => invitationView(invitation, inviter)) };
}

/**
 * Invites an address with a role and mails the link; inviting again replaces the pending invitation, unless the
 * caller may not give that invitation's role (an admin over a pending owner invitation: 409).
 */
export async function invite(sc: SpaceCaller, { email, role }: z.infer<typeof InviteBody>): Promise<Invitation> {
  const { space, user } = sc;
  if (!assignableRoles(sc.role).includes(role)) throw ownerRequired();
  const { db, now, config } = sc.deps;
  const at = now();
  const token = randomToken();
  const invitation = await db.transaction(async (tx) => {
    await lockSpace(tx, space.id);
    const [already] = await tx
      .select({ id: users.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.spaceId, space.id), eq(users.email, email)));
    if (already) {
      throw new ApiError(409, 'already_member', 'This person is already a member.', {
        fields: { email: 'Already a member of this space.' },
      });
    }
    // Replacing a pending invitation revokes it: refused when the caller could not have given its role.
    const [pending] = await tx
      .select({ role: invitations.role })
      .from(invitations)
      .where(and(eq(invitations.spaceId, space.id), eq(invitations.email, email), ...pendingAt(at)));
    if (pending && !assignableRoles(sc.role).includes(pending.role)) throw pendingRoleTaken(pending.role);
    await tx
      .delete(invitations)
      .where(and(eq(invitations.spaceId, space.id), eq(invitations.email, email), isNull(invitations.acceptedAt)));
    await checkLimit(tx, space, 'members', { adding: 1 }, at);
    const [created] = await tx
      .insert(invitations)
      .values({
        spaceId: space.id,
        email,
        role,
        tokenHash: hashToken(token),
        invitedBy: user.id,
        createdAt: at,
        expiresAt: new Date(at.getTime() + invitationLifetimeMs),
      })
      .returning();
    if (!created) throw new Error('insert returned nothing');
    await recordActivity(tx, sc.actor, {
      spaceId: space.id,
      action: 'invitation.create',
      objectType: 'invitation',
      objectId: created.id,
      change: { email, role },
    });
    return created;
  });
  await deliver(
    sc.deps,
    invitationMail(config.publicUrl, { email, inviter: user.name, spaceName: space.name, role }, token),
  );
  return invitationView(invitation, user.name);
}

/** Revokes a pending invitation; one for the owner role needs an owner. */
export async function revokeInvitation(sc: SpaceCaller, invitationId: string): Promise<void> {
  const { space } = sc;
  await sc.deps.db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(invitations)
      .where(and(eq(invitations.id, invitationId), eq(invitations.spaceId, space.id), isNull(invitations.acceptedAt)))
      .returning();
    if (!gone) throw notFound('invitation');
    if (!canManage(sc.role, gone.role)) throw ownerRequired();
    await recordActivity(tx, sc.actor, {
      spaceId: space.id,
      action: 'invitation.revoke',
      objectType: 'invitation',
      objectId: gone.id,
      change: { email: gone.email, role: gone.role },
    });
  });
}

/** What an invitation link offers (space, address, role), for whoever holds the link. */
export async function previewInvitation(deps: AppDeps, token: string): Promise<InvitationPreview> {
  const [row] = await deps.db
    .select({ invitation: invitations, spaceName: spaces.name })
    .from(invitations)
    .innerJoin(spaces, eq(spaces.id, invitations.spaceId))
    .where(eq(invitations.tokenHash, hashToken(token)));
  if (!row) throw notFound('invitation');
  const { invitation: i, spaceName } = row;
  if (i.acceptedAt) throw tokenUsed();
  if (i.expiresAt <= deps.now()) throw tokenExpired();
  return previewView(i, spaceName);
}

/** The pending invitations addressed to the caller, newest first. */
export async function invitationsFor(me: UserCaller): Promise<{ items: InvitationPreview[] }> {
  const rows = await me.deps.db
    .select({ invitation: invitations, spaceName: spaces.name })
    .from(invitations)
    .innerJoin(spaces, eq(spaces.id, invitations.spaceId))
    .where(and(eq(invitations.email, me.user.email), ...pendingAt(me.deps.now())))
    .orderBy(desc(invitations.createdAt));
  return { items: rows.map(({ invitation, spaceName }) => previewView(invitation, spaceName)) };
}

/** Which invitation to accept: the one a link's token names, or a pending one by id (from the caller's list). */
export type InvitationKey = { token: string } | { id: string };

/** Accepts an invitation for the signed-in user with the invited address, in one transaction. */
export async function acceptInvitation(
  me: UserCaller,
  key: InvitationKey,
): Promise<z.infer<typeof AcceptedInvitation>> {
  const { user } = me;
  const where: SQL = 'token' in key ? eq(invitations.tokenHash, hashToken(key.token)) : eq(invitations.id, key.id);
  const at = me.deps.now();
  return me.deps.db.transaction(async (tx) => {
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
    if (invitation.acceptedAt) throw tokenUsed();
    if (invitation.expiresAt <= at) throw tokenExpired();
    const [existing] = await tx
      .select()
      .from(memberships)
      .where(and(eq(memberships.spaceId, space.id), eq(memberships.userId, user.id)));
    const taken = await tx
      .update(invitations)
      .set({ acceptedAt: at })
      .where(and(eq(invitations.id, invitation.id), isNull(invitations.acceptedAt)))
      .returning({ id: invitations.id });
    if (taken.length === 0) throw tokenUsed();
    if (existing) return { spaceId: space.id, role: existing.role };
    // This invitation was counted as pending; once accepted it counts as a member instead.
    await checkLimit(tx, space, 'members', { adding: 1 }, at);
    await tx.insert(memberships).values({ spaceId: space.id, userId: user.id, role: invitation.role, createdAt: at });
    await tx.update(users).set({ lastSpaceId: space.id }).where(eq(users.id, user.id));
    await recordActivity(tx, me.actor, {
      spaceId: space.id,
      action: 'member.join',
      objectType: 'member',
      objectId: user.id,
      change: { email: user.email, role: invitation.role, invitationId: invitation.id },
    });
    return { spaceId: space.id, role: invitation.role };
  });
}

/** Deletes pending invitations that expired before `cutoff`; answers how many (accepted ones stay). */
export async function deleteLapsedInvitations(db: Db, cutoff: Date): Promise<number> {
  const gone = await db
    .delete(invitations)
    .where(and(lt(invitations.expiresAt, cutoff), isNull(invitations.acceptedAt)))
    .returning({ id: invitations.id });
  return gone.length;
}
