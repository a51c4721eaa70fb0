/**
 * `POST /api/spaces/{spaceId}/query`: one widget's query over twelve events written in this file, each answer
 * counted by hand; the rollup path answers exactly what the statement over `events` answers; the field errors;
 * who may ask. On PGlite here and on PostgreSQL under `npm run test:api:pg`.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { WidgetQuery } from '../../contract/dashboards.ts';
import type { SpaceCaller } from '../caller.ts';
import { sources } from '../db/schema/sources.ts';
import { spaces } from '../db/schema/spaces.ts';
import { widgetQuery } from '../services/dashboards/query.ts';
import { createTestApi, type TestApi } from '../test/harness.ts';
import { spaceWithRoles } from '../test/space-roles.ts';
import { storeEvents } from '../test/stored-events.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// On no boundary (minutes, seconds and milliseconds set), so the ranges' ends are ragged.
const NOW = Math.floor(Date.now() / HOUR) * HOUR + 37 * MINUTE + 13_456;

type Fixture = {
  ago: number;
  country: string | null;
  status: number | null;
  action: 'blocked' | 'allowed' | 'logged';
  severity: 'critical' | 'high' | 'medium' | 'low' | 'info';
  ruleIds: number[];
  tags: string[];
  ip: string | null;
  host: string | null;
};
const e = (
  ago: number,
  country: string | null,
  status: number | null,
  action: Fixture['action'],
  severity: Fixture['severity'],
  ruleIds: number[],
  tags: string[],
  ip: string | null,
  host: string | null,
): Fixture => ({ ago, country, status, action, severity, ruleIds, tags, ip, host });

const shop = 'shop.example.com';
const api = 'api.example.com';
/** e1 … e12; e12 is older than 7 days. */
const EVENTS: Fixture[] = [
  e(5 * MINUTE, 'CN', 403, 'blocked', 'critical', [942100, 949110], ['attack-sqli'], '1.1.1.1', shop),
  e(10 * MINUTE, 'CN', 403, 'blocked', 'high', [941100], ['attack-xss'], '1.1.1.1', shop),
  e(20 * MINUTE, 'US', 200, 'allowed', 'info', [], [], '2.2.2.2', api),
  e(90 * MINUTE, 'US', 404, 'allowed', 'low', [], [], '2.2.2.2', api),
  e(3 * HOUR, 'DE', 403, 'blocked', 'critical', [942100], ['attack-sqli', 'paranoia-level/1'], '3.3.3.3', shop),
  e(5 * HOUR, null, null, 'logged', 'medium', [930100], ['attack-lfi'], '4.4.4.4', shop),
  e(26 * HOUR, 'CN', 403, 'blocked', 'high', [942100], ['attack-sqli'], '1.1.1.1', shop),
  e(30 * HOUR, 'FR', 500, 'allowed', 'info', [], [], '5.5.5.5', api),
  e(3 * DAY, 'CN', 403, 'blocked', 'critical', [942100, 949110], ['attack-sqli'], '6.6.6.6', shop),
  e(4 * DAY, 'US', 200, 'allowed', 'info', [], [], null, null),
  e(6 * DAY, 'DE', null, 'logged', 'low', [913100], ['attack-scanner'], '3.3.3.3', shop),
  e(8 * DAY, 'CN', 403, 'blocked', 'critical', [942100], ['attack-sqli'], '1.1.1.1', shop),
];

let t: TestApi;
let as: Awaited<ReturnType<typeof spaceWithRoles>>['as'];
let spaceId: string;
let otherSpaceId: string;
let sourceId: string;
let sc: SpaceCaller;

beforeAll(async () => {
  t = await createTestApi({ now: () => new Date(NOW) });
  ({ spaceId, otherSpaceId, as } = await spaceWithRoles(t, 'Dashboards'));
  const [source] = await t.db
    .insert(sources)
    .values({
      spaceId,
      name: 'edge',
      kind: 'json',
      tokenHash: randomUUID(),
      tokenPrefix: 'sgi_x',
      createdAt: new Date(NOW),
      updatedAt: new Date(NOW),
    })
    .returning();
  if (!source) throw new Error('no source');
  sourceId = source.id;
  await storeEvents(
    t.db,
    EVENTS.map((event) => ({
      spaceId,
      sourceId,
      time: new Date(NOW - event.ago),
      receivedAt: new Date(NOW),
      ip: event.ip,
      country: event.country,
      method: 'GET',
      host: event.host,
      path: '/',
      status: event.status,
      action: event.action,
      severity: event.severity,
      ruleIds: event.ruleIds,
      tags: event.tags,
    })),
  );
  const [space] = await t.db.select().from(spaces).where(eq(spaces.id, spaceId));
  if (!space) throw new Error('no space');
  sc = { deps: t.deps, space, role: 'owner' } as unknown as SpaceCaller;
});

