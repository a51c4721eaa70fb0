/**
 * `GET /api/spaces/{spaceId}/overview/summary`: the strip's numbers over a range and the period before it, from
 * events, alerts and findings written at known times in this file and counted by hand; who may ask.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { alerts } from '../db/schema/alerts.ts';
import { sources } from '../db/schema/sources.ts';
import { assets, findings } from '../db/schema/vulns.ts';
import { summaryWindows } from '../services/overview/summary.ts';
import { createTestApi, type TestApi } from '../test/harness.ts';
import { spaceWithRoles } from '../test/space-roles.ts';
import { storeEvents } from '../test/stored-events.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// On no boundary (minutes, seconds and milliseconds set), so both windows' ends are ragged.
const NOW = Math.floor(Date.now() / HOUR) * HOUR + 37 * MINUTE + 13_456;

type Fixture = { ago: number; action: 'blocked' | 'allowed' | 'logged'; ip: string | null };
/** The last 24 hours hold the first four (the fourth exactly at its start); the 24 hours before, the next three. */
const EVENTS: Fixture[] = [
  { ago: 5 * MINUTE, action: 'blocked', ip: '192.0.2.1' },
  { ago: 2 * HOUR, action: 'allowed', ip: '192.0.2.2' },
  { ago: 23 * HOUR, action: 'blocked', ip: '192.0.2.1' },
  { ago: DAY, action: 'logged', ip: '192.0.2.3' },
  { ago: DAY + 1, action: 'blocked', ip: '198.51.100.4' },
  { ago: 30 * HOUR, action: 'blocked', ip: null },
  { ago: 47 * HOUR, action: 'allowed', ip: '198.51.100.4' },
  { ago: 50 * HOUR, action: 'allowed', ip: '203.0.113.9' },
];

let t: TestApi;
let as: Awaited<ReturnType<typeof spaceWithRoles>>['as'];
let spaceId: string;
let otherSpaceId: string;

async function source(space: string) {
  const [row] = await t.db
    .insert(sources)
    .values({
      spaceId: space,
      name: 'edge',
      kind: 'json',
      tokenHash: randomUUID(),
      tokenPrefix: 'sgi_x',
      createdAt: new Date(NOW),
      updatedAt: new Date(NOW),
    })
    .returning();
  if (!row) throw new Error('no source');
  return row.id;
}

beforeAll(async () => {
  t = await createTestApi({ now: () => new Date(NOW) });
  ({ spaceId, otherSpaceId, as } = await spaceWithRoles(t, 'Overview'));
  const sourceId = await source(spaceId);
  const event = (space: string, source: string, f: Fixture) => ({
    spaceId: space,
    sourceId: source,
    time: new Date(NOW - f.ago),
    receivedAt: new Date(NOW),
    ip: f.ip,
    method: 'GET',
    path: '/',
    action: f.action,
    severity: 'info' as const,
    ruleIds: [],
    tags: [],
  });
  await storeEvents(
    t.db,
    EVENTS.map((f) => event(spaceId, sourceId, f)),
  );
  // Another space's traffic in the same hours counts nowhere here.
  const otherSource = await source(otherSpaceId);
  await storeEvents(t.db, [event(otherSpaceId, otherSource, { ago: HOUR, action: 'blocked', ip: '192.0.2.99' })]);

  const alert = (status: 'open' | 'acknowledged' | 'resolved', ago: number, space = spaceId) => ({
    spaceId: space,
    ruleName: 'scanner',
    kind: 'match' as const,
    severity: 'high' as const,
    title: `scanner ${randomUUID()}`,
    status,
    firstSeen: new Date(NOW - ago),
    lastSeen: new Date(NOW - ago),
    createdAt: new Date(NOW),
    updatedAt: new Date(NOW),
  });
  await t.db
    .insert(alerts)
    .values([
      alert('open', HOUR),
      alert('acknowledged', 2 * HOUR),
      alert('resolved', 30 * HOUR),
      alert('open', 10 * DAY),
      alert('open', HOUR, otherSpaceId),
    ]);

  const [asset] = await t.db
    .insert(assets)
    .values({ spaceId, name: 'shop', kind: 'application', createdAt: new Date(NOW), updatedAt: new Date(NOW) })
    .returning();
  if (!asset) throw new Error('no asset');
  const finding = (vulnId: string, severity: string, status: string, ago: number) => ({
    spaceId,
    assetId: asset.id,
    componentKey: 'npm:lodash@4.17.20',
    ecosystem: 'npm',
    packageName: 'lodash',
    version: '4.17.20',
    vulnId,
    severity,
    status,
    firstSeen: new Date(NOW - ago),
    lastSeen: new Date(NOW - ago),
    updatedAt: new Date(NOW),
  });
  await t.db
    .insert(findings)
    .values([
      finding('GHSA-0001', 'critical', 'open', HOUR),
      finding('GHSA-0002', 'critical', 'fixed', 30 * HOUR),
      finding('GHSA-0003', 'high', 'open', HOUR),
      finding('GHSA-0004', 'critical', 'open', 10 * DAY),
    ]);
});

