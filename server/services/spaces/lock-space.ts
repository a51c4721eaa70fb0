import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { spaces } from '../../db/schema/spaces.ts';

/**
 * Serialises membership changes of one space (row lock until the transaction ends), so two concurrent
 * requests cannot both pass the member limit or both remove "the other" owner.
 */
export async function lockSpace(tx: Executor, spaceId: string): Promise<void> {
  await tx.select({ id: spaces.id }).from(spaces).where(eq(spaces.id, spaceId)).for('update');
}
