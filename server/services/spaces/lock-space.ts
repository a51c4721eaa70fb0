import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { type SpaceRow, spaces } from '../../db/schema/spaces.ts';
import { notFound } from '../../errors.ts';

/**
 * Serialises changes of one space (row lock until the transaction ends), so two concurrent requests cannot both
 * pass the member limit or both remove "the other" owner. Answers the row as it is once locked (undefined if the
 * space is gone): what a decision under the lock must read, not the row the request loaded before.
 */
export async function lockSpace(tx: Executor, spaceId: string): Promise<SpaceRow | undefined> {
  const [row] = await tx.select().from(spaces).where(eq(spaces.id, spaceId)).for('update');
  return row;
}

/** The space's row, locked until the transaction ends; 404 when it is gone. */
export async function lockedSpace(tx: Executor, spaceId: string): Promise<SpaceRow> {
  const row = await lockSpace(tx, spaceId);
  if (!row) throw notFound('space');
  return row;
}
