import { and, asc, count, desc, eq, gt, isNull } from 'drizzle-orm';
import { Ok, type Role, SpaceParams } from '../../contract/common.ts';
import {
  InvitationList,
  InvitationParams,
  InviteBody,
  Member,
  MemberList,
  MemberParams,
  UpdateMemberBody,
} from '../../contract/members.ts';
import type { Executor } from '../db/database.ts';
import { invitations } from '../db/schema/invitations.ts';
import { memberships } from '../db/schema/memberships.ts';
import { users } from '../db/schema/users.ts';
import { ApiError, notFound } from '../errors.ts';
import { body, createRouter, json, route } from '../router.ts';
import { recordActivity } from '../services/activity/record.ts';
import { deliver } from '../services/mail/mailer.ts';
import { hashToken, randomToken } from '../services/shared/tokens.ts';
import { checkMemberLimit } from '../services/spaces/invitations.ts';
import { lockSpace } from '../services/spaces/lock-space.ts';

const invitationLifetimeMs = 7 * 86_400_000;

function ownerRequired(): ApiError {
  return new ApiError(403, 'owner_required', 'Only an owner may manage owners.');
}

async function ownerCount(tx: Executor, spaceId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.spaceId, spaceId), eq(memberships.role, 'owner')));
  return row?.n ?? 0;
}

async function memberOf(tx: Executor, spaceId: string, userId: string) {
  const [row] = await tx
    .select({ membership: memberships, user: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, userId)));
  if (!row) throw notFound('member');
  return row;
}

function memberView(
  row: { membership: typeof memberships.$inferSelect; user: typeof users.$inferSelect },
  role?: Role,
) {
  return {
    userId: row.user.id,
    name: row.user.name,
    email: row.user.email,
    role: role ?? row.membership.role,
    joinedAt: row.membership.createdAt.toISOString(),
  };
}

