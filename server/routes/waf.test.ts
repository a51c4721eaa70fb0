import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Role } from '../../contract/common.ts';
import { createApp } from '../app.ts';
import type { Executor } from '../db/database.ts';
import { activity } from '../db/schema/activity.ts';
import { events } from '../db/schema/events.ts';
import { memberships } from '../db/schema/memberships.ts';
import { spaces } from '../db/schema/spaces.ts';
import { type SearchLane, searchLaneFor } from '../services/events/search-lane.ts';
import { silentLogger } from '../services/shared/logger.ts';
import { BASE, createTestApi, fakeCaptcha, ORIGIN, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
const as = {} as Record<Role, string>;
let spaceId: string;
let firewallId: string;
const now = Date.now();
const from = new Date(now - 86_400_000).toISOString();
const to = new Date(now).toISOString();

const A = '203.0.113.7';
const B = '198.51.100.23';
const C = '192.0.2.200';
const D = '192.0.2.1';
const E = '192.0.2.50';

/** A generic event `minutes` old; `waf` adds the firewall. */
const line = (minutes: number, fields: Record<string, unknown>, waf = true) =>
  JSON.stringify({
    time: new Date(now - minutes * 60_000).toISOString(),
    ...(waf ? { firewallId } : {}),
    ...fields,
  });

beforeAll(async () => {
  t = await createTestApi();
  as.owner = (await t.signUp('owner@example.com', 'Olive')).cookie;
  spaceId = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Edge' } }))).json.id;
  await t.db.update(spaces).set({ plan: 'business' }).where(eq(spaces.id, spaceId));
  for (const role of ['admin', 'analyst', 'viewer'] as const) {
    const { cookie, user } = await t.signUp(`${role}@example.com`, `${role[0]?.toUpperCase()}${role.slice(1)}`);
    await t.db.insert(memberships).values({ spaceId, userId: user.id, role, createdAt: t.deps.now() });
    as[role] = cookie;
  }
  const firewall = await t.read(
    t.api(as.admin).spaces[':spaceId'].firewalls.$post({
      param: { spaceId },
      json: { name: 'shop', hostnames: ['shop.example.com'], upstream: 'http://127.0.0.1:3000', mode: 'block' },
    }),
  );
  firewallId = firewall.json.id;
  const source = await t.read(
    t.api(as.admin).spaces[':spaceId'].sources.$post({ param: { spaceId }, json: { name: 'edge', kind: 'json' } }),
  );
  const lines = [
    // A: five SQL injection attempts on /search in the last hour, three blocked; and one three days ago.
    ...[10, 20, 30].map((m) => line(m, { ip: A, path: "/search?q='or", ruleIds: [942100, 949110], action: 'blocked' })),
    ...[40, 50].map((m) => line(m, { ip: A, path: '/search?q=1', ruleIds: [942100, 949110], action: 'logged' })),
    line(3 * 1_440, { ip: A, path: '/search?q=old', ruleIds: [942100], action: 'blocked' }),
    // B: three path traversal attempts on /login, logged.
    ...[70, 80, 90].map((m) => line(m, { ip: B, path: '/login', ruleIds: [930120], action: 'logged' })),
    // C: two on /search, blocked.
    ...[100, 110].map((m) => line(m, { ip: C, path: '/search', ruleIds: [942100], action: 'blocked' })),
    // E: seen by the firewall without a rule, the newest.
    line(5, { ip: E, path: '/', action: 'allowed' }),
    // D: an application log line, no rule, no firewall: not a WAF event.
    line(15, { ip: D, path: '/health', action: 'allowed' }, false),
    // Outside the range of 24 hours but another space's firewall would not see it either: two days ago.
    line(2 * 1_440, { ip: B, path: '/login', ruleIds: [930120], action: 'logged' }),
  ];
  const res = await t.app.request(`${BASE}/api/ingest/${source.json.token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: lines.join('\n'),
  });
  expect(await res.json()).toEqual({ accepted: lines.length, errors: [] });
});
afterAll(async () => {
  await t.close();
});

const discover = (params: Record<string, string>, cookie = as.viewer) =>
  t.raw('GET', `/api/spaces/${spaceId}/waf-discover?${new URLSearchParams({ from, to, ...params })}`, { cookie });

type Item = {
  key: string;
  count: number;
  blocked: number;
  distinctIps: number;
  firstSeen: string;
  lastSeen: string;
  topRule: { id: number; count: number } | null;
  sparkline: number[];
};

/** The groups of the space's stored WAF events in the range, counted in JavaScript from the rows themselves. */
async function expectedGroups(key: (row: typeof events.$inferSelect) => string[]) {
  const rows = await t.db.select().from(events).where(eq(events.spaceId, spaceId));
  const groups = new Map<string, { count: number; blocked: number; ips: Set<string> }>();
  for (const row of rows) {
    const time = row.time.getTime();
    if (time < Date.parse(from) || time > Date.parse(to)) continue;
    if (row.firewallId === null && row.ruleIds.length === 0) continue;
    for (const k of key(row)) {
      const group = groups.get(k) ?? { count: 0, blocked: 0, ips: new Set<string>() };
      group.count += 1;
      if (row.action === 'blocked') group.blocked += 1;
      if (row.ip) group.ips.add(row.ip);
      groups.set(k, group);
    }
  }
  return [...groups].map(([k, g]) => ({ key: k, count: g.count, blocked: g.blocked, distinctIps: g.ips.size }));
}

const figures = (items: Item[]) =>
  items.map(({ key, count, blocked, distinctIps }) => ({ key, count, blocked, distinctIps }));
const byKey = (items: Item[], key: string) => items.find((item) => item.key === key);

describe('GET /waf-discover', () => {
  test('groups by client IP: counts, blocked, first and last seen, top rule, largest first; non-WAF events left out', async () => {
    const res = await discover({ groupBy: 'ip' });
    expect(res.status).toBe(200);
    const items = res.json.items as Item[];
    expect(figures(items)).toEqual([
      { key: A, count: 5, blocked: 3, distinctIps: 1 },
      { key: B, count: 3, blocked: 0, distinctIps: 1 },
      { key: C, count: 2, blocked: 2, distinctIps: 1 },
      { key: E, count: 1, blocked: 0, distinctIps: 1 },
    ]);
    expect(items.map((item) => item.key)).not.toContain(D);
    const expected = await expectedGroups((row) => (row.ip ? [row.ip] : []));
    expect(figures(items)).toEqual(expect.arrayContaining(expected));
    expect(byKey(items, A)).toMatchObject({
      firstSeen: new Date(now - 50 * 60_000).toISOString(),
      lastSeen: new Date(now - 10 * 60_000).toISOString(),
      // 942100 and 949110 both fired five times: the lower id wins the tie.
      topRule: { id: 942100, count: 5 },
    });
    expect(byKey(items, E)?.topRule).toBeNull();
    expect(res.json).toMatchObject({ groupBy: 'ip', from, to, total: 11, groups: 4 });
  });

  test('every sparkline has the same number of buckets, each event in the bucket of its time, summing to the count', async () => {
    const res = await discover({ groupBy: 'path' });
    const { buckets, bucketSeconds, items } = res.json as { buckets: number; bucketSeconds: number; items: Item[] };
    expect(buckets).toBeGreaterThanOrEqual(24);
    expect(buckets).toBeLessThanOrEqual(49);
    expect(bucketSeconds * buckets * 1000).toBeGreaterThanOrEqual(86_400_000);
    for (const item of items) {
      expect(item.sparkline).toHaveLength(buckets);
      expect(item.sparkline.reduce((sum, n) => sum + n, 0)).toBe(item.count);
    }
    // The bucket of the newest event of A is the one that holds `now - 10 min`.
    const origin = Math.floor(Date.parse(from) / 1000 / bucketSeconds) * bucketSeconds * 1000;
    const search = byKey(items, '/search') as Item;
    const slot = Math.floor((now - 10 * 60_000 - origin) / 1000 / bucketSeconds);
    expect(search.sparkline[slot]).toBeGreaterThan(0);
    expect(search.sparkline.slice(0, Math.floor((now - 3 * 3_600_000 - origin) / 1000 / bucketSeconds))).toEqual(
      new Array(Math.floor((now - 3 * 3_600_000 - origin) / 1000 / bucketSeconds)).fill(0),
    );
  });

  test('groups by path without the query string, by rule (an event counts under each of its rules) and by country', async () => {
    const paths = (await discover({ groupBy: 'path' })).json.items as Item[];
    expect(figures(paths)).toEqual([
      { key: '/search', count: 7, blocked: 5, distinctIps: 2 },
      { key: '/login', count: 3, blocked: 0, distinctIps: 1 },
      { key: '/', count: 1, blocked: 0, distinctIps: 1 },
    ]);
    const rules = (await discover({ groupBy: 'rule' })).json.items as Item[];
    expect(figures(rules)).toEqual([
      { key: '942100', count: 7, blocked: 5, distinctIps: 2 },
      { key: '949110', count: 5, blocked: 3, distinctIps: 1 },
      { key: '930120', count: 3, blocked: 0, distinctIps: 1 },
    ]);
    expect(byKey(rules, '949110')?.topRule).toEqual({ id: 949110, count: 5 });
    const countries = (await discover({ groupBy: 'country' })).json.items as Item[];
    const expected = await expectedGroups((row) => (row.country ? [row.country] : []));
    expect(figures(countries)).toEqual(expect.arrayContaining(expected));
    expect(countries).toHaveLength(expected.length);
  });

  test('sorts by blocked, distinct IPs and last seen, and limits the groups', async () => {
    const blocked = (await discover({ groupBy: 'ip', sort: 'blocked' })).json.items as Item[];
    expect(blocked.map((item) => item.key)).toEqual([A, C, B, E]);
    const ips = (await discover({ groupBy: 'path', sort: 'ips' })).json.items as Item[];
    expect(ips[0]?.key).toBe('/search');
    const last = (await discover({ groupBy: 'ip', sort: 'lastSeen' })).json.items as Item[];
    expect(last.map((item) => item.key)).toEqual([E, A, B, C]);
    const two = await discover({ groupBy: 'ip', limit: '2' });
    expect(two.json.items.map((item: Item) => item.key)).toEqual([A, B]);
    expect(two.json.groups).toBe(4);
  });

  test('the groups after the first page are reached by offset, in the same order, each once', async () => {
    const rest = await discover({ groupBy: 'ip', limit: '2', offset: '2' });
    expect(rest.status).toBe(200);
    expect(rest.json.items.map((item: Item) => item.key)).toEqual([C, E]);
    expect(rest.json).toMatchObject({ total: 11, groups: 4 });
    const past = await discover({ groupBy: 'ip', offset: '4' });
    expect(past.json.items).toEqual([]);
    const bad = await discover({ groupBy: 'ip', offset: '-1' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain('offset');
  });

  test('the query narrows the WAF events; scope all takes every event; the range leaves older ones out', async () => {
    const blocked = (await discover({ groupBy: 'ip', q: 'action:blocked' })).json.items as Item[];
    expect(figures(blocked)).toEqual([
      { key: A, count: 3, blocked: 3, distinctIps: 1 },
      { key: C, count: 2, blocked: 2, distinctIps: 1 },
    ]);
    const all = (await discover({ groupBy: 'ip', scope: 'all', q: 'path:/health' })).json.items as Item[];
    expect(figures(all)).toEqual([{ key: D, count: 1, blocked: 0, distinctIps: 1 }]);
    const week = await discover({ groupBy: 'ip', from: new Date(now - 7 * 86_400_000).toISOString() });
    expect(byKey(week.json.items, A)?.count).toBe(6);
    expect(byKey(week.json.items, B)?.count).toBe(4);
  });

  test('without a range it reads the last 24 hours', async () => {
    const res = await t.raw('GET', `/api/spaces/${spaceId}/waf-discover`, { cookie: as.viewer });
    expect(res.status).toBe(200);
    expect(Date.parse(res.json.to) - Date.parse(res.json.from)).toBe(86_400_000);
    expect(byKey(res.json.items, A)?.count).toBe(5);
  });

  test.each([
    [{ groupBy: 'host' }, 'groupBy'],
    [{ sort: 'name' }, 'sort'],
    [{ limit: '500' }, 'limit'],
    [{ scope: 'some' }, 'scope'],
    [{ q: 'foo:bar' }, 'q'],
    [{ from: to, to: from }, 'from'],
  ])('%o is refused naming $1', async (params, field) => {
    const res = await discover(params as Record<string, string>);
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.error.fields)).toEqual([field]);
  });

  test('another space’s members get 404', async () => {
    const stranger = (await t.signUp('stranger@example.com')).cookie;
    expect((await discover({}, stranger)).status).toBe(404);
  });

  test('discover reads the groups and all their sparklines in one statement', async () => {
    let statements = 0;
    const lane = searchLaneFor(t.database);
    /** Counts every statement a search sends through its executor. */
    const counting: SearchLane = {
      load: () => lane.load(),
      run: (kind, space, work) =>
        lane.run(kind, space, (db) =>
          work(
            new Proxy(db, {
              get(target, name, receiver) {
                const value = Reflect.get(target, name, receiver);
                if (typeof value !== 'function') return value;
                return (...args: unknown[]) => {
                  if (['execute', 'select', 'selectDistinct', 'with', 'transaction'].includes(String(name))) {
                    statements += 1;
                  }
                  return value.apply(target, args);
                };
              },
            }) as Executor,
          ),
        ),
    };
    const app = createApp({
      db: t.db,
      searches: counting,
      config: { publicUrl: BASE, allowedOrigins: [ORIGIN], trustProxy: true, production: false, smtpUrl: undefined },
      captcha: fakeCaptcha,
      log: silentLogger,
    });
    const res = await app.request(
      `${BASE}/api/spaces/${spaceId}/waf-discover?${new URLSearchParams({ from, to, groupBy: 'rule' })}`,
      { headers: { cookie: as.viewer } },
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { items: Item[] }).items).toHaveLength(3);
    expect(statements).toBe(1);
  });
});

const preview = (body: Record<string, unknown>, cookie = as.viewer) =>
  t.raw('POST', `/api/spaces/${spaceId}/waf-remedies/preview`, { cookie, body: { firewallId, ...body } });
const apply = (body: Record<string, unknown>, cookie = as.admin) =>
  t.raw('POST', `/api/spaces/${spaceId}/waf-remedies`, { cookie, body: { firewallId, ...body } });
const blockA = { kind: 'block-ip', ip: A, durationMinutes: 1_440 };

describe('WAF remedies', () => {
  test('the block-IP preview counts 7 days of the firewall’s requests from the IP and diffs the files; nothing is stored', async () => {
    const res = await preview(blockA);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      firewall: { id: firewallId, name: 'shop', mode: 'block', version: 1 },
      // Five today and one three days ago.
      affected: { requests: 6, distinctIps: 1 },
      alreadyInPlace: false,
    });
    expect(Date.parse(res.json.affected.to) - Date.parse(res.json.affected.from)).toBe(7 * 86_400_000);
    expect(res.json.change).toContain(A);
    expect(res.json.change).toContain('24 h');
    const deny = res.json.files.find((file: { name: string }) => file.name === 'ip-deny.txt');
    expect(deny).toEqual({ name: 'ip-deny.txt', before: '', after: expect.stringContaining(A) });
    const conf = res.json.files.find((file: { name: string }) => file.name === 'modsecurity.conf');
    expect(conf.before).not.toContain('@ipMatchFromFile ip-deny.txt');
    expect(conf.after).toContain('@ipMatchFromFile ip-deny.txt');
    const firewall = await t.read(
      t.api(as.viewer).spaces[':spaceId'].firewalls[':id'].$get({ param: { spaceId, id: firewallId } }),
    );
    expect(firewall.json).toMatchObject({ version: 1, ipDeny: [] });
  });

  test('on a firewall that has seen no requests the preview says so and counts the space-wide matches', async () => {
    const empty = await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls.$post({
        param: { spaceId },
        json: { name: 'new', hostnames: ['new.example.com'], upstream: 'http://127.0.0.1:3001', mode: 'block' },
      }),
    );
    const res = await preview({ ...blockA, firewallId: empty.json.id });
    expect(res.status).toBe(200);
    // A's six requests of the week all went through "shop", which saw 13 (A 6, B 4, C 2, E 1; D's bypassed it).
    expect(res.json.affected).toMatchObject({
      requests: 0,
      distinctIps: 0,
      firewallRequests: 0,
      space: { requests: 6, distinctIps: 1 },
    });
    const onShop = await preview(blockA);
    expect(onShop.json.affected).toMatchObject({ requests: 6, firewallRequests: 13, space: { requests: 6 } });
    await t.raw('DELETE', `/api/spaces/${spaceId}/firewalls/${empty.json.id}`, {
      cookie: as.admin,
      body: { confirmName: 'new' },
    });
  });

  test('the exclusion preview counts the firewall’s requests carrying the rule under the path', async () => {
    const res = await preview({ kind: 'exclude-rule', ruleId: 942100, path: '/search' });
    expect(res.status).toBe(200);
    // A: five today and one three days ago; C: two.
    expect(res.json.affected).toMatchObject({ requests: 8, distinctIps: 2 });
    expect(res.json.change).toBe('Stop rule 942100 from matching requests to paths starting with /search on “shop”.');
    // Only the file the exclusion changes: the version number is in no file, so no other file differs.
    expect(res.json.files.map((file: { name: string }) => file.name)).toEqual(['modsecurity.conf']);
    const conf = res.json.files.find((file: { name: string }) => file.name === 'modsecurity.conf');
    expect(conf.before).not.toContain('# Exclusion: rule 942100');
    expect(conf.after).toContain('# Exclusion: rule 942100, path /search');
    const other = await preview({ kind: 'exclude-rule', ruleId: 930120, path: '/search' });
    expect(other.json.affected).toMatchObject({ requests: 0, distinctIps: 0 });
  });

  test.each([
    [{ kind: 'block-ip', ip: 'not-an-ip', durationMinutes: 60 }, 'ip'],
    [{ kind: 'block-ip', ip: A, durationMinutes: 0 }, 'durationMinutes'],
    [{ kind: 'block-ip', ip: A, durationMinutes: 525_601 }, 'durationMinutes'],
    [{ kind: 'exclude-rule', ruleId: 949110, path: '/search' }, 'ruleId'],
    [{ kind: 'exclude-rule', ruleId: 942100, path: 'search' }, 'path'],
    [{ kind: 'exclude-rule', ruleId: 942100 }, 'path'],
    [{ kind: 'exclude-rule', ruleId: 1_234_567, path: '/search' }, 'ruleId'],
    [{ kind: 'allow-ip', ip: A }, 'kind'],
  ])('%o is refused naming $1', async (body, field) => {
    const res = await preview(body);
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.error.fields)).toEqual([field]);
    const applied = await apply({ ...body, version: 1 });
    expect(applied.status).toBe(400);
    expect(Object.keys(applied.json.error.fields)).toContain(field);
  });

  test('a firewall whose exclusions are full refuses one more, naming the rule', async () => {
    const full = await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls.$post({
        param: { spaceId },
        json: {
          name: 'full',
          hostnames: ['full.example.com'],
          upstream: 'http://127.0.0.1:3000',
          mode: 'block',
          exclusions: Array.from({ length: 500 }, (_, i) => ({ ruleId: 942100, path: `/p${i}` })),
        },
      }),
    );
    expect(full.status).toBe(201);
    const body = { kind: 'exclude-rule', ruleId: 930120, path: '/login', firewallId: full.json.id };
    const res = await preview(body);
    expect(res.status).toBe(400);
    expect(res.json.error.fields).toEqual({ ruleId: '“full” already has 500 exclusions, its most.' });
    expect((await apply({ ...body, version: 1 })).json.error.fields).toHaveProperty('ruleId');
  });

  test('an unknown firewall is 404', async () => {
    const res = await preview({ ...blockA, firewallId: '7b0c6c55-7a7e-4f59-9d9e-2c8c2b7b0c11' });
    expect(res.status).toBe(404);
  });

  test('viewers and analysts preview but cannot apply; an admin’s apply is version 2 with the expiring deny entry', async () => {
    expect((await apply({ ...blockA, version: 1 }, as.viewer)).status).toBe(403);
    expect((await apply({ ...blockA, version: 1 }, as.analyst)).status).toBe(403);
    const before = Date.now();
    const res = await apply({ ...blockA, version: 1, comment: 'SQLi scanner' });
    expect(res.status).toBe(201);
    expect(res.json.version).toBe(2);
    expect(res.json.firewall.version).toBe(2);
    const [entry] = res.json.firewall.ipDeny;
    expect(entry).toMatchObject({ cidr: `${A}/32`, comment: 'Blocked from WAF discover: SQLi scanner' });
    const expires = Date.parse(entry.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 86_400_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 86_400_000);

    const version = await t.read(
      t.api(as.viewer).spaces[':spaceId'].firewalls[':id'].versions[':version'].$get({
        param: { spaceId, id: firewallId, version: '2' },
      }),
    );
    expect(version.json.comment).toBe(`Block ${A} for 24 h (WAF discover)`);
    expect(version.json.author.name).toBe('Admin');
    expect(version.json.files['ip-deny.txt']).toContain(A);
    expect(version.json.files['modsecurity.conf']).toContain('@ipMatchFromFile ip-deny.txt');
    const audits = await t.db
      .select()
      .from(activity)
      .where(and(eq(activity.objectId, firewallId), eq(activity.action, 'firewall.remedy')));
    expect(audits).toHaveLength(1);
    expect(audits[0]?.change).toMatchObject({
      fromVersion: 1,
      version: 2,
      comment: `Block ${A} for 24 h (WAF discover)`,
    });
  });

  test('a remedy started from an older version answers 409 naming both; one already in place answers 409; a longer block extends', async () => {
    const stale = await apply({ ...blockA, ip: B, version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.json.error).toMatchObject({ code: 'version_conflict', current: { id: firewallId, version: 2 } });
    expect(stale.json.error.message).toContain('version 1');
    expect(stale.json.error.message).toContain('version 2');

    const again = await preview(blockA);
    expect(again.json).toMatchObject({ alreadyInPlace: true, files: [] });
    const twice = await apply({ ...blockA, version: 2 });
    expect(twice.status).toBe(409);
    expect(twice.json.error.code).toBe('remedy_in_place');

    const week = await apply({ ...blockA, durationMinutes: 10_080, version: 2 });
    expect(week.status).toBe(201);
    expect(week.json.version).toBe(3);
    expect(week.json.firewall.ipDeny).toHaveLength(1);
    // Extended, the entry keeps what it said.
    expect(week.json.firewall.ipDeny[0].comment).toBe('Blocked from WAF discover: SQLi scanner');
    expect(Date.parse(week.json.firewall.ipDeny[0].expiresAt)).toBeGreaterThan(Date.now() + 6 * 86_400_000);

    // Permanently: the same entry loses its end; the week's block no longer counts as in place.
    const forGood = await preview({ ...blockA, durationMinutes: null });
    expect(forGood.json).toMatchObject({ alreadyInPlace: false });
    expect(forGood.json.change).toBe(
      `Extend the block of ${A} on “shop” for good: the entry stays until someone removes it.`,
    );
    const permanent = await apply({ ...blockA, durationMinutes: null, version: 3 });
    expect(permanent.status).toBe(201);
    expect(permanent.json.firewall.ipDeny).toEqual([
      { cidr: `${A}/32`, comment: 'Blocked from WAF discover: SQLi scanner' },
    ]);
    const longest = await preview({ ...blockA, durationMinutes: 525_600 });
    expect(longest.json.alreadyInPlace).toBe(true);
    expect(longest.json.change).toContain('with no end');
  });

  test('an applied exclusion is the next version with the exclusion in its settings and files', async () => {
    const current = await t.read(
      t.api(as.viewer).spaces[':spaceId'].firewalls[':id'].$get({ param: { spaceId, id: firewallId } }),
    );
    const res = await apply({ kind: 'exclude-rule', ruleId: 942100, path: '/search', version: current.json.version });
    expect(res.status).toBe(201);
    expect(res.json.firewall.exclusions).toEqual([{ ruleId: 942100, path: '/search', comment: 'From WAF discover' }]);
    const version = await t.read(
      t.api(as.viewer).spaces[':spaceId'].firewalls[':id'].versions[':version'].$get({
        param: { spaceId, id: firewallId, version: res.json.version },
      }),
    );
    expect(version.json.files['modsecurity.conf']).toContain('# Exclusion: rule 942100, path /search');
    const inPlace = await preview({ kind: 'exclude-rule', ruleId: 942100, path: '/search/deeper' });
    expect(inPlace.json.alreadyInPlace).toBe(true);
  });
});
