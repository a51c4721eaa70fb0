import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { memberships } from './db/schema/memberships.ts';
import { createTestApi, type TestApi } from './test/harness.ts';

/** Racing requests: single-use stays single, limits and the last owner hold. */
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(async () => {
  await t.close();
});

test('one activation token used twice at once: one success, one 409', async () => {
  await t.read(
    t.api().auth.register.$post({ json: { name: 'R', email: 'race@example.com', password: 'correct horse 42' } }),
  );
  const token = await t.lastToken('race@example.com', '/auth/activation/');
  const answers = await Promise.all([1, 2].map(() => t.read(t.api().auth.activate.$post({ json: { token } }))));
  expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
});

test('parallel invitations never pass the member limit', async () => {
  const { cookie } = await t.signUp('limit@example.com');
  const space = await t.read(t.api(cookie).spaces.$post({ json: { name: 'Limits' } }));
  const answers = await Promise.all(
    [1, 2, 3, 4].map((i) =>
      t.read(
        t.api(cookie).spaces[':spaceId'].invitations.$post({
          param: { spaceId: space.json.id },
          json: { email: `p${i}@example.com`, role: 'viewer' },
        }),
      ),
    ),
  );
  expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 402, 402]);
});

test('two owners demoting each other at once leave one owner', async () => {
  const a = await t.signUp('owner-a@example.com');
  const b = await t.signUp('owner-b@example.com');
  const space = await t.read(t.api(a.cookie).spaces.$post({ json: { name: 'Duel' } }));
  const spaceId: string = space.json.id;
  await t.db.insert(memberships).values({ spaceId, userId: b.user.id, role: 'owner', createdAt: t.deps.now() });
  const answers = await Promise.all([
    t.read(
      t.api(a.cookie).spaces[':spaceId'].members[':userId'].$patch({
        param: { spaceId, userId: b.user.id },
        json: { role: 'admin' },
      }),
    ),
    t.read(
      t.api(b.cookie).spaces[':spaceId'].members[':userId'].$patch({
        param: { spaceId, userId: a.user.id },
        json: { role: 'admin' },
      }),
    ),
  ]);
  const owners = await t.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.spaceId, spaceId), eq(memberships.role, 'owner')));
  expect(owners).toHaveLength(1);
  expect(answers.every((r) => r.status < 500)).toBe(true);
});
