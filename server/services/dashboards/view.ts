/** Dashboards as the API shows them: the stored model with its id, version, default flag and who changed it. */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Dashboard, DashboardSummary } from '../../../contract/dashboards.ts';
import type { Executor } from '../../db/database.ts';
import { type DashboardRow, dashboards } from '../../db/schema/dashboards.ts';
import { users } from '../../db/schema/users.ts';
import { notFound } from '../../errors.ts';

const creator = alias(users, 'creator');
const updater = alias(users, 'updater');

/** A dashboard's row with the names of who created it and who saved it last (null once they are deleted). */
export type NamedDashboardRow = { row: DashboardRow; createdByName: string | null; updatedByName: string | null };

function namedSelect(db: Executor) {
  return db
    .select({ row: dashboards, createdByName: creator.name, updatedByName: updater.name })
    .from(dashboards)
    .leftJoin(creator, eq(creator.id, dashboards.createdBy))
    .leftJoin(updater, eq(updater.id, dashboards.updatedBy));
}

/** One dashboard of the space with its people's names; 404 when the space has no such dashboard. */
export async function namedDashboardOf(db: Executor, spaceId: string, id: string): Promise<NamedDashboardRow> {
  const [found] = await namedSelect(db).where(and(eq(dashboards.id, id), eq(dashboards.spaceId, spaceId)));
  if (!found) throw notFound('dashboard');
  return found;
}

/** Every dashboard of the space: the default first, then by title ignoring case. */
export async function namedDashboardsOf(db: Executor, spaceId: string): Promise<NamedDashboardRow[]> {
  return namedSelect(db)
    .where(eq(dashboards.spaceId, spaceId))
    .orderBy(desc(dashboards.isDefault), asc(sql`lower(${dashboards.title}) collate "C"`), asc(dashboards.id));
}

export function dashboardView({ row, createdByName, updatedByName }: NamedDashboardRow): Dashboard {
  const { model } = row;
  return {
    id: row.id,
    version: row.version,
    isDefault: row.isDefault,
    createdAt: row.createdAt.toISOString(),
    createdBy: { id: row.createdBy, name: createdByName },
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: { id: row.updatedBy, name: updatedByName },
    schemaVersion: model.schemaVersion,
    title: model.title,
    ...(model.description === undefined ? {} : { description: model.description }),
    timeRange: model.timeRange,
    refreshSeconds: model.refreshSeconds,
    variables: model.variables,
    widgets: model.widgets,
  };
}

export function dashboardSummary({ row, updatedByName }: NamedDashboardRow): DashboardSummary {
  return {
    id: row.id,
    title: row.model.title,
    ...(row.model.description === undefined ? {} : { description: row.model.description }),
    widgets: row.model.widgets.length,
    isDefault: row.isDefault,
    version: row.version,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: { id: row.updatedBy, name: updatedByName },
  };
}
