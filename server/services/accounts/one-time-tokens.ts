import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { type OneTimeTokenKind, oneTimeTokens } from '../../db/schema/one-time-tokens.ts';
import { ApiError } from '../../errors.ts';
import { hashToken, randomToken } from '../shared/tokens.ts';

type OneTimeTokenRow = typeof oneTimeTokens.$inferSelect;

/** Lifetimes of mailed tokens. */
export const tokenLifetimeMs: Record<OneTimeTokenKind, number> = {
  activation: 24 * 3600_000,
  reset: 3600_000,
  email_change: 24 * 3600_000,
};

/** Creates a single-use token for a user; only its hash is stored. */
export async function issueToken(
  tx: Executor,
  userId: string,
  kind: OneTimeTokenKind,
  now: Date,
  data?: Record<string, string>,
): Promise<string> {
  const token = randomToken();
  await tx.insert(oneTimeTokens).values({
    userId,
    kind,
    tokenHash: hashToken(token),
    data: data ?? null,
    expiresAt: new Date(now.getTime() + tokenLifetimeMs[kind]),
    createdAt: now,
  });
  return token;
}

/** The stored row of a token of one kind, used or not, expired or not; undefined when unknown. */
export async function findToken(
  db: Executor,
  token: string,
  kind: OneTimeTokenKind,
): Promise<OneTimeTokenRow | undefined> {
  const [row] = await db
    .select()
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.tokenHash, hashToken(token)), eq(oneTimeTokens.kind, kind)));
  return row;
}

function tokenUsed(): ApiError {
  return new ApiError(409, 'token_used', 'This link was already used.', { fields: { token: 'Already used.' } });
}

/** The row of a token that can still be used at `now`: 404 when unknown, 409 when already used, 422 when expired. */
export function usableToken(row: OneTimeTokenRow | undefined, now: Date): OneTimeTokenRow {
  if (!row) throw new ApiError(404, 'token_invalid', 'This link is not valid.', { fields: { token: 'Unknown link.' } });
  if (row.usedAt) throw tokenUsed();
  if (row.expiresAt <= now) {
    throw new ApiError(422, 'token_expired', 'This link has expired; ask for a new one.', {
      fields: { token: 'Expired.' },
    });
  }
  return row;
}

/** Uses a token once: 404 when unknown, 409 when already used, 422 when expired. */
export async function consumeToken(
  tx: Executor,
  token: string,
  kind: OneTimeTokenKind,
  now: Date,
): Promise<OneTimeTokenRow> {
  const row = usableToken(await findToken(tx, token, kind), now);
  // The conditional update makes the use single even when two requests race.
  const used = await tx
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(and(eq(oneTimeTokens.id, row.id), isNull(oneTimeTokens.usedAt)))
    .returning({ id: oneTimeTokens.id });
  if (used.length === 0) throw tokenUsed();
  return row;
}
