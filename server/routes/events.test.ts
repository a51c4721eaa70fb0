import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { BASE, createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let t: TestApi;
let cookie: string;
let spaceId: string;

const now = Date.now();
const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
const EVENTS = [
  {
    time: at(5),
    ip: '203.0.113.7',
    method: 'GET',
    host: 'shop.example.com',
    path: '/search',
    status: 403,
    action: 'blocked',
    severity: 'critical',
    ruleIds: [942100, 949110],
    tags: ['attack-sqli'],
    message: 'SQL Injection Attack Detected via libinjection',
  },
  {
    time: at(15),
    ip: '198.51.100.9',
    method: 'POST',
    host: 'shop.example.com',
    path: '/login',
    status: 403,
    action: 'blocked',
    severity: 'high',
    ruleIds: [941100],
    tags: ['attack-xss'],
    message: 'XSS Attack Detected via libinjection',
  },
  {
    time: at(25),
    ip: '10.1.2.3',
    method: 'GET',
    host: 'api.example.com',
    path: '/v1/items',
    status: 200,
    action: 'allowed',
    severity: 'info',
    ruleIds: [],
    tags: [],
  },
  {
    time: at(35),
    ip: '10.9.9.9',
    method: 'GET',
    host: 'shop.example.com',
    path: '/../../etc/passwd',
    status: 200,
    action: 'logged',
    severity: 'medium',
    ruleIds: [930100],
    tags: ['attack-lfi'],
    message: 'Path Traversal Attack (/../)',
  },
  {
    time: at(60 * 30),
    ip: '203.0.113.8',
    method: 'GET',
    host: 'shop.example.com',
    path: '/old',
    status: 404,
    action: 'allowed',
    severity: 'low',
    ruleIds: [],
    tags: [],
  },
];

beforeAll(async () => {
  t = await createTestApi();
  cookie = (await t.signUp('events@example.com')).cookie;
  spaceId = (await t.read(t.api(cookie).spaces.$post({ json: { name: 'Events' } }))).json.id;
  const source = await t.read(
    t.api(cookie).spaces[':spaceId'].sources.$post({ param: { spaceId }, json: { name: 'edge', kind: 'json' } }),
  );
  const res = await t.app.request(`${BASE}/api/ingest/${source.json.token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: EVENTS.map((event) => JSON.stringify(event)).join('\n'),
  });
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await t.close();
});

const list = (query: Record<string, string>) =>
  t.raw('GET', `/api/spaces/${spaceId}/events?${new URLSearchParams(query)}`, { cookie });

test.each([
  ['', 5],
  ['action:blocked', 2],
  ['-action:blocked', 3],
  ['tag:attack-sqli', 1],
  ['rule:930100', 1],
  ['ip:10.0.0.0/8', 2],
  ['status:>=400', 3],
  ['(tag:attack-xss OR tag:attack-lfi) host:shop.example.com', 2],
  ['libinjection', 2],
])('query %j finds $1 events', async (q, expected) => {
  const res = await list({ q });
  expect(res.status).toBe(200);
  expect(res.json.items).toHaveLength(expected);
});

test('newest first, cursor pages, and the time range', async () => {
  const first = await list({ limit: '2' });
  expect(first.json.items.map((event: { path: string }) => event.path)).toEqual(['/search', '/login']);
  const second = await list({ limit: '2', cursor: first.json.nextCursor });
  expect(second.json.items.map((event: { path: string }) => event.path)).toEqual(['/v1/items', '/../../etc/passwd']);
  const recent = await list({ from: at(60) });
  expect(recent.json.items).toHaveLength(4);
});

test('a query that does not parse is a 400 naming q and the position', async () => {
  const res = await list({ q: 'status:>=abc' });
  expect(res.status).toBe(400);
  expect(res.json.error.code).toBe('query_invalid');
  expect(res.json.error.fields.q).toMatch(/at character \d+/);
});

test('histogram buckets count matching and blocked events over the last 24 hours', async () => {
  const res = await t.read(
    t.api(cookie).spaces[':spaceId'].events.histogram.$get({ param: { spaceId }, query: { buckets: '24' } }),
  );
  expect(res.status).toBe(200);
  // 24 hours in at most 24 buckets: an hour each, starting on whole hours, so the range's first partial hour is one
  // more bucket (it starts before the range).
  expect(res.json.intervalSeconds).toBe(3600);
  expect(res.json.buckets).toHaveLength(25);
  expect(res.json.buckets.every((bucket: { time: string }) => Date.parse(bucket.time) % 3_600_000 === 0)).toBe(true);
  expect(Date.parse(res.json.buckets[0].time)).toBeLessThanOrEqual(Date.parse(res.json.from));
  const total = res.json.buckets.reduce((sum: number, bucket: { total: number }) => sum + bucket.total, 0);
  const blocked = res.json.buckets.reduce((sum: number, bucket: { blocked: number }) => sum + bucket.blocked, 0);
  expect(total).toBe(4);
  expect(blocked).toBe(2);
});

test('facets count actions, severities, countries, rules and hosts of matching events', async () => {
  const res = await t.read(
    t.api(cookie).spaces[':spaceId'].events.facets.$get({ param: { spaceId }, query: { q: 'host:shop.example.com' } }),
  );
  expect(res.status).toBe(200);
  expect(res.json.total).toBe(4);
  expect(res.json.action).toEqual(
    [
      { value: 'allowed', count: 1 },
      { value: 'blocked', count: 2 },
      { value: 'logged', count: 1 },
    ].sort((a, b) => b.count - a.count || a.value.localeCompare(b.value)),
  );
  expect(res.json.rule.map((row: { value: string }) => row.value).sort()).toEqual([
    '930100',
    '941100',
    '942100',
    '949110',
  ]);
  expect(res.json.host).toEqual([{ value: 'shop.example.com', count: 4 }]);
  expect(res.json.tag.map((row: { value: string }) => row.value).sort()).toEqual([
    'attack-lfi',
    'attack-sqli',
    'attack-xss',
  ]);
  expect(res.json.ip).toHaveLength(4);
  const one = await t.read(
    t.api(cookie).spaces[':spaceId'].events.facets.$get({ param: { spaceId }, query: { size: '1' } }),
  );
  expect(one.json.ip).toHaveLength(1);
  expect(
    (await t.read(t.api(cookie).spaces[':spaceId'].events.facets.$get({ param: { spaceId }, query: { size: '0' } })))
      .status,
  ).toBe(400);
});

test('one event with its raw record; another space never sees it', async () => {
  const [event] = (await list({ q: 'tag:attack-sqli' })).json.items;
  const one = await t.read(
    t.api(cookie).spaces[':spaceId'].events[':eventId'].$get({ param: { spaceId, eventId: event.id } }),
  );
  expect(one.status).toBe(200);
  expect(one.json.raw).toMatchObject({ path: '/search' });
  const stranger = (await t.signUp('stranger@example.com')).cookie;
  expect(
    (
      await t.read(
        t.api(stranger).spaces[':spaceId'].events[':eventId'].$get({ param: { spaceId, eventId: event.id } }),
      )
    ).status,
  ).toBe(404);
});

test('export, histogram, facets and usage each reach their own handler, and an event id must be a UUID', async () => {
  const base = `/api/spaces/${spaceId}/events`;
  const exported = await t.read(
    t.api(cookie).spaces[':spaceId'].events.export.$get({ param: { spaceId }, query: { format: 'csv' } }),
  );
  expect(exported.status).toBe(200);
  expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
  expect((await t.raw('GET', `${base}/histogram`, { cookie })).json).toHaveProperty('buckets');
  expect((await t.raw('GET', `${base}/facets`, { cookie })).json).toHaveProperty('ip');
  expect(
    (await t.read(t.api(cookie).spaces[':spaceId'].events.usage.$get({ param: { spaceId } }))).json,
  ).toHaveProperty('quota');
  const [event] = (await list({})).json.items;
  expect(
    (await t.read(t.api(cookie).spaces[':spaceId'].events[':eventId'].$get({ param: { spaceId, eventId: event.id } })))
      .json.id,
  ).toBe(event.id);
  const unknown = await t.read(
    t.api(cookie).spaces[':spaceId'].events[':eventId'].$get({ param: { spaceId, eventId: 'not-an-id' } }),
  );
  expect(unknown.status).toBe(404);
  expect(unknown.json.error.code).toBe('not_found');
});
