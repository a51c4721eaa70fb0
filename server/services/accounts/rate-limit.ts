import { eq, sql } from 'drizzle-orm';
import type { ApiConfig } from '../../config.ts';
import type { Executor } from '../../db/database.ts';
import { rateLimits } from '../../db/schema/rate-limits.ts';
import { ApiError } from '../../errors.ts';

/** A counter and the hits it allows per window. */
export type Limit = { key: string; limit: number };

/** Seconds to wait when `key` has used up `limit` in its current window, else null. */
export async function retryAfter(
  db: Executor,
  key: string,
  limit: number,
  windowSeconds: number,
  now: Date,
): Promise<number | null> {
  const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, key));
  if (!row) return null;
  const ends = row.windowStart.getTime() + windowSeconds * 1000;
  if (ends <= now.getTime() || row.count < limit) return null;
  return Math.max(1, Math.ceil((ends - now.getTime()) / 1000));
}

/** Counts one hit against `key`, starting a new window when the old one has passed. */
export async function hit(db: Executor, key: string, windowSeconds: number, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - windowSeconds * 1000);
  await db
    .insert(rateLimits)
    .values({ key, count: 1, windowStart: now })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} <= ${cutoff} then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${rateLimits.windowStart} <= ${cutoff} then ${now} else ${rateLimits.windowStart} end`,
      },
    });
}

/** Forgets the hits of `key` (after a successful sign-in). */
export async function clearHits(db: Executor, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** Counts a call against each key and answers 429 with Retry-After once any of them is used up. */
export async function enforce(db: Executor, keys: Limit[], windowSeconds: number, now: Date): Promise<number | null> {
  for (const { key, limit } of keys) {
    const wait = await retryAfter(db, key, limit, windowSeconds, now);
    if (wait !== null) return wait;
  }
  for (const { key } of keys) await hit(db, key, windowSeconds, now);
  return null;
}

/**
 * The counters of a check that can be guessed at (a password, a mailed token), with sign-in's ceilings: the address
 * over all accounts; then, once the account is known, the account from this address (so guessing elsewhere never
 * locks its owner out) and the account from everywhere (against guessing spread over many addresses).
 */
export function guessLimits(ceilings: ApiConfig['signIn'], check: string, ip: string, account?: string): Limit[] {
  const perAccount: Limit[] =
    account === undefined
      ? []
      : [
          { key: `${check}:account-ip:${account}:${ip}`, limit: ceilings.perAccount },
          { key: `${check}:account:${account}`, limit: ceilings.perAccountAllIps },
        ];
  return [{ key: `${check}:ip:${ip}`, limit: ceilings.perIp }, ...perAccount];
}

/** Answers 429 with Retry-After when any counter is used up; `attempts` names them in the message. */
export async function refuseWhenSpent(
  db: Executor,
  keys: Limit[],
  windowSeconds: number,
  now: Date,
  attempts: string,
): Promise<void> {
  for (const { key, limit } of keys) {
    const wait = await retryAfter(db, key, limit, windowSeconds, now);
    if (wait !== null) {
      throw new ApiError(429, 'rate_limited', `Too many ${attempts}; try again in ${Math.ceil(wait / 60)} min.`, {
        retryAfter: wait,
      });
    }
  }
}

/** Counts one failure against every counter. */
export async function hitAll(db: Executor, keys: Limit[], windowSeconds: number, now: Date): Promise<void> {
  for (const { key } of keys) await hit(db, key, windowSeconds, now);
}

/** Forgets the account's counters after a success; the address keeps its count over all accounts. */
export async function clearAccountHits(db: Executor, keys: Limit[]): Promise<void> {
  for (const { key } of keys.slice(1)) await clearHits(db, key);
}
