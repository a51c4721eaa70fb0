import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import { z } from 'zod';
import { Id, Ok } from '../../contract/common.ts';
import { ApiTokenList, CreateApiTokenBody, CreatedApiToken, Me, SessionList, UpdateMeBody } from '../../contract/me.ts';
import { AcceptedInvitation, InvitationPreviewList } from '../../contract/members.ts';
import type { ApiTokenRow } from '../db/schema/api-tokens.ts';
import { apiTokens } from '../db/schema/api-tokens.ts';
import { invitations } from '../db/schema/invitations.ts';
import { sessions } from '../db/schema/sessions.ts';
import { spaces } from '../db/schema/spaces.ts';
import { users } from '../db/schema/users.ts';
import { ApiError, fieldError, notFound } from '../errors.ts';
import { body, createRouter, json, route } from '../router.ts';
import { issueToken } from '../services/accounts/one-time-tokens.ts';
import { hashPassword, verifyPassword } from '../services/accounts/passwords.ts';
import { serialize } from '../services/accounts/profile.ts';
import { clearSessionCookie } from '../services/accounts/session-cookie.ts';
import { recordActivity } from '../services/activity/record.ts';
import { deliver } from '../services/mail/mailer.ts';
import { hashToken, randomToken } from '../services/shared/tokens.ts';
import { acceptInvitation } from '../services/spaces/invitations.ts';

const IdParams = z.object({ id: Id });

function tokenView(row: ApiTokenRow) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