/** Members and invitations of a space, per the role table of PRODUCT.md §2. */
export const memberRoutes = createRouter()
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/members',
      summary: 'Members of the space',
      request: { params: SpaceParams },
      responses: { 200: json(MemberList, 'Members by join date') },
    }),
    async (c) => {
      const rows = await c.var.deps.db
        .select({ membership: memberships, user: users })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(eq(memberships.spaceId, c.var.space.id))
        .orderBy(asc(memberships.createdAt), asc(users.id));
      return c.json({ items: rows.map((r) => memberView(r)) }, 200);
    },
  )
  .openapi(
    route('admin', {
      method: 'patch',
      path: '/{spaceId}/members/{userId}',
      summary: 'Change a role; only owners touch the owner role, and the last owner stays owner',
      request: { params: MemberParams, body: body(UpdateMemberBody) },
      responses: { 200: json(Member, 'The member') },
    }),
    async (c) => {
      const { userId } = c.req.valid('param');
      const { role } = c.req.valid('json');
      const space = c.var.space;
      const result = await c.var.deps.db.transaction(async (tx) => {
        await lockSpace(tx, space.id);
        const target = await memberOf(tx, space.id, userId);
        const from = target.membership.role;
        if ((from === 'owner' || role === 'owner') && c.var.role !== 'owner') throw ownerRequired();
        if (from === role) return memberView(target);
        if (from === 'owner' && (await ownerCount(tx, space.id)) <= 1) {
          throw new ApiError(409, 'last_owner', 'A space always keeps an owner; make someone else owner first.');
        }
        await tx
          .update(memberships)
          .set({ role })
          .where(and(eq(memberships.spaceId, space.id), eq(memberships.userId, userId)));
        await recordActivity(tx, c.var.actor, {
          spaceId: space.id,
          action: 'member.role_change',
          objectType: 'member',
          objectId: userId,
          change: { email: target.user.email, from, to: role },
        });
        return memberView(target, role);
      });
      return c.json(result, 200);
    },
  )
  .openapi(
    route('admin', {
      method: 'delete',
      path: '/{spaceId}/members/{userId}',
      summary: 'Remove a member; removing an owner needs an owner, and the last owner cannot go',
      request: { params: MemberParams },
      responses: { 200: json(Ok, 'Removed') },
    }),
    async (c) => {
      const { userId } = c.req.valid('param');
      const space = c.var.space;
      await c.var.deps.db.transaction(async (tx) => {
        await lockSpace(tx, space.id);
        const target = await memberOf(tx, space.id, userId);
        if (target.membership.role === 'owner') {
          if (c.var.role !== 'owner') throw ownerRequired();
          if ((await ownerCount(tx, space.id)) <= 1) {
            throw new ApiError(409, 'last_owner', 'A space always keeps an owner; transfer ownership first.');
          }
        }
        await tx.delete(memberships).where(and(eq(memberships.spaceId, space.id), eq(memberships.userId, userId)));
        await tx
          .update(users)
          .set({ lastSpaceId: null })
          .where(and(eq(users.id, userId), eq(users.lastSpaceId, space.id)));
        await recordActivity(tx, c.var.actor, {
          spaceId: space.id,
          action: 'member.remove',
          objectType: 'member',
          objectId: userId,
          change: { email: target.user.email, role: target.membership.role },
        });
      });
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('viewer', {
      method: 'post',
      path: '/{spaceId}/leave',
      summary: 'Leave the space; the last owner must transfer ownership first',
      request: { params: SpaceParams },
      responses: { 200: json(Ok, 'Left') },
    }),
    async (c) => {
      const space = c.var.space;
      const me = c.var.user;
      if (!me) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
      await c.var.deps.db.transaction(async (tx) => {
        await lockSpace(tx, space.id);
        if (c.var.role === 'owner' && (await ownerCount(tx, space.id)) <= 1) {
          throw new ApiError(409, 'last_owner', 'You are the last owner; transfer ownership or delete the space.');
        }
        await tx.delete(memberships).where(and(eq(memberships.spaceId, space.id), eq(memberships.userId, me.id)));
        await tx
          .update(users)
          .set({ lastSpaceId: null })
          .where(and(eq(users.id, me.id), eq(users.lastSpaceId, space.id)));
        await recordActivity(tx, c.var.actor, {
          spaceId: space.id,
          action: 'member.leave',
          objectType: 'member',
          objectId: me.id,
          change: { role: c.var.role },
        });
      });
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}/invitations',
      summary: 'Pending invitations of the space',
      request: { params: SpaceParams },
      responses: { 200: json(InvitationList, 'Pending invitations, newest first') },
    }),
    async (c) => {
      const rows = await c.var.deps.db
        .select({ invitation: invitations, inviter: users.name })
        .from(invitations)
        .leftJoin(users, eq(users.id, invitations.invitedBy))
        .where(
          and(
            eq(invitations.spaceId, c.var.space.id),
            isNull(invitations.acceptedAt),
            gt(invitations.expiresAt, c.var.deps.now()),
          ),
        )
        .orderBy(desc(invitations.createdAt));
      return c.json(
        {
          items: rows.map(({ invitation: i, inviter }) => ({
            id: i.id,
            email: i.email,
            role: i.role,
            invitedBy: inviter,
            createdAt: i.createdAt.toISOString(),
            expiresAt: i.expiresAt.toISOString(),
          })),
        },
        200,
      );
    },
  )
  .openapi(
    route('admin', {
      method: 'post',
      path: '/{spaceId}/invitations',
      summary: 'Invite by email with a role (single-use link, 7 days); inviting again replaces the pending invitation',
      request: { params: SpaceParams, body: body(InviteBody) },
      responses: { 201: json(InvitationList.shape.items.element, 'The invitation') },
    }),
    async (c) => {
      const { email, role } = c.req.valid('json');
      const space = c.var.space;
      if (role === 'owner' && c.var.role !== 'owner') throw ownerRequired();
      const { db, now, config, mailer, log } = c.var.deps;
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
        await tx
          .delete(invitations)
          .where(and(eq(invitations.spaceId, space.id), eq(invitations.email, email), isNull(invitations.acceptedAt)));
        await checkMemberLimit(tx, space, 1, at);
        const [created] = await tx
          .insert(invitations)
          .values({
            spaceId: space.id,
            email,
            role,
            tokenHash: hashToken(token),
            invitedBy: c.var.user?.id ?? null,
            createdAt: at,
            expiresAt: new Date(at.getTime() + invitationLifetimeMs),
          })
          .returning();
        if (!created) throw new Error('insert returned nothing');
        await recordActivity(tx, c.var.actor, {
          spaceId: space.id,
          action: 'invitation.create',
          objectType: 'invitation',
          objectId: created.id,
          change: { email, role },
        });
        return created;
      });
      await deliver(mailer, log, {
        to: email,
        subject: `You are invited to ${space.name} on Spaceguard`,
        text: `${c.var.user?.name ?? 'Someone'} invited you to the space "${space.name}" as ${role}.\n\nAccept within 7 days (register first if you have no account, with this address):\n${config.publicUrl}/spaces?invitation=${token}\n`,
      });
      return c.json(
        {
          id: invitation.id,
          email: invitation.email,
          role: invitation.role,
          invitedBy: c.var.user?.name ?? null,
          createdAt: invitation.createdAt.toISOString(),
          expiresAt: invitation.expiresAt.toISOString(),
        },
        201,
      );
    },
  )
  .openapi(
    route('admin', {
      method: 'delete',
      path: '/{spaceId}/invitations/{invitationId}',
      summary: 'Revoke a pending invitation',
      request: { params: InvitationParams },
      responses: { 200: json(Ok, 'Revoked') },
    }),
    async (c) => {
      const { invitationId } = c.req.valid('param');
      const space = c.var.space;
      await c.var.deps.db.transaction(async (tx) => {
        const [gone] = await tx
          .delete(invitations)
          .where(
            and(eq(invitations.id, invitationId), eq(invitations.spaceId, space.id), isNull(invitations.acceptedAt)),
          )
          .returning();
        if (!gone) throw notFound('invitation');
        if (gone.role === 'owner' && c.var.role !== 'owner') throw ownerRequired();
        await recordActivity(tx, c.var.actor, {
          spaceId: space.id,
          action: 'invitation.revoke',
          objectType: 'invitation',
          objectId: gone.id,
          change: { email: gone.email, role: gone.role },
        });
      });
      return c.json({ ok: true as const }, 200);
    },
  );
