import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createTestApi, type TestApi } from '../test/harness.ts';
import { completeStoredEvents } from '../test/stored-events.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let t: TestApi;
let cookie: string;
let spaceId: string;
let userId: string;

beforeAll(async () => {
  t = await createTestApi();
  const signed = await t.signUp('ranges@example.com');
  cookie = signed.cookie;
  userId = signed.user.id;
  const space = await t.read(t.api(cookie).spaces.$post({ json: { name: 'Ranges' } }));
  spaceId = space.json.id;
});
afterAll(async () => {
  await t.close();
});

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const uuid = '0b9d0f4e-9f0e-4a4e-8d5e-1a2b3c4d5e6f';

/** Every read that takes a time range, as a path under the space (or the caller's own account). */
const ranged = [
  'events',
  'events/histogram',
  'events/facets',
  'events/export',
  'events/export?format=csv',
  'activity',
  'activity/export',
  'activity/export?format=csv',
  '/api/me/activity',
];
const path = (read: string) => (read.startsWith('/') ? read : `/api/spaces/${spaceId}/${read}`);
const withQuery = (read: string, query: string) => `${path(read)}${read.includes('?') ? '&' : '?'}${query}`;

describe('a time outside 1970–2200 is a 400 naming the parameter, on every read', () => {
  const cases = ranged.flatMap((read) =>
    ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59-14:00', '1969-12-31T23:59:59Z', '2201-01-01T00:00:00Z'].flatMap(
      (time) => ['from', 'to'].map((param) => ({ read, param, time })),
    ),
  );
  test.each(cases)('$read $param=$time', async ({ read, param, time }) => {
    const res = await t.raw('GET', withQuery(read, `${param}=${encodeURIComponent(time)}`), { cookie });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.fields).toEqual({ [param]: 'Use a time between 1970 and 2200.' });
  });

  test.each(ranged)('%s answers the widest allowed range', async (read) => {
    const res = await t.raw('GET', withQuery(read, 'from=1970-01-01T00:00:00Z&to=2200-12-31T23:59:59Z'), { cookie });
    expect(res.status, res.text).toBe(200);
  });

  test.each([
    ['from', { name: 'old', from: '0000-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }],
    ['to', { name: 'late', from: '2026-01-01T00:00:00Z', to: '9999-12-31T23:59:59-14:00' }],
  ])('a saved search with %s out of range is a 400 naming it', async (param, body) => {
    const created = await t.read(
      t.api(cookie).spaces[':spaceId']['saved-searches'].$post({ param: { spaceId }, json: body }),
    );
    expect(created.status, created.text).toBe(400);
    expect(created.json.error.fields[param]).toBe('Use a time between 1970 and 2200.');
    const saved = await t.read(
      t.api(cookie).spaces[':spaceId']['saved-searches'].$post({
        param: { spaceId },
        json: { name: `ok ${param}`, range: '24h' },
      }),
    );
    const patched = await t.read(
      t.api(cookie).spaces[':spaceId']['saved-searches'][':id'].$patch({
        param: { spaceId, id: saved.json.id },
        json: { from: body.from, to: body.to },
      }),
    );
    expect(patched.status, patched.text).toBe(400);
    expect(patched.json.error.fields[param]).toBe('Use a time between 1970 and 2200.');
  });
});

describe('a malformed or tampered cursor is a 400 naming cursor, on every list', () => {
  const lists = ['events', 'activity', '/api/me/activity', 'saved-searches'];
  const cursors = [
    ['not base64url', '%%%'],
    ['too long', 'a'.repeat(201)],
    ['not JSON', Buffer.from('nonsense').toString('base64url')],
    ['an object', cursorOf({ at: '2026-01-01T00:00:00Z', id: uuid })],
    ['nulls', cursorOf([null, null])],
    ['a time of year 0000', cursorOf(['0000-01-01T00:00:00.000Z', uuid])],
    ['a time past 9999', cursorOf(['+010000-01-01T00:00:00.000Z', uuid])],
    ['a number for the time', cursorOf([0, uuid])],
    ['an id of dashes', cursorOf(['2026-01-01T00:00:00.000Z', '-'.repeat(36)])],
    ['an id that is not a UUID', cursorOf(['2026-01-01T00:00:00.000Z', 'z'.repeat(36)])],
    ['a NUL', Buffer.from('\0').toString('base64url')],
    ['a lone surrogate', Buffer.from([0xed, 0xa0, 0x80]).toString('base64url')],
  ];
  // Saved searches page by name: any UTF-8 name is a cursor, but not NUL, invalid UTF-8 or malformed text.
  const nameCursors = cursors.filter(([label]) =>
    ['not base64url', 'too long', 'a NUL', 'a lone surrogate'].includes(label ?? ''),
  );
  const cases = lists.flatMap((list) =>
    (list === 'saved-searches' ? nameCursors : cursors).map(([label, cursor]) => ({ list, label, cursor })),
  );
  test.each(cases)('$list: $label', async ({ list, cursor }) => {
    const res = await t.raw('GET', withQuery(list, `cursor=${encodeURIComponent(cursor ?? '')}`), { cookie });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.fields).toEqual({ cursor: 'This cursor is not valid; start from the first page.' });
  });
});