afterAll(async () => {
  await t?.close();
});

const summary = (query = '', cookie = as.viewer, space = spaceId) =>
  t.raw('GET', `/api/spaces/${space}/overview/summary${query}`, { cookie });

describe('the numbers, hand counted', () => {
  test('the last 24 hours against the 24 hours before', async () => {
    const res = await summary();
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toEqual({
      from: new Date(NOW - DAY).toISOString(),
      to: new Date(NOW).toISOString(),
      previousFrom: new Date(NOW - 2 * DAY).toISOString(),
      requests: { current: 4, previous: 3 },
      blocked: { current: 2, previous: 2 },
      blockRate: { current: 0.5, previous: 2 / 3 },
      clientIps: { current: 3, previous: 1 },
      openAlerts: { now: 2, new: { current: 2, previous: 1 } },
      criticalFindings: { now: 2, new: { current: 1, previous: 1 } },
    });
  });

  test('an explicit range: the last 2 hours against the 2 hours before; no requests, no rate', async () => {
    const from = new Date(NOW - 2 * HOUR).toISOString();
    const to = new Date(NOW).toISOString();
    const res = await summary(`?from=${from}&to=${to}`);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({
      requests: { current: 2, previous: 0 },
      blocked: { current: 1, previous: 0 },
      blockRate: { current: 0.5, previous: null },
      clientIps: { current: 2, previous: 0 },
      openAlerts: { now: 2, new: { current: 2, previous: 0 } },
      criticalFindings: { now: 2, new: { current: 1, previous: 0 } },
    });
  });

  test('the requests are what the event log counts over the same range', async () => {
    const from = new Date(NOW - DAY).toISOString();
    const to = new Date(NOW).toISOString();
    const facets = await t.read(
      t.api(as.viewer).spaces[':spaceId'].events.facets.$get({ param: { spaceId }, query: { from, to } }),
    );
    const res = await summary(`?from=${from}&to=${to}`);
    expect(res.json.requests.current).toBe(facets.json.total);
    const blocked = facets.json.action.find((row: { value: string }) => row.value === 'blocked');
    expect(res.json.blocked.current).toBe(blocked.count);
  });

  test('the windows do not overlap: the previous one ends 1 ms before the range starts', () => {
    expect(summaryWindows(1_000, 5_000)).toEqual({
      current: { from: 1_000, to: 5_000 },
      previous: { from: -3_000, to: 999 },
    });
  });

  test('a range that ends before it starts is refused on from', async () => {
    const res = await summary(`?from=${new Date(NOW).toISOString()}&to=${new Date(NOW - HOUR).toISOString()}`);
    expect(res.status).toBe(400);
    expect(res.json.error.fields).toHaveProperty('from');
  });
});

describe('who may ask', () => {
  test('every member reads it; a stranger gets 404; nobody signed in gets 401', async () => {
    for (const role of ['viewer', 'analyst', 'admin', 'owner'] as const)
      expect((await summary('', as[role])).status).toBe(200);
    const stranger = await summary('', as.stranger);
    expect(stranger.status).toBe(404);
    expect(stranger.text).not.toContain('Overview');
    expect((await t.raw('GET', `/api/spaces/${spaceId}/overview/summary`)).status).toBe(401);
  });
});
