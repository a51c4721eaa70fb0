/** Spaces: the cards of the caller's spaces, create, read (remembered as the last used), settings, delete, transfer. */
import { and, count, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Role } from '../../../contract/constants/roles.ts';
import type { CreateSpaceBody, Space, SpaceCardList, UpdateSpaceBody } from '../../../contract/spaces.ts';
import type { SpaceCaller, UserCaller } from '../../caller.ts';
import { alerts } from '../../db/schema/alerts.ts';
import { firewalls } from '../../db/schema/firewalls.ts';
import { memberships } from '../../db/schema/memberships.ts';
import { type SpaceRow, spaces } from '../../db/schema/spaces.ts';
import { users } from '../../db/schema/users.ts';
import { ApiError, fieldError, notFound } from '../../errors.ts';
import { recordActivity } from '../activity/record.ts';
import { createDefaultDashboard } from '../dashboards/defaults.ts';
import { checkValue, startingRetentionDays } from '../limits/limits.ts';
import { lockSpace } from './lock-space.ts';

/** A space as the settings page reads it, with the caller's role. */
export function spaceView(space: SpaceRow, role: Role): Space {
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

/** The caller's spaces as cards, by name. */
export async function listSpaceCards(me: UserCaller): Promise<SpaceCardList> {
  const { db } = me.deps;
  const mine = await db
    .select({ space: spaces, role: memberships.role })
    .from(memberships)
    .innerJoin(spaces, eq(spaces.id, memberships.spaceId))
    .where(eq(memberships.userId, me.user.id))
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
  const firewallCounts = ids.length
    ? await db
        .select({ spaceId: firewalls.spaceId, n: count() })
        .from(firewalls)
        .where(inArray(firewalls.spaceId, ids))
        .groupBy(firewalls.spaceId)
    : [];
  const firewallsById = new Map(firewallCounts.map((r) => [r.spaceId, r.n]));
  // Open alerts by severity (the list's status filter `open`; acknowledged ones are being worked).
  const alertCounts = ids.length
    ? await db
        .select({ spaceId: alerts.spaceId, severity: alerts.severity, n: count() })
        .from(alerts)
        .where(and(inArray(alerts.spaceId, ids), eq(alerts.status, 'open')))
        .groupBy(alerts.spaceId, alerts.severity)
    : [];
  const openAlertsOf = (spaceId: string) => {
    const counts = { critical: 0, high: 0, medium: 0, low: 0 };
    for (const row of alertCounts) {
      if (row.spaceId === spaceId && row.severity !== 'info') counts[row.severity] = row.n;
    }
    return counts;
  };
  return {
    items: mine.map(({ space, role }) => ({
      id: space.id,
      name: space.name,
      plan: space.plan,
      role,
      memberCount: byId.get(space.id) ?? 0,
      firewallCount: firewallsById.get(space.id) ?? 0,
      openAlerts: openAlertsOf(space.id),
    })),
  };
}

/** Creates a space on the free plan with the caller as its owner, and makes it the caller's last used space. */
export async function createSpace(me: UserCaller, input: z.infer<typeof CreateSpaceBody>): Promise<Space> {
  checkValue('free', 'retentionDays', input.retentionDays);
  const at = me.deps.now();
  const space = await me.deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(spaces)
      .values({
        name: input.name,
        description: input.description ?? '',
        timeZone: input.timeZone ?? 'UTC',
        retentionDays: input.retentionDays ?? startingRetentionDays,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    if (!created) throw new Error('insert returned nothing');
    await tx.insert(memberships).values({ spaceId: created.id, userId: me.user.id, role: 'owner', createdAt: at });
    await createDefaultDashboard(tx, created.id, me.user.id, at);
    await tx.update(users).set({ lastSpaceId: created.id }).where(eq(users.id, me.user.id));
    await recordActivity(tx, me.actor, {
      spaceId: created.id,
      action: 'space.create',
      objectType: 'space',
      objectId: created.id,
      change: { name: created.name, timeZone: created.timeZone, retentionDays: created.retentionDays },
    });
    return created;
  });
  return spaceView(space, 'owner');
}

/** The caller's space, remembered as the last used one (for /auth/landing). */
export async function openSpace(sc: SpaceCaller): Promise<Space> {
  if (sc.user.lastSpaceId !== sc.space.id) {
    await sc.deps.db.update(users).set({ lastSpaceId: sc.space.id }).where(eq(users.id, sc.user.id));
  }
  return spaceView(sc.space, sc.role);
}

/** Changes name, description, time zone or retention (within the plan); the audit records what changed. */
export async function updateSpace(sc: SpaceCaller, input: z.infer<typeof UpdateSpaceBody>): Promise<Space> {
  const { space } = sc;
  checkValue(space.plan, 'retentionDays', input.retentionDays);
  const updated = await sc.deps.db.transaction(async (tx) => {
    const change: Record<string, { from: unknown; to: unknown }> = {};
    for (const key of ['name', 'description', 'timeZone', 'retentionDays'] as const) {
      if (input[key] !== undefined && input[key] !== space[key]) change[key] = { from: space[key], to: input[key] };
    }
    const [row] = await tx
      .update(spaces)
      .set({ ...input, updatedAt: sc.deps.now() })
      .where(eq(spaces.id, space.id))
      .returning();
    if (!row) throw notFound('space');
    if (Object.keys(change).length > 0) {
      await recordActivity(tx, sc.actor, {
        spaceId: space.id,
        action: 'space.update',
        objectType: 'space',
        objectId: space.id,
        change,
      });
    }
    return row;
  });
  return spaceView(updated, sc.role);
}

/** Deletes the space and everything in it, once the caller typed its name exactly. */
export async function deleteSpace(sc: SpaceCaller, confirmName: string): Promise<void> {
  const { space } = sc;
  if (confirmName !== space.name) throw fieldError('confirmName', 'Type the name of the space exactly to delete it.');
  await sc.deps.db.transaction(async (tx) => {
    await recordActivity(tx, sc.actor, {
      spaceId: space.id,
      action: 'space.delete',
      objectType: 'space',
      objectId: space.id,
      change: { name: space.name },
    });
    await tx.update(users).set({ lastSpaceId: null }).where(eq(users.lastSpaceId, space.id));
    await tx.delete(spaces).where(eq(spaces.id, space.id));
  });
}

/** Makes another member the owner; the caller (an owner) becomes admin. */
export async function transferSpace(sc: SpaceCaller, userId: string): Promise<void> {
  const { space, user: me } = sc;
  if (userId === me.id) throw fieldError('userId', 'You already own this space; pick another member.');
  await sc.deps.db.transaction(async (tx) => {
    await lockSpace(tx, space.id);
    const [target] = await tx
      .select()
      .from(memberships)
      .where(and(eq(memberships.spaceId, space.id), eq(memberships.userId, userId)));
    if (!target) {
      throw new ApiError(404, 'not_found', 'No such member.', { fields: { userId: 'Not a member of this space.' } });
    }
    await tx
      .update(memberships)
      .set({ role: 'owner' })
      .where(and(eq(memberships.spaceId, space.id), eq(memberships.userId, userId)));
    await tx
      .update(memberships)
      .set({ role: 'admin' })
      .where(and(eq(memberships.spaceId, space.id), eq(memberships.userId, me.id)));
    await recordActivity(tx, sc.actor, {
      spaceId: space.id,
      action: 'space.transfer',
      objectType: 'space',
      objectId: space.id,
      change: { from: me.id, to: userId, previousRoleOfNewOwner: target.role },
    });
  });
}
