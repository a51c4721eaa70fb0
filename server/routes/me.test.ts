import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { activity } from '../db/schema/activity.ts';
import { oneTimeTokens } from '../db/schema/one-time-tokens.ts';
import { createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
let me: { cookie: string; user: { id: string } };
beforeAll(async () => {
  t = await createTestApi();
  me = await t.signUp('pat@example.com', 'Pat');
});
afterAll(async () => {
  await t.close();
});

describe('profile', () => {
  test('name and colour mode', async () => {
    const res = await t.read(t.api(me.cookie).me.$patch({ json: { name: 'Pat Q', colorMode: 'dark' } }));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: 'Pat Q', colorMode: 'dark', email: 'pat@example.com', lastSpaceId: null });
    const bad = await t.raw('PATCH', '/api/me', { cookie: me.cookie, body: { colorMode: 'blue', shoeSize: 9 } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields).toMatchObject({ colorMode: expect.any(String), shoeSize: 'Unknown field.' });
  });

  test('email change needs the current password and a confirmation from the new address', async () => {
    const noPassword = await t.read(t.api(me.cookie).me.$patch({ json: { email: 'pat2@example.com' } }));
    expect(noPassword.status).toBe(400);
    expect(noPassword.json.error.fields.currentPassword).toBeTruthy();
    const wrong = await t.read(
      t.api(me.cookie).me.$patch({ json: { email: 'pat2@example.com', currentPassword: 'not it at all' } }),
    );
    expect(wrong.status).toBe(400);
    const ok = await t.read(
      t.api(me.cookie).me.$patch({ json: { email: 'pat2@example.com', currentPassword: 'correct horse 42' } }),
    );
    expect(ok.json).toMatchObject({ email: 'pat@example.com', pendingEmail: 'pat2@example.com' });
    const token = await t.lastToken('pat2@example.com', '/profile\\?confirm-email=');
    expect((await t.read(t.api().auth['confirm-email'].$post({ json: { token } }))).status).toBe(200);
    expect((await t.read(t.api().auth['confirm-email'].$post({ json: { token } }))).status).toBe(409);
    const after = await t.read(t.api(me.cookie).me.$get());
    expect(after.json).toMatchObject({ email: 'pat2@example.com', pendingEmail: null });
  });

  test('an expired email confirmation is refused', async () => {
    await t.read(
      t.api(me.cookie).me.$patch({ json: { email: 'pat3@example.com', currentPassword: 'correct horse 42' } }),
    );
    const token = await t.lastToken('pat3@example.com', '/profile\\?confirm-email=');
    await t.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(oneTimeTokens.kind, 'email_change'));
    expect((await t.read(t.api().auth['confirm-email'].$post({ json: { token } }))).status).toBe(422);
  });

  test('password change ends the other sessions; sessions are listed and revocable', async () => {
    const other = await t.signIn('pat2@example.com');
    const list = await t.read(t.api(me.cookie).me.sessions.$get());
    expect(list.json.items.length).toBeGreaterThanOrEqual(2);
    expect(list.json.items.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const change = await t.read(
      t.api(me.cookie).me.$patch({ json: { newPassword: 'brand new secret 9', currentPassword: 'correct horse 42' } }),
    );
    expect(change.status).toBe(200);
    expect((await t.read(t.api(other.cookie).me.$get())).status).toBe(401);
    const third = await t.signIn('pat2@example.com', 'brand new secret 9');
    const sessions = (await t.read(t.api(me.cookie).me.sessions.$get())).json.items as {
      id: string;
      current: boolean;
    }[];
    const notMine = sessions.find((s) => !s.current);
    expect(notMine).toBeTruthy();
    expect(
      (await t.read(t.api(me.cookie).me.sessions[':id'].$delete({ param: { id: String(notMine?.id) } }))).status,
    ).toBe(200);
    expect((await t.read(t.api(third.cookie).me.$get())).status).toBe(401);
    expect(
      (await t.read(t.api(me.cookie).me.sessions[':id'].$delete({ param: { id: String(notMine?.id) } }))).status,
    ).toBe(404);
    expect((await t.read(t.api(me.cookie).me.sessions[':id'].$delete({ param: { id: 'not-a-uuid' } }))).status).toBe(
      404,
    );
  });
});