afterAll(async () => {
  await t?.close();
});

type Body = { query: Partial<WidgetQuery> & Pick<WidgetQuery, 'metric' | 'groupBy'>; from?: string; to?: string };
const ask = (body: Body, cookie = as.viewer, space = spaceId) =>
  t.read(
    t.api(cookie).spaces[':spaceId'].query.$post({
      param: { spaceId: space },
      json: { from: 'now-7d', to: 'now', ...body, query: { filter: '', ...body.query } },
    }),
  );
/** The series' points of an answer that must succeed. */
async function points(body: Body) {
  const res = await ask(body);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.series[0].data as [number | string | null, number | null][];
}
const none = { kind: 'none' } as const;
const by = (field: WidgetQuery['groupBy'] extends infer G ? (G extends { field: infer F } ? F : never) : never) =>
  ({ kind: 'field', field }) as const;

describe('metrics, hand counted', () => {
  test('count without grouping: 7 days, 24 hours, a filter', async () => {
    expect(await points({ query: { metric: 'count', groupBy: none } })).toEqual([[null, 11]]);
    expect(await points({ query: { metric: 'count', groupBy: none }, from: 'now-24h' })).toEqual([[null, 6]]);
    expect(await points({ query: { metric: 'count', groupBy: none, filter: 'action:blocked' } })).toEqual([[null, 5]]);
    expect(await points({ query: { metric: 'count', groupBy: none }, from: 'now-30d' })).toEqual([[null, 12]]);
  });

  test('distinct values: a scalar field (events without one left out) and an array field (its elements)', async () => {
    expect(await points({ query: { metric: 'distinct', field: 'ip', groupBy: none } })).toEqual([[null, 6]]);
    expect(await points({ query: { metric: 'distinct', field: 'ip', groupBy: none }, from: 'now-24h' })).toEqual([
      [null, 4],
    ]);
    expect(await points({ query: { metric: 'distinct', field: 'ruleIds', groupBy: none } })).toEqual([[null, 5]]);
    expect(await points({ query: { metric: 'distinct', field: 'tags', groupBy: none } })).toEqual([[null, 5]]);
  });

  test('sum and average skip events without a value; the average of nothing is null, the sum 0', async () => {
    expect(await points({ query: { metric: 'sum', field: 'status', groupBy: none } })).toEqual([[null, 3319]]);
    const [[, avg]] = (await points({ query: { metric: 'avg', field: 'status', groupBy: none } })) as [[null, number]];
    expect(avg).toBeCloseTo(3319 / 9, 9);
    const logged = { filter: 'action:logged', field: 'status' as const, groupBy: none };
    expect(await points({ query: { metric: 'avg', ...logged } })).toEqual([[null, null]]);
    expect(await points({ query: { metric: 'sum', ...logged } })).toEqual([[null, 0]]);
  });

  test('top values of a field: by the metric descending, then the value; nulls left out', async () => {
    expect(await points({ query: { metric: 'count', groupBy: by('country') } })).toEqual([
      ['CN', 4],
      ['US', 3],
      ['DE', 2],
      ['FR', 1],
    ]);
    expect(await points({ query: { metric: 'count', groupBy: by('action') } })).toEqual([
      ['blocked', 5],
      ['allowed', 4],
      ['logged', 2],
    ]);
    expect(await points({ query: { metric: 'count', groupBy: by('status') }, from: 'now-24h' })).toEqual([
      [403, 3],
      [200, 1],
      [404, 1],
    ]);
    expect(await points({ query: { metric: 'avg', field: 'status', groupBy: by('country') } })).toEqual([
      ['FR', 500],
      ['CN', 403],
      ['DE', 403],
      ['US', 268],
    ]);
    expect(await points({ query: { metric: 'distinct', field: 'ip', groupBy: by('country') } })).toEqual([
      ['CN', 2],
      ['DE', 1],
      ['FR', 1],
      ['US', 1],
    ]);
    expect(
      await points({ query: { metric: 'count', groupBy: { kind: 'field', field: 'country', limit: 2 } } }),
    ).toEqual([
      ['CN', 4],
      ['US', 3],
    ]);
    expect(await points({ query: { metric: 'count', groupBy: by('sourceId') } })).toEqual([[sourceId, 11]]);
  });

  test('array fields count an event once per element; rule ids are numbers', async () => {
    expect(await points({ query: { metric: 'count', groupBy: by('ruleIds'), filter: 'action:blocked' } })).toEqual([
      [942100, 4],
      [949110, 2],
      [941100, 1],
    ]);
    expect(await points({ query: { metric: 'count', groupBy: by('tags') } })).toEqual([
      ['attack-sqli', 4],
      ['attack-lfi', 1],
      ['attack-scanner', 1],
      ['attack-xss', 1],
      ['paranoia-level/1', 1],
    ]);
    // 942100: e1, e7 (1.1.1.1), e5 (3.3.3.3), e9 (6.6.6.6).
    expect(await points({ query: { metric: 'distinct', field: 'ip', groupBy: by('ruleIds') } })).toEqual([
      [942100, 3],
      [949110, 2],
      [913100, 1],
      [930100, 1],
      [941100, 1],
    ]);
  });

  test('time buckets: every bucket of the range, from a multiple of the width, zeros where no event', async () => {
    const res = await ask({ query: { metric: 'count', groupBy: { kind: 'time', interval: '1h' } }, from: 'now-24h' });
    expect(res.status).toBe(200);
    expect(res.json.intervalSeconds).toBe(3600);
    expect(res.json.fromRollups).toBe(true);
    const data = res.json.series[0].data as [number, number][];
    const origin = Math.floor((NOW - DAY) / HOUR) * HOUR;
    expect(data).toHaveLength(25);
    expect(data.map(([x]) => x)).toEqual(Array.from({ length: 25 }, (_, i) => origin + i * HOUR));
    const expected = Array.from({ length: 25 }, () => 0);
    // NOW is 37 minutes into its hour: 90 minutes before is 53 minutes before that hour, in the bucket before it.
    expected[24] = 3;
    expected[23] = 1;
    expected[21] = 1;
    expected[19] = 1;
    expect(data.map(([, v]) => v)).toEqual(expected);
    expect(res.json.series[0].name).toBe('Events');
  });

  test('auto picks the event log histogram width for about 60 buckets; an average is null in empty buckets', async () => {
    const auto = await ask({
      query: { metric: 'count', groupBy: { kind: 'time', interval: 'auto' } },
      from: 'now-24h',
    });
    expect(auto.json.intervalSeconds).toBe(1800);
    expect(auto.json.series[0].data.reduce((sum: number, [, v]: [number, number]) => sum + v, 0)).toBe(6);
    const res = await ask({ query: { metric: 'avg', field: 'status', groupBy: { kind: 'time', interval: '1d' } } });
    expect(res.json.intervalSeconds).toBe(86_400);
    expect(res.json.fromRollups).toBe(false);
    expect(res.json.series[0].name).toBe('Average status');
    const values = (res.json.series[0].data as [number, number | null][]).map(([, v]) => v);
    expect(values).toHaveLength(8);
    expect(values.filter((v) => v === null).length).toBeGreaterThan(0);
    expect(values.every((v) => v === null || v > 0)).toBe(true);
  });
});

