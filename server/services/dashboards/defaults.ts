/** The dashboard every space is created with: the overview template, the space's default. */
import { dashboardTemplates, defaultDashboardTemplate } from '../../../contract/constants/dashboard-templates.ts';
import type { Executor } from '../../db/database.ts';
import { type DashboardRow, dashboards } from '../../db/schema/dashboards.ts';

/**
 * Gives a new space its default dashboard (call it in the transaction that creates the space). `userId` is who
 * created the space, or null for a space made without one (seeding, fixtures); the migration gave existing spaces the
 * same model.
 */
export async function createDefaultDashboard(
  tx: Executor,
  spaceId: string,
  userId: string | null,
  now: Date,
): Promise<DashboardRow> {
  const model = structuredClone(dashboardTemplates[defaultDashboardTemplate].model);
  const [row] = await tx
    .insert(dashboards)
    .values({
      spaceId,
      title: model.title,
      model,
      version: 1,
      isDefault: true,
      createdBy: userId,
      updatedBy: userId,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error('insert returned nothing');
  return row;
}
