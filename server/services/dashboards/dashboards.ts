/**
 * Dashboards of a space: list, read, create within the plan's limit, save (each save raises the version by
 * one; a save based on an older version is refused with 409 naming who saved in between), duplicate, make the
 * space's default (exactly one; it cannot be deleted), delete. Every change is audited.
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { dashboardLimits } from '../../../contract/constants/dashboards.ts';
import type {
  Dashboard,
  DashboardList,
  DashboardModel,
  DuplicateDashboardBody,
  UpdateDashboardBody,
} from '../../../contract/dashboards.ts';
import type { SpaceCaller } from '../../caller.ts';
import type { Executor } from '../../db/database.ts';
import { type DashboardRow, dashboards } from '../../db/schema/dashboards.ts';
import { ApiError, notFound } from '../../errors.ts';
import { recordActivity } from '../activity/record.ts';
import { checkLimit, checkWritable, planAllows } from '../limits/limits.ts';
import { lockSpace } from '../spaces/lock-space.ts';
import { dashboardSummary, dashboardView, namedDashboardOf, namedDashboardsOf } from './view.ts';

/** The dashboards of the space (the default first, then by title ignoring case) and how many its plan allows. */
export async function listDashboards(sc: SpaceCaller): Promise<DashboardList> {
  const rows = await namedDashboardsOf(sc.deps.db, sc.space.id);
  return { items: rows.map(dashboardSummary), limit: planAllows(sc.space.plan, 'dashboards') };
}

export async function getDashboard(sc: SpaceCaller, id: string): Promise<Dashboard> {
  return dashboardView(await namedDashboardOf(sc.deps.db, sc.space.id, id));
}

/** The row of one dashboard of the space, locked until the transaction ends; 404 when there is none. */
async function lockedDashboard(tx: Executor, spaceId: string, id: string): Promise<DashboardRow> {
  const [row] = await tx
    .select()
    .from(dashboards)
    .where(and(eq(dashboards.id, id), eq(dashboards.spaceId, spaceId)))
    .for('update');
  if (!row) throw notFound('dashboard');
  return row;
}

/** Whether the space has a default dashboard. */
async function hasDefault(tx: Executor, spaceId: string): Promise<boolean> {
  const [found] = await tx
    .select({ id: dashboards.id })
    .from(dashboards)
    .where(and(eq(dashboards.spaceId, spaceId), eq(dashboards.isDefault, true)));
  return found !== undefined;
}

/**
 * Inserts a dashboard within the plan's limit (the space row is locked, so two creates cannot both pass it). It is the
 * space's default only when the space has none yet.
 */
async function insertDashboard(
  sc: SpaceCaller,
  model: DashboardModel,
  audit: Record<string, unknown>,
): Promise<Dashboard> {
  const now = sc.deps.now();
  return sc.deps.db.transaction(async (tx) => {
    await lockSpace(tx, sc.space.id);
    await checkLimit(tx, sc.space, 'dashboards', {}, sc.deps.now());
    const isDefault = !(await hasDefault(tx, sc.space.id));
    const [row] = await tx
      .insert(dashboards)
      .values({
        spaceId: sc.space.id,
        title: model.title,
        model,
        version: 1,
        isDefault,
        createdAt: now,
        createdBy: sc.user.id,
        updatedAt: now,
        updatedBy: sc.user.id,
      })
      .returning();
    if (!row) throw new Error('insert returned nothing');
    await recordActivity(tx, sc.actor, {
      spaceId: sc.space.id,
      action: 'dashboard.create',
      objectType: 'dashboard',
      objectId: row.id,
      change: { title: model.title, widgets: model.widgets.length, isDefault, ...audit },
    });
    return dashboardView(await namedDashboardOf(tx, sc.space.id, row.id));
  });
}

/** Creates a dashboard from a whole model (a template's, an imported file's or the editor's), at version 1. */
export async function createDashboard(sc: SpaceCaller, model: DashboardModel): Promise<Dashboard> {
  return insertDashboard(sc, model, {});
}

/** "Copy of <title>", cut to the title's limit. */
export function copyTitle(title: string): string {
  return `Copy of ${title}`.slice(0, dashboardLimits.title).trim();
}

/** Copies a dashboard under a new title ("Copy of …" unless given): version 1, not the default, within the limit. */
export async function duplicateDashboard(
  sc: SpaceCaller,
  id: string,
  input: z.infer<typeof DuplicateDashboardBody>,
): Promise<Dashboard> {
  const source = await namedDashboardOf(sc.deps.db, sc.space.id, id);
  const title = input.title ?? copyTitle(source.row.model.title);
  return insertDashboard(sc, { ...structuredClone(source.row.model), title }, { duplicateOf: source.row.id });
}

