/** Personal API tokens for scripts (`Authorization: Bearer`): resolved on every request, managed by their user. */
import { and, desc, eq, gt, isNotNull, isNull, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { ApiToken, CreateApiTokenBody, CreatedApiToken } from '../../../contract/me.ts';
import type { UserCaller } from '../../caller.ts';
import type { Db } from '../../db/database.ts';
import { type ApiTokenRow, apiTokens } from '../../db/schema/api-tokens.ts';
import { type User, users } from '../../db/schema/users.ts';
import { notFound } from '../../errors.ts';
import { recordActivity } from '../activity/record.ts';
import { hashToken, randomToken } from '../shared/tokens.ts';
import { touchEveryMs } from './sessions.ts';

/** Every personal token starts with this, so a leaked one is recognisable (secret scanners, logs). */
const tokenPrefix = 'sgp_';

/** A token as its owner sees it: never its secret. */
function tokenView(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

/** The activated user a bearer token belongs to, or null when it is unknown, revoked or expired. */
export async function userOfApiToken(db: Db, secret: string, at: Date): Promise<User | null> {
  const [row] = await db
    .select({ user: users, token: apiTokens })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(
      and(
        eq(apiTokens.tokenHash, hashToken(secret)),
        isNotNull(users.activatedAt),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, at)),
      ),
    );
  if (!row) return null;
  if (!row.token.lastUsedAt || at.getTime() - row.token.lastUsedAt.getTime() > touchEveryMs) {
    await db.update(apiTokens).set({ lastUsedAt: at }).where(eq(apiTokens.id, row.token.id));
  }
  return row.user;
}

/** The caller's tokens, newest first. */
export async function listApiTokens(me: UserCaller): Promise<{ items: ApiToken[] }> {
  const rows = await me.deps.db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.userId, me.user.id))
    .orderBy(desc(apiTokens.createdAt));
  return { items: rows.map(tokenView) };
}

/** Creates a token; its secret is in this answer only. */
export async function createApiToken(
  me: UserCaller,
  input: z.infer<typeof CreateApiTokenBody>,
): Promise<z.infer<typeof CreatedApiToken>> {
  const { db, now } = me.deps;
  const token = randomToken(tokenPrefix);
  const expiresAt = input.expiresInDays ? new Date(now().getTime() + input.expiresInDays * 86_400_000) : null;
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(apiTokens)
      .values({
        userId: me.user.id,
        name: input.name,
        prefix: token.slice(0, 8),
        tokenHash: hashToken(token),
        expiresAt,
        createdAt: now(),
      })
      .returning();
    if (!created) throw new Error('insert returned nothing');
    await recordActivity(tx, me.actor, {
      action: 'api_token.create',
      objectType: 'api_token',
      objectId: created.id,
      change: { name: created.name, expiresAt: created.expiresAt?.toISOString() ?? null },
    });
    return created;
  });
  return { ...tokenView(row), token };
}

/** Gives a token a new secret (the old one stops working), shown in this answer only. */
export async function rotateApiToken(me: UserCaller, id: string): Promise<z.infer<typeof CreatedApiToken>> {
  const token = randomToken(tokenPrefix);
  const row = await me.deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(apiTokens)
      .set({ tokenHash: hashToken(token), prefix: token.slice(0, 8), lastUsedAt: null })
      .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, me.user.id)))
      .returning();
    if (!updated) throw notFound('token');
    await recordActivity(tx, me.actor, { action: 'api_token.rotate', objectType: 'api_token', objectId: id });
    return updated;
  });
  return { ...tokenView(row), token };
}

/** Revokes one of the caller's tokens (404 for anyone else's). */
export async function revokeApiToken(me: UserCaller, id: string): Promise<void> {
  await me.deps.db.transaction(async (tx) => {
    const gone = await tx
      .delete(apiTokens)
      .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, me.user.id)))
      .returning({ id: apiTokens.id });
    if (gone.length === 0) throw notFound('token');
    await recordActivity(tx, me.actor, { action: 'api_token.revoke', objectType: 'api_token', objectId: id });
  });
}