/** Rows an export cannot turn into lines: a time of -infinity, which PostgreSQL keeps and a JS Date cannot hold. */
async function poisonActivity(count: number) {
  await t.db.execute(sql`insert into activity (space_id, actor_id, action, object_type, created_at)
    select ${spaceId}::uuid, ${userId}::uuid, 'test.filler', 'test', now() - make_interval(secs => g)
    from generate_series(1, ${count}) as g`);
  await t.db.execute(sql`insert into activity (space_id, action, object_type, created_at)
    values (${spaceId}::uuid, 'test.poison', 'test', '-infinity')`);
}

async function poisonEvents(count: number) {
  const at = t.deps.now().toISOString();
  const [source] = (
    (await t.db.execute(sql`insert into sources (space_id, name, kind, token_hash, token_prefix, created_at, updated_at)
      values (${spaceId}::uuid, 'poison', 'json', ${`hash-${Math.random()}`}, 'sgi_', ${at}::timestamptz, ${at}::timestamptz)
      returning id`)) as unknown as { rows: { id: string }[] }
  ).rows;
  await t.db.execute(sql`insert into events (space_id, source_id, time, received_at, action, severity)
    select ${spaceId}::uuid, ${source?.id}::uuid, now() - make_interval(secs => g), ${at}::timestamptz, 'logged', 'info'
    from generate_series(1, ${count}) as g`);
  await t.db.execute(sql`insert into events (space_id, source_id, time, received_at, action, severity)
    values (${spaceId}::uuid, ${source?.id}::uuid, '-infinity', ${at}::timestamptz, 'logged', 'info')`);
  await completeStoredEvents(t.db, spaceId, { rollups: false });
}

async function cleanUp() {
  await t.db.execute(sql`delete from activity where object_type = 'test'`);
  await t.db.execute(sql`delete from events where space_id = ${spaceId}::uuid`);
  await t.db.execute(sql`delete from event_raw where space_id = ${spaceId}::uuid`);
}

describe('an export that fails shows it', () => {
  test.each(['events/export', 'events/export?format=csv', 'activity/export', 'activity/export?format=csv'])(
    '%s: failing before its first byte answers an error status, not an empty 200',
    async (read) => {
      await (read.startsWith('events') ? poisonEvents(0) : poisonActivity(0));
      try {
        const res = await t.raw('GET', path(read), { cookie });
        expect(res.status).toBe(500);
        expect(res.json.error.code).toBe('internal');
      } finally {
        await cleanUp();
      }
    },
  );

  test.each([
    ['events/export', 2000, /\n\{"error":\{"code":"export_failed","message":"[^"]*incomplete[^"]*"\}\}\n$/],
    ['events/export?format=csv', 2000, /\r\n"#truncated: [^"]*incomplete[^"]*"\r\n$/],
    ['activity/export', 1000, /\n\{"error":\{"code":"export_failed","message":"[^"]*incomplete[^"]*"\}\}\n$/],
    ['activity/export?format=csv', 1000, /\n"#truncated: [^"]*incomplete[^"]*"\r\n$/],
  ])('%s: failing midway ends the file with a line saying so', async (read, rows, marker) => {
    await (read.startsWith('events') ? poisonEvents(rows) : poisonActivity(rows));
    try {
      const res = await t.raw('GET', path(read), { cookie });
      expect(res.status).toBe(200);
      expect(res.text).toMatch(marker);
      expect(res.text.split('\n').length).toBeGreaterThan(rows);
    } finally {
      await cleanUp();
    }
  });
});
