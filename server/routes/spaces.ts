import { and, count, eq, inArray } from 'drizzle-orm';
import type { Role } from '../../contract/common.ts';
import { Ok, SpaceParams } from '../../contract/common.ts';
import { planTerms } from '../../contract/constants/plans.ts';
import {
  CreateSpaceBody,
  DeleteSpaceBody,
  type Plan,
  Space,
  SpaceCardList,
  TransferSpaceBody,
  UpdateSpaceBody,
} from '../../contract/spaces.ts';
import { memberships } from '../db/schema/memberships.ts';
import { type SpaceRow, spaces } from '../db/schema/spaces.ts';
import { users } from '../db/schema/users.ts';
import { ApiError, fieldError, notFound } from '../errors.ts';
import { body, createRouter, json, route } from '../router.ts';
import { recordActivity } from '../services/activity/record.ts';
import { lockSpace } from '../services/spaces/lock-space.ts';

function spaceView(space: SpaceRow, role: Role) {
  return {
    id: space.id,
    name: space.name,
    description: space.description,
    timeZone: space.timeZone,
    retentionDays: space.retentionDays,
    plan: space.plan,
    role,
    createdAt: space.createdAt.toISOString(),
    updatedAt: space.updatedAt.toISOString(),
  };
}

/** 422 when the retention exceeds what the plan allows, naming the plan that lifts it. */
function checkRetention(plan: Plan, days: number | undefined): void {
  if (days === undefined || days <= planTerms[plan].retentionDays) return;
  const lifting = (['pro', 'business'] as const).find((p) => planTerms[p].retentionDays >= days);
  const message = `The ${planTerms[plan].label} plan keeps data up to ${planTerms[plan].retentionDays} days${lifting ? `; the ${planTerms[lifting].label} plan keeps ${planTerms[lifting].retentionDays}` : ''}.`;
  throw new ApiError(422, 'plan_limit_retention', message, { fields: { retentionDays: message } });
}