/** "2026-11-24 08:01 UTC". */
function minuteUtc(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** 409 for a save based on an older version: names who saved in between, when, and both versions; carries the current dashboard. */
export class DashboardConflict extends ApiError {
  readonly current: Dashboard;
  constructor(current: Dashboard, started: number) {
    const who = current.updatedBy.name ?? 'Someone';
    super(
      409,
      'version_conflict',
      `${who} changed this dashboard at ${minuteUtc(new Date(current.updatedAt))} (version ${current.version}) after you opened version ${started}. Reload it to see their change, or save yours again to replace it.`,
    );
    this.current = current;
  }
  override body() {
    const base = super.body();
    return { error: { ...base.error, current: this.current } };
  }
}

/** Replaces the model of a dashboard whose version is still `version`; the version goes up by one. */
export async function updateDashboard(
  sc: SpaceCaller,
  id: string,
  input: z.infer<typeof UpdateDashboardBody>,
): Promise<Dashboard> {
  const { version: started, ...model } = input;
  const saved = await sc.deps.db.transaction(async (tx) => {
    await checkWritable(tx, sc.space, 'dashboards', id);
    const [row] = await tx
      .update(dashboards)
      .set({
        title: model.title,
        model,
        version: sql`${dashboards.version} + 1`,
        updatedAt: sc.deps.now(),
        updatedBy: sc.user.id,
      })
      .where(and(eq(dashboards.id, id), eq(dashboards.spaceId, sc.space.id), eq(dashboards.version, started)))
      .returning({ id: dashboards.id, version: dashboards.version, title: dashboards.title });
    if (!row) return null;
    await recordActivity(tx, sc.actor, {
      spaceId: sc.space.id,
      action: 'dashboard.update',
      objectType: 'dashboard',
      objectId: row.id,
      change: { title: row.title, widgets: model.widgets.length, fromVersion: started, toVersion: row.version },
    });
    // As saved, whatever is saved after this transaction.
    return dashboardView(await namedDashboardOf(tx, sc.space.id, row.id));
  });
  if (saved) return saved;
  // Not saved: no such dashboard (404), or another save came first (409 with the current one).
  throw new DashboardConflict(await getDashboard(sc, id), started);
}

/** Deletes a dashboard; the space's default cannot be deleted (make another the default first). */
export async function deleteDashboard(sc: SpaceCaller, id: string): Promise<void> {
  await sc.deps.db.transaction(async (tx) => {
    const row = await lockedDashboard(tx, sc.space.id, id);
    if (row.isDefault)
      throw new ApiError(
        409,
        'default_dashboard',
        "This is the space's default dashboard; make another dashboard the default first.",
      );
    await tx.delete(dashboards).where(eq(dashboards.id, row.id));
    await recordActivity(tx, sc.actor, {
      spaceId: sc.space.id,
      action: 'dashboard.delete',
      objectType: 'dashboard',
      objectId: row.id,
      change: { title: row.title, version: row.version, widgets: row.model.widgets.length },
    });
  });
}

/** Makes a dashboard the space's default, the previous default no longer (one transaction, the space locked). */
export async function setDefaultDashboard(sc: SpaceCaller, id: string): Promise<Dashboard> {
  return sc.deps.db.transaction(async (tx) => {
    await lockSpace(tx, sc.space.id);
    const row = await lockedDashboard(tx, sc.space.id, id);
    if (row.isDefault) return dashboardView(await namedDashboardOf(tx, sc.space.id, row.id));
    const previous = await tx
      .update(dashboards)
      .set({ isDefault: false })
      .where(and(eq(dashboards.spaceId, sc.space.id), eq(dashboards.isDefault, true), ne(dashboards.id, row.id)))
      .returning({ id: dashboards.id, title: dashboards.title });
    await tx.update(dashboards).set({ isDefault: true }).where(eq(dashboards.id, row.id));
    await recordActivity(tx, sc.actor, {
      spaceId: sc.space.id,
      action: 'dashboard.default',
      objectType: 'dashboard',
      objectId: row.id,
      change: {
        title: row.title,
        previous: previous[0] ? { id: previous[0].id, title: previous[0].title } : null,
      },
    });
    return dashboardView(await namedDashboardOf(tx, sc.space.id, row.id));
  });
}