/** The signed-in user's profile, sessions, API tokens and pending invitations. */
export const meRoutes = createRouter()
  .openapi(
    route('user', {
      method: 'get',
      path: '/',
      summary: 'The signed-in user, with the last used space for /auth/landing',
      responses: { 200: json(Me, 'The user') },
    }),
    (c) => {
      const user = c.var.user;
      if (!user) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
      return c.json(serialize.me(user), 200);
    },
  )
  .openapi(
    route('user', {
      method: 'patch',
      path: '/',
      summary: 'Change name, colour mode; email (confirmed by mail) and password need currentPassword',
      request: { body: body(UpdateMeBody) },
      responses: { 200: json(Me, 'The updated user') },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const user = c.var.user;
      if (!user) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
      const { db, now, config, mailer, log } = c.var.deps;
      const emailChange = input.email !== undefined && input.email !== user.email ? input.email : undefined;
      if (emailChange || input.newPassword) {
        if (!input.currentPassword) throw fieldError('currentPassword', 'Enter your current password to change this.');
        if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
          throw fieldError('currentPassword', 'The current password is wrong.', 'invalid_credentials');
        }
      }
      if (emailChange) {
        const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, emailChange));
        if (taken) {
          throw new ApiError(409, 'email_taken', 'Another account uses this address.', {
            fields: { email: 'Another account uses this address.' },
          });
        }
      }
      const passwordHash = input.newPassword ? await hashPassword(input.newPassword) : undefined;
      const { updated, emailToken } = await db.transaction(async (tx) => {
        const changes: Partial<typeof users.$inferInsert> = { updatedAt: now() };
        const change: Record<string, unknown> = {};
        if (input.name !== undefined && input.name !== user.name) {
          changes.name = input.name;
          change.name = { from: user.name, to: input.name };
        }
        if (input.colorMode !== undefined && input.colorMode !== user.colorMode) {
          changes.colorMode = input.colorMode;
          change.colorMode = { from: user.colorMode, to: input.colorMode };
        }
        if (passwordHash) {
          changes.passwordHash = passwordHash;
          change.password = 'changed';
          // A new password ends every other session.
          const keep = c.var.session?.id;
          await tx
            .delete(sessions)
            .where(keep ? and(eq(sessions.userId, user.id), ne(sessions.id, keep)) : eq(sessions.userId, user.id));
        }
        let token: string | undefined;
        if (emailChange) {
          changes.pendingEmail = emailChange;
          change.pendingEmail = emailChange;
          token = await issueToken(tx, user.id, 'email_change', now(), { email: emailChange });
        }
        const [row] = await tx.update(users).set(changes).where(eq(users.id, user.id)).returning();
        if (!row) throw notFound('user');
        if (Object.keys(change).length > 0) {
          await recordActivity(tx, c.var.actor, {
            action: 'user.update',
            objectType: 'user',
            objectId: user.id,
            change,
          });
        }
        return { updated: row, emailToken: token };
      });
      if (emailToken && emailChange) {
        await deliver(mailer, log, {
          to: emailChange,
          subject: 'Confirm your new Spaceguard address',
          text: `Hello ${updated.name},\n\nConfirm this address for your Spaceguard account within 24 hours:\n${config.publicUrl}/profile?confirm-email=${emailToken}\n`,
        });
      }
      return c.json(serialize.me(updated), 200);
    },
  )
  .openapi(
    route('user', {
      method: 'get',
      path: '/sessions',
      summary: 'Active sessions of the signed-in user',
      responses: { 200: json(SessionList, 'Sessions, newest first') },
    }),
    async (c) => {
      const user = c.var.user;
      if (!user) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
      const rows = await c.var.deps.db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, user.id), gt(sessions.expiresAt, c.var.deps.now())))
        .orderBy(desc(sessions.lastSeenAt));
      const current = c.var.session?.id;
      return c.json(
        {
          items: rows.map((s) => ({
            id: s.id,
            createdAt: s.createdAt.toISOString(),
            lastSeenAt: s.lastSeenAt.toISOString(),
            expiresAt: s.expiresAt.toISOString(),
            ip: s.ip,
            userAgent: s.userAgent,
            current: s.id === current,
          })),
        },
        200,
      );
    },
  )
  .openapi(
    route('user', {
      method: 'delete',
      path: '/sessions/{id}',
      summary: 'Sign out one session',
      request: { params: IdParams },
      responses: { 200: json(Ok, 'Session ended') },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const user = c.var.user;
      if (!user) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
      await c.var.deps.db.transaction(async (tx) => {
        const gone = await tx
          .delete(sessions)
          .where(and(eq(sessions.id, id), eq(sessions.userId, user.id)))
          .returning({ id: sessions.id });
        if (gone.length === 0) throw notFound('session');
        await recordActivity(tx, c.var.actor, { action: 'session.revoke', objectType: 'session', objectId: id });
      });
      if (c.var.session?.id === id) clearSessionCookie(c);
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('user', {
      method: 'get',
      path: '/tokens',
      summary: 'Personal API tokens (secrets are never shown again)',
      responses: { 200: json(ApiTokenList, 'Tokens') },
    }),
    async (c) => {
      const user = c.var.user;
      if (!user) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
      const rows = await c.var.deps.db
        .select()
        .from(apiTokens)
        .where(eq(apiTokens.userId, user.id))
        .orderBy(desc(apiTokens.createdAt));
      return c.json({ items: rows.map(tokenView) }, 200);
    },
  )
  .openapi(
    route('user', {
      method: 'post',
      path: '/tokens',
      summary: 'Create a personal API token; its secret is in this answer only',
      request: { body: body(CreateApiTokenBody) },
      responses: { 201: json(CreatedApiToken, 'The token and its secret') },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const user = c.var.user;
      if (!user) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
      const { db, now } = c.var.deps;
      const token = randomToken('sgp_');
      const expiresAt = input.expiresInDays ? new Date(now().getTime() + input.expiresInDays * 86_400_000) : null;
      const row = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(apiTokens)
          .values({
            userId: user.id,
            name: input.name,
            prefix: token.slice(0, 8),
            tokenHash: hashToken(token),
            expiresAt,
          })
          .returning();
        if (!created) throw new Error('insert returned nothing');
        await recordActivity(tx, c.var.actor, {
          action: 'api_token.create',
          objectType: 'api_token',
          objectId: created.id,
          change: { name: created.name, expiresAt: created.expiresAt?.toISOString() ?? null },
        });
        return created;
      });
      return c.json({ ...tokenView(row), token }, 201);
    },
  )
  .openapi(
    route('user', {
      method: 'post',
      path: '/tokens/{id}/rotate',
      summary: 'Rotate a personal API token: the old secret stops working, the new one is in this answer only',
      request: { params: IdParams },
      responses: { 200: json(CreatedApiToken, 'The token and its new secret') },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const user = c.var.user;
      if (!user) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
      const token = randomToken('sgp_');
      const row = await c.var.deps.db.transaction(async (tx) => {
        const [updated] = await tx
          .update(apiTokens)
          .set({ tokenHash: hashToken(token), prefix: token.slice(0, 8), lastUsedAt: null })
          .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, user.id)))
          .returning();
        if (!updated) throw notFound('token');
        await recordActivity(tx, c.var.actor, { action: 'api_token.rotate', objectType: 'api_token', objectId: id });
        return updated;
      });
      return c.json({ ...tokenView(row), token }, 200);
    },
  )
  .openapi(
    route('user', {
      method: 'delete',
      path: '/tokens/{id}',
      summary: 'Revoke a personal API token',
      request: { params: IdParams },
      responses: { 200: json(Ok, 'Revoked') },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const user = c.var.user;
      if (!user) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
      await c.var.deps.db.transaction(async (tx) => {
        const gone = await tx
          .delete(apiTokens)
          .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, user.id)))
          .returning({ id: apiTokens.id });
        if (gone.length === 0) throw notFound('token');
        await recordActivity(tx, c.var.actor, { action: 'api_token.revoke', objectType: 'api_token', objectId: id });
      });
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('user', {
      method: 'get',
      path: '/invitations',
      summary: 'Pending invitations addressed to the signed-in user',
      responses: { 200: json(InvitationPreviewList, 'Invitations') },
    }),
    async (c) => {
      const user = c.var.user;
      if (!user) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
      const rows = await c.var.deps.db
        .select({ invitation: invitations, spaceName: spaces.name })
        .from(invitations)
        .innerJoin(spaces, eq(spaces.id, invitations.spaceId))
        .where(
          and(
            eq(invitations.email, user.email),
            isNull(invitations.acceptedAt),
            gt(invitations.expiresAt, c.var.deps.now()),
          ),
        )
        .orderBy(desc(invitations.createdAt));
      return c.json(
        {
          items: rows.map(({ invitation: i, spaceName }) => ({
            id: i.id,
            spaceId: i.spaceId,
            spaceName,
            email: i.email,
            role: i.role,
            expiresAt: i.expiresAt.toISOString(),
          })),
        },
        200,
      );
    },
  )
  .openapi(
    route('user', {
      method: 'post',
      path: '/invitations/{id}/accept',
      summary: 'Accept a pending invitation addressed to the signed-in user',
      request: { params: IdParams },
      responses: { 200: json(AcceptedInvitation, 'Now a member') },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const result = await acceptInvitation(c, eq(invitations.id, id));
      return c.json(result, 200);
    },
  );
