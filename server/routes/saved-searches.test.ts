import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { Role } from '../../contract/common.ts';
import type { CreateSavedSearchBody } from '../../contract/saved-searches.ts';
import { activity } from '../db/schema/activity.ts';
import { memberships } from '../db/schema/memberships.ts';
import { createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
const as = {} as Record<Role | 'stranger', string>;
let spaceId: string;
let otherSpaceId: string;

beforeAll(async () => {
  t = await createTestApi();
  as.owner = (await t.signUp('owner@example.com', 'Olga Owner')).cookie;
  spaceId = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Searches' } }))).json.id;
  for (const role of ['admin', 'analyst', 'viewer'] as const) {
    const { cookie, user } = await t.signUp(`${role}@example.com`, `${role} person`);
    await t.db.insert(memberships).values({ spaceId, userId: user.id, role, createdAt: t.deps.now() });
    as[role] = cookie;
  }
  as.stranger = (await t.signUp('stranger@example.com')).cookie;
  otherSpaceId = (await t.read(t.api(as.stranger).spaces.$post({ json: { name: 'Elsewhere' } }))).json.id;
});
afterAll(async () => {
  await t.close();
});

const base = (space = spaceId) => `/api/spaces/${space}/saved-searches`;
const searches = (cookie?: string) => t.api(cookie).spaces[':spaceId']['saved-searches'];
/** Saves a search as a caller (the analyst unless named) in a space (the test space unless named). */
const save = (json: CreateSavedSearchBody, cookie = as.analyst, space = spaceId) =>
  t.read(searches(cookie).$post({ param: { spaceId: space }, json }));
/** A space's saved searches as a caller sees them (signed out without one), a page at a time. */
const searchList = (cookie?: string, space = spaceId, query: { limit?: string; cursor?: string } = {}) =>
  t.read(searches(cookie).$get({ param: { spaceId: space }, query }));

test('an analyst saves a relative-range search; everyone in the space lists it with who saved it', async () => {
  const res = await save({ name: 'Blocked SQLi', query: 'action:blocked tag:attack-sqli', range: '24h' });
  expect(res.status).toBe(201);
  expect(res.json).toMatchObject({
    spaceId,
    name: 'Blocked SQLi',
    query: 'action:blocked tag:attack-sqli',
    range: '24h',
    from: null,
    to: null,
    createdByName: 'analyst person',
  });
  expect(res.json.createdAt).toMatch(/^\d{4}-/);
  const [record] = await t.db
    .select()
    .from(activity)
    .where(and(eq(activity.action, 'saved_search.create'), eq(activity.objectId, res.json.id)));
  expect(record).toMatchObject({ spaceId, objectType: 'saved_search', actorName: 'analyst person' });
  for (const role of ['viewer', 'analyst', 'admin', 'owner'] as const) {
    const list = await searchList(as[role]);
    expect(list.status, role).toBe(200);
    expect(list.json.items.map((s: { name: string }) => s.name)).toContain('Blocked SQLi');
  }
});

test('an absolute range is kept as from and to', async () => {
  const res = await save({
    name: 'Incident 42',
    query: 'ip:203.0.113.7',
    from: '2026-11-20T10:00:00.000Z',
    to: '2026-11-20T12:30:00Z',
  });
  expect(res.status).toBe(201);
  expect(res.json).toMatchObject({
    range: null,
    from: '2026-11-20T10:00:00.000Z',
    to: '2026-11-20T12:30:00.000Z',
  });
});

test('names are unique per space ignoring case: 409 saying so; another space may reuse the name', async () => {
  expect((await save({ name: 'Dup check', query: '', range: '1h' })).status).toBe(201);
  const again = await save({ name: '  dup CHECK ', query: 'action:blocked', range: '7d' });
  expect(again.status).toBe(409);
  expect(again.json.error.code).toBe('name_taken');
  expect(again.json.error.message).toBe(
    'A saved search named “dup CHECK” already exists in this space; choose another name.',
  );
  expect(again.json.error.fields.name).toBe(again.json.error.message);
  const elsewhere = await save({ name: 'Dup check', query: '', range: '1h' }, as.stranger, otherSpaceId);
  expect(elsewhere.status).toBe(201);
});

test('a query that does not parse is a 400 on query with its position', async () => {
  const res = await save({ name: 'Broken', query: 'status:>=abc', range: '24h' });
  expect(res.status).toBe(400);
  expect(res.json.error.code).toBe('query_invalid');
  expect(res.json.error.fields.query).toMatch(/\(at character \d+\)$/);
  const list = await searchList(as.viewer);
  expect(list.json.items.map((s: { name: string }) => s.name)).not.toContain('Broken');
});

test.each([
  [{ query: '', range: '24h' }, 'name', 'This field is required.'],
  [{ name: '   ', range: '24h' }, 'name', 'Name the search.'],
  [{ name: 'x'.repeat(81), range: '24h' }, 'name', 'Use at most 80 characters.'],
  [{ name: 'No range' }, 'range', 'Give a relative range (1h, 24h, 7d or 30d) or both from and to.'],
  [{ name: 'Bad range', range: '2h' }, 'range', null],
  [
    { name: 'Both', range: '24h', from: '2026-11-20T10:00:00Z', to: '2026-11-20T11:00:00Z' },
    'range',
    'Give either a relative range or from and to, not both.',
  ],
  [{ name: 'Half', from: '2026-11-20T10:00:00Z' }, 'to', 'Give the end of the range too.'],
  [
    { name: 'Backwards', from: '2026-11-20T12:00:00Z', to: '2026-11-20T11:00:00Z' },
    'from',
    'The start of the range must be before its end.',
  ],
  [{ name: 'Extra', range: '24h', owner: 'me' }, 'owner', 'Unknown field.'],
])('bad body %j is a 400 naming %s', async (body, field, message) => {
  const res = await t.raw('POST', base(), { cookie: as.analyst, body });
  expect(res.status).toBe(400);
  expect(res.json.error.fields[field]).toBeTruthy();
  if (message) expect(res.json.error.fields[field]).toBe(message);
});

test('viewers cannot save, rename or delete; strangers see nothing; anonymous callers are 401', async () => {
  const mine = await save({ name: 'Private to the space', query: 'action:blocked', range: '30d' });
  expect((await save({ name: 'Viewer try', range: '24h' }, as.viewer)).status).toBe(403);
  expect(
    (
      await t.read(
        t.api(as.viewer).spaces[':spaceId']['saved-searches'][':id'].$delete({ param: { spaceId, id: mine.json.id } }),
      )
    ).status,
  ).toBe(403);
  expect(
    (
      await t.read(
        t.api(as.viewer).spaces[':spaceId']['saved-searches'][':id'].$patch({
          param: { spaceId, id: mine.json.id },
          json: { name: 'Renamed' },
        }),
      )
    ).status,
  ).toBe(403);
  const stranger = await searchList(as.stranger);
  expect(stranger.status).toBe(404);
  expect(stranger.text).not.toContain('Private to the space');
  expect(
    (
      await t.read(
        t
          .api(as.stranger)
          .spaces[':spaceId']['saved-searches'][':id'].$delete({ param: { spaceId, id: mine.json.id } }),
      )
    ).status,
  ).toBe(404);
  // The stranger's own space does not hold it either.
  expect(
    (
      await t.read(
        t
          .api(as.stranger)
          .spaces[':spaceId']['saved-searches'][':id'].$delete({ param: { spaceId: otherSpaceId, id: mine.json.id } }),
      )
    ).status,
  ).toBe(404);
  const ownList = await searchList(as.stranger, otherSpaceId);
  expect(ownList.json.items.map((s: { name: string }) => s.name)).toEqual(['Dup check']);
  expect((await searchList()).status).toBe(401);
});

test('an analyst renames, changes the query and the range; a taken name is 409', async () => {
  const created = await save({ name: 'To edit', query: 'action:blocked', range: '1h' });
  const res = await t.read(
    t.api(as.analyst).spaces[':spaceId']['saved-searches'][':id'].$patch({
      param: { spaceId, id: created.json.id },
      json: { name: 'Edited', query: 'severity:critical', from: '2026-11-01T00:00:00Z', to: '2026-11-02T00:00:00Z' },
    }),
  );
  expect(res.status).toBe(200);
  expect(res.json).toMatchObject({
    name: 'Edited',
    query: 'severity:critical',
    range: null,
    from: '2026-11-01T00:00:00.000Z',
    to: '2026-11-02T00:00:00.000Z',
  });
  const back = await t.read(
    t.api(as.analyst).spaces[':spaceId']['saved-searches'][':id'].$patch({
      param: { spaceId, id: created.json.id },
      json: { range: '7d' },
    }),
  );
  expect(back.json).toMatchObject({ name: 'Edited', range: '7d', from: null, to: null });
  const taken = await t.read(
    t.api(as.analyst).spaces[':spaceId']['saved-searches'][':id'].$patch({
      param: { spaceId, id: created.json.id },
      json: { name: 'BLOCKED sqli' },
    }),
  );
  expect(taken.status).toBe(409);
  expect(taken.json.error.fields.name).toMatch(/already exists/);
  const bad = await t.read(
    t.api(as.analyst).spaces[':spaceId']['saved-searches'][':id'].$patch({
      param: { spaceId, id: created.json.id },
      json: { query: 'path:"unclosed' },
    }),
  );
  expect(bad.status).toBe(400);
  expect(bad.json.error.fields.query).toMatch(/at character/);
  const [record] = await t.db
    .select()
    .from(activity)
    .where(and(eq(activity.action, 'saved_search.update'), eq(activity.objectId, created.json.id)));
  expect(record?.change).toMatchObject({ name: { from: 'To edit', to: 'Edited' } });
});

test('an analyst deletes a saved search; it is gone and the deletion is audited', async () => {
  const created = await save({ name: 'Short lived', query: '', range: '24h' });
  const res = await t.read(
    t.api(as.analyst).spaces[':spaceId']['saved-searches'][':id'].$delete({ param: { spaceId, id: created.json.id } }),
  );
  expect(res.status).toBe(200);
  expect(res.json).toEqual({ ok: true });
  const list = await searchList(as.viewer);
  expect(list.json.items.map((s: { id: string }) => s.id)).not.toContain(created.json.id);
  expect(
    (
      await t.read(
        t
          .api(as.analyst)
          .spaces[':spaceId']['saved-searches'][':id'].$delete({ param: { spaceId, id: created.json.id } }),
      )
    ).status,
  ).toBe(404);
  const records = await t.db
    .select()
    .from(activity)
    .where(and(eq(activity.action, 'saved_search.delete'), eq(activity.objectId, created.json.id)));
  expect(records).toHaveLength(1);
  expect(records[0]?.change).toMatchObject({ name: 'Short lived' });
});

test('the list is by name ignoring case (byte order), paged by cursor', async () => {
  for (const name of ['alpha', 'Beta', 'gamma', 'Delta']) await save({ name: `page ${name}`, range: '24h' });
  const names: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await searchList(as.viewer, spaceId, { limit: '2', ...(cursor ? { cursor } : {}) });
    expect(res.status).toBe(200);
    expect(res.json.items.length).toBeLessThanOrEqual(2);
    names.push(...res.json.items.map((s: { name: string }) => s.name));
    cursor = res.json.nextCursor;
  } while (cursor);
  const paged = names.filter((n) => n.startsWith('page '));
  expect(paged).toEqual(['page alpha', 'page Beta', 'page Delta', 'page gamma']);
  const lower = names.map((n) => n.toLowerCase());
  expect(lower).toEqual([...lower].sort());
  const bad = await t.raw('GET', `${base()}?cursor=%%%`, { cookie: as.viewer });
  expect(bad.status).toBe(400);
  expect(bad.json.error.fields.cursor).toBeTruthy();
});