describe('the rollups answer exactly what the events answer', () => {
  const cases: [string, Body['query'], string, boolean][] = [
    ['count', { metric: 'count', groupBy: none }, 'now-7d', true],
    ['count blocked', { metric: 'count', groupBy: none, filter: 'action:blocked' }, 'now-7d', true],
    ['count of a tag', { metric: 'count', groupBy: none, filter: 'tag:attack-sqli' }, 'now-7d', true],
    ['count per hour', { metric: 'count', groupBy: { kind: 'time', interval: '1h' } }, 'now-7d', true],
    ['count per 5 min', { metric: 'count', groupBy: { kind: 'time', interval: '5m' } }, 'now-24h', true],
    [
      'count per day of a country',
      { metric: 'count', groupBy: { kind: 'time', interval: '1d' }, filter: 'country:cn' },
      'now-30d',
      true,
    ],
    [
      'count per 5 min of a tag (no minute facets)',
      { metric: 'count', groupBy: { kind: 'time', interval: '5m' }, filter: 'tag:attack-sqli' },
      'now-24h',
      false,
    ],
    ['by action', { metric: 'count', groupBy: by('action') }, 'now-7d', true],
    ['by severity', { metric: 'count', groupBy: by('severity') }, 'now-30d', true],
    ['by country, blocked', { metric: 'count', groupBy: by('country'), filter: 'action:blocked' }, 'now-7d', true],
    ['by host', { metric: 'count', groupBy: by('host'), filter: '-action:allowed' }, 'now-24h', true],
    ['by ip', { metric: 'count', groupBy: by('ip') }, 'now-7d', true],
    ['by ip, the top one', { metric: 'count', groupBy: { kind: 'field', field: 'ip', limit: 1 } }, 'now-24h', true],
    ['by rule, blocked', { metric: 'count', groupBy: by('ruleIds'), filter: 'action:blocked' }, 'now-7d', true],
    ['by tag', { metric: 'count', groupBy: by('tags') }, 'now-30d', true],
    [
      'by country of a tag (not the rollup key)',
      { metric: 'count', groupBy: by('country'), filter: 'tag:attack-sqli' },
      'now-7d',
      false,
    ],
    ['by method (not rolled)', { metric: 'count', groupBy: by('method') }, 'now-7d', false],
    ['distinct ips', { metric: 'distinct', field: 'ip', groupBy: none }, 'now-7d', true],
    [
      'distinct blocked ips',
      { metric: 'distinct', field: 'ip', groupBy: none, filter: 'action:blocked' },
      'now-24h',
      true,
    ],
    ['distinct rules', { metric: 'distinct', field: 'ruleIds', groupBy: none }, 'now-30d', true],
    ['distinct countries', { metric: 'distinct', field: 'country', groupBy: none }, 'now-7d', true],
    ['distinct actions', { metric: 'distinct', field: 'action', groupBy: none }, 'now-7d', true],
    [
      'distinct ips of a tag (not the key)',
      { metric: 'distinct', field: 'ip', groupBy: none, filter: 'tag:attack-sqli' },
      'now-7d',
      false,
    ],
    ['distinct methods (not rolled)', { metric: 'distinct', field: 'method', groupBy: none }, 'now-7d', false],
    [
      'distinct ips per hour',
      { metric: 'distinct', field: 'ip', groupBy: { kind: 'time', interval: '1h' } },
      'now-24h',
      false,
    ],
  ];
  test.each(cases)('%s', async (_name, query, from, rolled) => {
    const input = { query: { filter: '', ...query } as WidgetQuery, from, to: 'now' };
    const fast = await widgetQuery(sc, input);
    const raw = await widgetQuery(sc, input, { rollups: false });
    expect(fast.fromRollups).toBe(rolled);
    expect(raw.fromRollups).toBe(false);
    expect(fast.series).toEqual(raw.series);
    expect(fast.series[0]?.data.length).toBeGreaterThan(0);
  });
});