/** Spaces: list as cards, create, read, settings, delete after typing the name, transfer ownership. */
export const spaceRoutes = createRouter()
  .openapi(
    route('user', {
      method: 'get',
      path: '/',
      summary: 'The spaces the caller belongs to, as cards',
      responses: { 200: json(SpaceCardList, 'Cards, by name') },
    }),
    async (c) => {
      const user = c.var.user;
      if (!user) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
      const { db } = c.var.deps;
      const mine = await db
        .select({ space: spaces, role: memberships.role })
        .from(memberships)
        .innerJoin(spaces, eq(spaces.id, memberships.spaceId))
        .where(eq(memberships.userId, user.id))
        .orderBy(spaces.name, spaces.id);
      const ids = mine.map((m) => m.space.id);
      const counts = ids.length
        ? await db
            .select({ spaceId: memberships.spaceId, n: count() })
            .from(memberships)
            .where(inArray(memberships.spaceId, ids))
            .groupBy(memberships.spaceId)
        : [];
      const byId = new Map(counts.map((r) => [r.spaceId, r.n]));
      return c.json(
        {
          items: mine.map(({ space, role }) => ({
            id: space.id,
            name: space.name,
            plan: space.plan,
            role,
            memberCount: byId.get(space.id) ?? 0,
            firewallCount: 0,
            openAlerts: { critical: 0, high: 0, medium: 0, low: 0 },
          })),
        },
        200,
      );
    },
  )
  .openapi(
    route('user', {
      method: 'post',
      path: '/',
      summary: 'Create a space (free plan); the caller becomes its owner',
      request: { body: body(CreateSpaceBody) },
      responses: { 201: json(Space, 'The new space') },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const user = c.var.user;
      if (!user) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
      checkRetention('free', input.retentionDays);
      const space = await c.var.deps.db.transaction(async (tx) => {
        const [created] = await tx
          .insert(spaces)
          .values({
            name: input.name,
            description: input.description ?? '',
            timeZone: input.timeZone ?? 'UTC',
            retentionDays: input.retentionDays ?? planTerms.free.retentionDays,
          })
          .returning();
        if (!created) throw new Error('insert returned nothing');
        await tx.insert(memberships).values({ spaceId: created.id, userId: user.id, role: 'owner' });
        await tx.update(users).set({ lastSpaceId: created.id }).where(eq(users.id, user.id));
        await recordActivity(tx, c.var.actor, {
          spaceId: created.id,
          action: 'space.create',
          objectType: 'space',
          objectId: created.id,
          change: { name: created.name, timeZone: created.timeZone, retentionDays: created.retentionDays },
        });
        return created;
      });
      return c.json(spaceView(space, 'owner'), 201);
    },
  )
  .openapi(
    route('viewer', {
      method: 'get',
      path: '/{spaceId}',
      summary: 'One space; remembered as the last used space',
      request: { params: SpaceParams },
      responses: { 200: json(Space, 'The space') },
    }),
    async (c) => {
      const user = c.var.user;
      if (user && user.lastSpaceId !== c.var.space.id) {
        await c.var.deps.db.update(users).set({ lastSpaceId: c.var.space.id }).where(eq(users.id, user.id));
      }
      return c.json(spaceView(c.var.space, c.var.role), 200);
    },
  )
  .openapi(
    route('admin', {
      method: 'patch',
      path: '/{spaceId}',
      summary: 'Change name, description (Markdown), time zone, retention (within the plan)',
      request: { params: SpaceParams, body: body(UpdateSpaceBody) },
      responses: { 200: json(Space, 'The updated space') },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const space = c.var.space;
      checkRetention(space.plan, input.retentionDays);
      const updated = await c.var.deps.db.transaction(async (tx) => {
        const change: Record<string, { from: unknown; to: unknown }> = {};
        for (const key of ['name', 'description', 'timeZone', 'retentionDays'] as const) {
          if (input[key] !== undefined && input[key] !== space[key]) change[key] = { from: space[key], to: input[key] };
        }
        const [row] = await tx
          .update(spaces)
          .set({ ...input, updatedAt: c.var.deps.now() })
          .where(eq(spaces.id, space.id))
          .returning();
        if (!row) throw notFound('space');
        if (Object.keys(change).length > 0) {
          await recordActivity(tx, c.var.actor, {
            spaceId: space.id,
            action: 'space.update',
            objectType: 'space',
            objectId: space.id,
            change,
          });
        }
        return row;
      });
      return c.json(spaceView(updated, c.var.role), 200);
    },
  )
  .openapi(
    route('owner', {
      method: 'delete',
      path: '/{spaceId}',
      summary: 'Delete the space and everything in it; `confirmName` must equal its name',
      request: { params: SpaceParams, body: body(DeleteSpaceBody) },
      responses: { 200: json(Ok, 'Deleted') },
    }),
    async (c) => {
      const { confirmName } = c.req.valid('json');
      const space = c.var.space;
      if (confirmName !== space.name)
        throw fieldError('confirmName', 'Type the name of the space exactly to delete it.');
      await c.var.deps.db.transaction(async (tx) => {
        await recordActivity(tx, c.var.actor, {
          spaceId: space.id,
          action: 'space.delete',
          objectType: 'space',
          objectId: space.id,
          change: { name: space.name },
        });
        await tx.update(users).set({ lastSpaceId: null }).where(eq(users.lastSpaceId, space.id));
        await tx.delete(spaces).where(eq(spaces.id, space.id));
      });
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('owner', {
      method: 'post',
      path: '/{spaceId}/transfer',
      summary: 'Transfer ownership to another member; the caller becomes admin',
      request: { params: SpaceParams, body: body(TransferSpaceBody) },
      responses: { 200: json(Ok, 'Transferred') },
    }),
    async (c) => {
      const { userId } = c.req.valid('json');
      const space = c.var.space;
      const me = c.var.user;
      if (!me) throw new ApiError(401, 'unauthenticated', 'Sign in first.');
      if (userId === me.id) throw fieldError('userId', 'You already own this space; pick another member.');
      await c.var.deps.db.transaction(async (tx) => {
        await lockSpace(tx, space.id);
        const [target] = await tx
          .select()
          .from(memberships)
          .where(and(eq(memberships.spaceId, space.id), eq(memberships.userId, userId)));
        if (!target)
          throw new ApiError(404, 'not_found', 'No such member.', {
            fields: { userId: 'Not a member of this space.' },
          });
        await tx
          .update(memberships)
          .set({ role: 'owner' })
          .where(and(eq(memberships.spaceId, space.id), eq(memberships.userId, userId)));
        await tx
          .update(memberships)
          .set({ role: 'admin' })
          .where(and(eq(memberships.spaceId, space.id), eq(memberships.userId, me.id)));
        await recordActivity(tx, c.var.actor, {
          spaceId: space.id,
          action: 'space.transfer',
          objectType: 'space',
          objectId: space.id,
          change: { from: me.id, to: userId, previousRoleOfNewOwner: target.role },
        });
      });
      return c.json({ ok: true as const }, 200);
    },
  );
