/** Removes credentials and counters nobody can use any more; the daily retention job (events/workers/retention-worker.ts) runs it. */
import { lt } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { oneTimeTokens } from '../../db/schema/one-time-tokens.ts';
import { rateLimits } from '../../db/schema/rate-limits.ts';
import { sessions } from '../../db/schema/sessions.ts';
import { deleteLapsedInvitations } from '../spaces/invitations.ts';

/** How many rows of each kind one run removed. */
export type Housekeeping = { sessions: number; oneTimeTokens: number; invitations: number; rateLimits: number };

const dayMs = 86_400_000;
/** How long past expiry a link is kept, so that following it still says "expired" rather than "unknown". */
const expiredLinkDays = 7;
/** Longer than any rate-limit window (the longest is one hour). */
const rateLimitKeepMs = dayMs;

/**
 * Removes what can no longer be used: expired sessions, one-time tokens (activation, reset, email change) and
 * pending invitations a week past expiry, and rate-limit counters whose window ended a day ago.
 * Accepted invitations stay (the members page and the audit refer to them).
 */
export async function deleteExpiredCredentials(db: Db, now: Date): Promise<Housekeeping> {
  const linkCutoff = new Date(now.getTime() - expiredLinkDays * dayMs);
  const [gone, tokens, invitations, limits] = await Promise.all([
    db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.id }),
    db.delete(oneTimeTokens).where(lt(oneTimeTokens.expiresAt, linkCutoff)).returning({ id: oneTimeTokens.id }),
    deleteLapsedInvitations(db, linkCutoff),
    db
      .delete(rateLimits)
      .where(lt(rateLimits.windowStart, new Date(now.getTime() - rateLimitKeepMs)))
      .returning({ key: rateLimits.key }),
  ]);
  return { sessions: gone.length, oneTimeTokens: tokens.length, invitations, rateLimits: limits.length };
}
