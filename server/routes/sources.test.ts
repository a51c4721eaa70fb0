import { readFileSync } from 'node:fs';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Role } from '../../contract/common.ts';
import { activity } from '../db/schema/activity.ts';
import { events } from '../db/schema/events.ts';
import { memberships } from '../db/schema/memberships.ts';
import { sources } from '../db/schema/sources.ts';
import { hashToken } from '../services/shared/tokens.ts';
import { BASE, createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
let owner: string;
const as = {} as Record<Role, string>;
let spaceId: string;
const auditLog = readFileSync(new URL('../services/ingest/fixtures/audit.ndjson', import.meta.url), 'utf8');

beforeAll(async () => {
  t = await createTestApi();
  owner = (await t.signUp('owner@example.com')).cookie;
  spaceId = (await t.read(t.api(owner).spaces.$post({ json: { name: 'Edge' } }))).json.id;
  for (const role of ['admin', 'analyst', 'viewer'] as const) {
    const { cookie, user } = await t.signUp(`${role}@example.com`);
    await t.db.insert(memberships).values({ spaceId, userId: user.id, role, createdAt: t.deps.now() });
    as[role] = cookie;
  }
  as.owner = owner;
});
afterAll(async () => {
  await t.close();
});

const base = () => `/api/spaces/${spaceId}/sources`;

describe('sources', () => {
  test('create answers the token once; only its hash is stored; activity is written', async () => {
    const res = await t.read(
      t
        .api(as.admin)
        .spaces[':spaceId'].sources.$post({ param: { spaceId }, json: { name: 'nginx edge', kind: 'modsecurity' } }),
    );
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      name: 'nginx edge',
      kind: 'modsecurity',
      retentionDays: null,
      eventsLastHour: 0,
      lastEventAt: null,
      errorsLast24h: 0,
    });
    expect(res.json.token).toMatch(/^sgi_[A-Za-z0-9_-]{43}$/);
    expect(res.json.token.startsWith(res.json.tokenPrefix)).toBe(true);
    const [row] = await t.db.select().from(sources).where(eq(sources.id, res.json.id));
    expect(row?.tokenHash).toBe(hashToken(res.json.token));
    expect(JSON.stringify(row)).not.toContain(res.json.token);
    const read = await t.read(
      t.api(as.viewer).spaces[':spaceId'].sources[':id'].$get({ param: { spaceId, id: res.json.id } }),
    );
    expect(read.status).toBe(200);
    expect(read.json.token).toBeUndefined();
    const [audit] = await t.db
      .select()
      .from(activity)
      .where(and(eq(activity.action, 'source.create'), eq(activity.objectId, res.json.id)));
    expect(audit?.change).toEqual({ name: 'nginx edge', kind: 'modsecurity', retentionDays: null });
  });

  test('the list shows ingest rate, last event and errors in 24 h', async () => {
    const created = await t.read(
      t
        .api(owner)
        .spaces[':spaceId'].sources.$post({ param: { spaceId }, json: { name: 'a-waf', kind: 'modsecurity' } }),
    );
    const sent = await t.app.request(`${BASE}/api/ingest/${created.json.token}`, {
      method: 'POST',
      body: `${auditLog}not json\n`,
    });
    const records = auditLog.trim().split('\n').length;
    expect(await sent.json()).toMatchObject({ accepted: records, errors: [{ line: records + 1 }] });
    const list = await t.read(t.api(as.viewer).spaces[':spaceId'].sources.$get({ param: { spaceId } }));
    expect(list.status).toBe(200);
    const item = list.json.items.find((s: { id: string }) => s.id === created.json.id);
    expect(item).toMatchObject({ errorsLast24h: 1 });
    expect(Date.parse(item.lastEventAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(list.json.items[0].name).toBe('a-waf');
    const one = await t.read(
      t.api(as.viewer).spaces[':spaceId'].sources[':id'].$get({ param: { spaceId, id: created.json.id } }),
    );
    expect(one.json.recentErrors).toEqual([
      { line: records + 1, message: expect.stringMatching(/^Not valid JSON/), at: expect.any(String) },
    ]);
  });

  test("a source's events of the last hour agree with the event log's count for the last hour, whenever they arrived", async () => {
    // A space of its own, so the event log's count holds this source's events only.
    const own = (await t.read(t.api(owner).spaces.$post({ json: { name: 'Backlog' } }))).json.id;
    const created = await t.read(
      t
        .api(owner)
        .spaces[':spaceId'].sources.$post({ param: { spaceId: own }, json: { name: 'backlog', kind: 'json' } }),
    );
    const now = t.deps.now().getTime();
    // Sent together now: two of the last hour, and a backlog of three older ones.
    const minutesAgo = [5, 50, 70, 120, 600];
    const lines = minutesAgo.map((m) =>
      JSON.stringify({ time: new Date(now - m * 60_000).toISOString(), ip: '203.0.113.9', message: `m${m}` }),
    );
    const sent = await t.app.request(`${BASE}/api/ingest/${created.json.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: lines.join('\n'),
    });
    expect(await sent.json()).toMatchObject({ accepted: minutesAgo.length });
    const list = await t.read(t.api(owner).spaces[':spaceId'].sources.$get({ param: { spaceId: own } }));
    const item = list.json.items.find((s: { id: string }) => s.id === created.json.id);
    const hour = { from: new Date(now - 3_600_000).toISOString(), to: new Date(now).toISOString() };
    const logged = await t.read(
      t.api(owner).spaces[':spaceId'].events.facets.$get({ param: { spaceId: own }, query: hour }),
    );
    expect(item.eventsLastHour).toBe(minutesAgo.filter((m) => m <= 60).length);
    expect(item.eventsLastHour).toBe(logged.json.total);
  });

  test('edit and delete, with activity; a deleted source takes its events and its token with it', async () => {
    const created = await t.read(
      t.api(owner).spaces[':spaceId'].sources.$post({ param: { spaceId }, json: { name: 'old', kind: 'json' } }),
    );
    const id = created.json.id;
    const patched = await t.read(
      t
        .api(as.admin)
        .spaces[':spaceId'].sources[':id'].$patch({ param: { spaceId, id }, json: { name: 'new', retentionDays: 3 } }),
    );
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ name: 'new', kind: 'json', retentionDays: 3 });
    await t.app.request(`${BASE}/api/ingest/${created.json.token}`, {
      method: 'POST',
      body: '{"time":"2026-11-21T10:00:00Z"}',
    });
    const gone = await t.read(t.api(as.admin).spaces[':spaceId'].sources[':id'].$delete({ param: { spaceId, id } }));
    expect(gone.json).toEqual({ ok: true });
    expect((await t.read(t.api(owner).spaces[':spaceId'].sources[':id'].$get({ param: { spaceId, id } }))).status).toBe(
      404,
    );
    expect(await t.db.select({ n: count() }).from(events).where(eq(events.sourceId, id))).toEqual([{ n: 0 }]);
    const again = await t.app.request(`${BASE}/api/ingest/${created.json.token}`, {
      method: 'POST',
      body: '{"time":"2026-11-21T10:00:00Z"}',
    });
    expect(again.status).toBe(401);
    const actions = await t.db
      .select({ action: activity.action, change: activity.change })
      .from(activity)
      .where(eq(activity.objectId, id));
    expect(actions.map((a) => a.action).sort()).toEqual(['source.create', 'source.delete', 'source.update']);
    expect(actions.find((a) => a.action === 'source.update')?.change).toEqual({
      name: { from: 'old', to: 'new' },
      retentionDays: { from: null, to: 3 },
    });
  });

  test('rotation is audited and answers a new token', async () => {
    const created = await t.read(
      t.api(owner).spaces[':spaceId'].sources.$post({ param: { spaceId }, json: { name: 'rot', kind: 'json' } }),
    );
    const rotated = await t.read(
      t.api(as.admin).spaces[':spaceId'].sources[':id'].token.$post({ param: { spaceId, id: created.json.id } }),
    );
    expect(rotated.json.token).not.toBe(created.json.token);
    const [audit] = await t.db
      .select()
      .from(activity)
      .where(and(eq(activity.action, 'source.token_rotate'), eq(activity.objectId, created.json.id)));
    expect(audit).toBeTruthy();
    expect(JSON.stringify(audit?.change)).not.toContain(rotated.json.token);
  });

  test('the parser test answers events and line errors and stores nothing', async () => {
    const created = await t.read(
      t.api(owner).spaces[':spaceId'].sources.$post({ param: { spaceId }, json: { name: 'sys', kind: 'syslog' } }),
    );
    const before = await t.db.select({ n: count() }).from(events);
    const res = await t.read(
      t.api(as.admin).spaces[':spaceId'].sources[':id'].test.$post({
        param: { spaceId, id: created.json.id },
        json: { sample: '<11>1 2026-11-21T22:14:15Z web app - - - disk full\n\nnot syslog\n' },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.json.events).toHaveLength(1);
    expect(res.json.events[0]).toMatchObject({ line: 1, severity: 'high', host: 'web', message: 'disk full' });
    expect(res.json.errors).toEqual([{ line: 3, message: expect.stringContaining('RFC 5424') }]);
    expect(await t.db.select({ n: count() }).from(events)).toEqual(before);
    const list = await t.read(
      t.api(owner).spaces[':spaceId'].sources[':id'].$get({ param: { spaceId, id: created.json.id } }),
    );
    expect(list.json.errorsLast24h).toBe(0);
  });

  test.each([
    ['viewer', 'GET', '', 200],
    ['viewer', 'POST', '', 403],
    ['analyst', 'POST', '', 403],
    ['analyst', 'PATCH', '/ID', 403],
    ['analyst', 'DELETE', '/ID', 403],
    ['analyst', 'POST', '/ID/token', 403],
    ['analyst', 'POST', '/ID/test', 403],
    ['analyst', 'GET', '/ID', 200],
    ['admin', 'POST', '/ID/token', 200],
  ] as const)('%s %s sources%s answers $3', async (role, method, suffix, expected) => {
    const created = await t.read(
      t.api(owner).spaces[':spaceId'].sources.$post({ param: { spaceId }, json: { name: 'roles', kind: 'json' } }),
    );
    const bodies: Record<string, unknown> = {
      POST: suffix === '' ? { name: 'x', kind: 'json' } : suffix.endsWith('test') ? { sample: '' } : undefined,
      PATCH: { name: 'y' },
    };
    const bodyValue = bodies[method];
    const res = await t.raw(method, `${base()}${suffix.replace('ID', created.json.id)}`, {
      cookie: as[role],
      ...(bodyValue !== undefined ? { body: bodyValue } : {}),
    });
    expect(res.status).toBe(expected);
  });

  test('another space and a non-member see 404; bad bodies 400', async () => {
    const created = await t.read(
      t.api(owner).spaces[':spaceId'].sources.$post({ param: { spaceId }, json: { name: 'mine', kind: 'json' } }),
    );
    const outsider = (await t.signUp('out@example.com')).cookie;
    expect((await t.read(t.api(outsider).spaces[':spaceId'].sources.$get({ param: { spaceId } }))).status).toBe(404);
    const theirs = (await t.read(t.api(outsider).spaces.$post({ json: { name: 'Theirs' } }))).json.id;
    expect(
      (
        await t.read(
          t.api(outsider).spaces[':spaceId'].sources[':id'].$get({ param: { spaceId: theirs, id: created.json.id } }),
        )
      ).status,
    ).toBe(404);
    const bad = await t.raw('POST', base(), { cookie: owner, body: { name: '', kind: 'csv' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.error.fields).sort()).toEqual(['kind', 'name']);
  });
});
