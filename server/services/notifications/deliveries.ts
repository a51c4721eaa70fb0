/** The delivery log of an alert: every notification of it, with each attempt, for the alert's screen. */
import { desc, eq } from 'drizzle-orm';
import type { Delivery } from '../../../contract/notifications.ts';
import type { Executor } from '../../db/database.ts';
import { alertDeliveries, type DeliveryRow } from '../../db/schema/notifications.ts';

/** A stored delivery as the API answers it (the payload and the secret stay on the server). */
export function deliveryView(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    alertId: row.alertId,
    ruleId: row.ruleId,
    type: row.type,
    channel: row.channel,
    target: row.target,
    status: row.status,
    attempts: row.attempts.map((a) => ({ ...a })),
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  };
}

/** The alert's deliveries, newest first, at most `limit`. */
export async function deliveriesOfAlert(db: Executor, alertId: string, limit = 100): Promise<Delivery[]> {
  const rows = await db
    .select()
    .from(alertDeliveries)
    .where(eq(alertDeliveries.alertId, alertId))
    .orderBy(desc(alertDeliveries.createdAt), desc(alertDeliveries.id))
    .limit(limit);
  return rows.map(deliveryView);
}
