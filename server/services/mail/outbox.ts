/** The development outbox (mail kept in the database when no SMTP_URL is set), read back for screens and tests. */
import { desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { OutboxList } from '../../../contract/meta.ts';
import type { Db } from '../../db/database.ts';
import { outbox } from '../../db/schema/outbox.ts';

/** The newest kept messages, to one address or to all. */
export async function listOutbox(
  db: Db,
  filter: { to?: string | undefined; limit: number },
): Promise<z.infer<typeof OutboxList>> {
  const rows = await db
    .select()
    .from(outbox)
    .where(filter.to ? eq(outbox.to, filter.to.toLowerCase()) : undefined)
    .orderBy(desc(outbox.createdAt))
    .limit(filter.limit);
  return { items: rows.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })) };
}