describe('personal API tokens', () => {
  test('create, use as Bearer (no Origin needed), rotate, revoke; all audited', async () => {
    const created = await t.read(t.api(me.cookie).me.tokens.$post({ json: { name: 'ci', expiresInDays: 30 } }));
    expect(created.status).toBe(201);
    const secret: string = created.json.token;
    expect(secret).toMatch(/^sgp_/);
    expect((await t.read(t.api({ token: secret, origin: null }).me.$get())).json.email).toBe('pat2@example.com');
    const space = await t.read(
      t.api({ token: secret, origin: 'https://elsewhere.example' }).spaces.$post({ json: { name: 'Scripted' } }),
    );
    expect(space.status).toBe(201);
    const listed = await t.read(t.api(me.cookie).me.tokens.$get());
    expect(listed.json.items[0]).not.toHaveProperty('token');
    expect(listed.json.items[0].prefix).toBe(secret.slice(0, 8));
    const rotated = await t.read(t.api(me.cookie).me.tokens[':id'].rotate.$post({ param: { id: created.json.id } }));
    expect(rotated.status).toBe(200);
    expect((await t.read(t.api({ token: secret }).me.$get())).status).toBe(401);
    expect((await t.read(t.api({ token: rotated.json.token }).me.$get())).status).toBe(200);
    expect((await t.read(t.api(me.cookie).me.tokens[':id'].$delete({ param: { id: created.json.id } }))).status).toBe(
      200,
    );
    const revoked = await t.read(t.api({ token: rotated.json.token }).me.$get());
    expect(revoked.status).toBe(401);
    expect(revoked.json.error.code).toBe('invalid_token');
    const actions = (await t.db.select().from(activity).where(eq(activity.actorId, me.user.id))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['api_token.create', 'api_token.rotate', 'api_token.revoke']));
    expect((await t.read(t.api({ headers: { authorization: 'Basic abc' } }).me.$get())).status).toBe(401);
  });

  test('an expired token no longer works', async () => {
    const created = await t.read(t.api(me.cookie).me.tokens.$post({ json: { name: 'short', expiresInDays: 1 } }));
    const later = await createLaterApi(t, 2);
    expect((await later('GET', '/api/me', created.json.token)).status).toBe(401);
  });
});

describe('account activity', () => {
  test('sign-ins, failed sign-ins and profile changes of the caller only, newest first', async () => {
    await t.read(t.api().auth.login.$post({ json: { email: 'pat2@example.com', password: 'wrong wrong 1' } }));
    const res = await t.read(t.api(me.cookie).me.activity.$get({ query: { limit: '100' } }));
    expect(res.status).toBe(200);
    const actions: string[] = res.json.items.map((a: { action: string }) => a.action);
    expect(actions[0]).toBe('user.login_failed');
    expect(actions).toEqual(expect.arrayContaining(['user.register', 'user.activate', 'user.login', 'user.update']));
    expect(res.json.items.every((a: { spaceId: string | null }) => a.spaceId === null)).toBe(true);
    const other = await t.signUp('stranger@example.com');
    const theirs = await t.read(t.api(other.cookie).me.activity.$get({ query: { limit: '100' } }));
    expect(theirs.json.items.every((a: { actorId: string | null }) => a.actorId !== me.user.id)).toBe(true);
  });
});

describe('pending invitations of the signed-in user', () => {
  test('listed and accepted by id', async () => {
    const host = await t.signUp('host@example.com');
    const space = await t.read(t.api(host.cookie).spaces.$post({ json: { name: 'Hosted' } }));
    await t.read(
      t.api(host.cookie).spaces[':spaceId'].invitations.$post({
        param: { spaceId: space.json.id },
        json: { email: 'pat2@example.com', role: 'viewer' },
      }),
    );
    const pending = await t.read(t.api(me.cookie).me.invitations.$get());
    expect(pending.json.items).toHaveLength(1);
    expect(pending.json.items[0]).toMatchObject({ spaceName: 'Hosted', role: 'viewer' });
    const accepted = await t.read(
      t.api(me.cookie).me.invitations[':id'].accept.$post({ param: { id: pending.json.items[0].id } }),
    );
    expect(accepted.json).toEqual({ spaceId: space.json.id, role: 'viewer' });
    expect((await t.read(t.api(me.cookie).me.invitations.$get())).json.items).toEqual([]);
  });
});

/** Same database, clock moved forward by `days`. */
async function createLaterApi(base: TestApi, days: number) {
  const { createApp } = await import('../app.ts');
  const { silentLogger } = await import('../services/shared/logger.ts');
  const app = createApp({
    db: base.db,
    log: silentLogger,
    captcha: async () => true,
    now: () => new Date(Date.now() + days * 86_400_000),
  });
  return (method: string, path: string, token: string) =>
    app.request(`http://localhost:4321${path}`, { method, headers: { authorization: `Bearer ${token}` } });
}