describe('refusals', () => {
  test('a filter that does not parse is a 400 naming query.filter', async () => {
    const res = await ask({ query: { metric: 'count', groupBy: none, filter: 'status:>=abc' } });
    expect(res.status).toBe(400);
    expect(res.json.error.fields['query.filter']).toMatch(/at character \d+/);
  });

  test('too many buckets is a 400 on the interval saying how many', async () => {
    const res = await ask({ query: { metric: 'count', groupBy: { kind: 'time', interval: '1m' } }, from: 'now-30d' });
    expect(res.status).toBe(400);
    expect(res.json.error.fields['query.groupBy.interval']).toMatch(
      /^1m buckets over 30 days make 43 20\d buckets; at most 1 500\. Choose a wider interval or auto\.$/,
    );
  });

  test('the start after the end is a 400 on from', async () => {
    const res = await ask({ query: { metric: 'count', groupBy: none }, from: 'now', to: 'now-1h' });
    expect(res.status).toBe(400);
    expect(res.json.error.fields.from).toBeDefined();
  });

  test('a metric its field does not fit is refused by the contract', async () => {
    const res = await ask({ query: { metric: 'sum', field: 'country', groupBy: none } });
    expect(res.status).toBe(400);
  });

  test('RFC 3339 times are taken as they are', async () => {
    const from = new Date(NOW - 2 * HOUR).toISOString();
    const res = await ask({ query: { metric: 'count', groupBy: none }, from, to: new Date(NOW).toISOString() });
    expect(res.json.series[0].data).toEqual([[null, 4]]);
    expect(res.json.from).toBe(from);
  });
});

describe('who may ask', () => {
  test('a viewer queries; a stranger gets 404; another space sees none of these events', async () => {
    expect((await ask({ query: { metric: 'count', groupBy: none } }, as.viewer)).status).toBe(200);
    expect((await ask({ query: { metric: 'count', groupBy: none } }, as.stranger)).status).toBe(404);
    const own = await ask({ query: { metric: 'count', groupBy: none } }, as.stranger, otherSpaceId);
    expect(own.json.series[0].data).toEqual([[null, 0]]);
  });
});
