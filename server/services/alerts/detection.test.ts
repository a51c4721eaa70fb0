/**
 * Detection end to end inside the API: rules made through the API, events through the real ingest path, the real
 * alert workers run by a job runner. Each test has its own space.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { CreateAlertRuleBody } from '../../../contract/alert-rules.ts';
import { alerts } from '../../db/schema/alerts.ts';
import { jobs } from '../../db/schema/jobs.ts';
import { runAlertJobs } from '../../test/alerts.ts';
import { anotherHandle, BASE, createTestApi, type TestApi } from '../../test/harness.ts';
import { testClock } from '../../test/jobs.ts';
import { runUntilIdle } from '../../test/run-jobs.ts';
import { enqueue } from '../jobs/enqueue.ts';
import { evaluateWorker } from './workers/evaluate-worker.ts';
import { matchWorker } from './workers/match-worker.ts';
import { scheduleWorker } from './workers/schedule-worker.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let t: TestApi;
let cookie: string;
// One clock for the API (arrival times) and the job runners, moved by the tests.
const clock = testClock('2026-11-23T12:00:00Z');

beforeAll(async () => {
  t = await createTestApi({ now: clock.now });
  cookie = (await t.signUp('detect@example.com', 'Dana Detect')).cookie;
});
afterAll(async () => {
  await t.close();
});

/** A fresh space with a JSON source. */
async function newSpace() {
  const space = await t.read(t.api(cookie).spaces.$post({ json: { name: `D-${Math.random()}` } }));
  const source = await t.read(
    t
      .api(cookie)
      .spaces[':spaceId'].sources.$post({ param: { spaceId: space.json.id }, json: { name: 'edge', kind: 'json' } }),
  );
  return { spaceId: space.json.id as string, sourceId: source.json.id as string, token: source.json.token as string };
}

/** Sends generic events through the ingest path, as a shipper does. */
async function ingest(token: string, records: object[]) {
  const res = await t.app.request(`${BASE}/api/ingest/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: records.map((r) => JSON.stringify(r)).join('\n'),
  });
  expect(res.status).toBe(200);
}

/** `n` SQL injection attempts from `ip`, a second apart, ending now. */
function attacks(ip: string, n: number, extra: object = {}) {
  const now = clock.now().getTime();
  return Array.from({ length: n }, (_, i) => ({
    time: new Date(now - (n - i) * 1_000).toISOString(),
    ip,
    method: 'GET',
    path: `/search?q=${i}`,
    action: 'blocked',
    severity: 'critical',
    ruleIds: [942100],
    tags: ['attack-sqli'],
    message: 'SQL Injection Attack Detected via libinjection',
    ...extra,
  }));
}

/** Moves the clock by `ms` and runs the alert jobs then due. */
async function later(ms: number) {
  clock.advance(ms);
  await runAlertJobs(t.db, { now: clock.now });
}

async function alertsOf(spaceId: string) {
  const res = await t.read(t.api(cookie).spaces[':spaceId'].alerts.$get({ param: { spaceId }, query: {} }));
  expect(res.status).toBe(200);
  return res.json as { items: Array<Record<string, unknown>>; counts: Record<string, number> };
}

async function createRule(spaceId: string, json: CreateAlertRuleBody) {
  const res = await t.read(t.api(cookie).spaces[':spaceId']['alert-rules'].$post({ param: { spaceId }, json }));
  expect(res.status, res.text).toBe(201);
  return res.json as { id: string };
}

describe('match rules', () => {
  test('matching events open one alert per group on ingest, and later events add to it', async () => {
    const { spaceId, token } = await newSpace();
    await createRule(spaceId, {
      name: 'SQL injection',
      severity: 'high',
      kind: 'match',
      query: 'tag:attack-sqli',
      groupBy: ['ip'],
      titleTemplate: 'SQL injection from {ip}',
    });
    await ingest(token, [
      ...attacks('198.51.100.7', 3),
      ...attacks('203.0.113.9', 2),
      { time: new Date().toISOString(), path: '/' },
    ]);
    await later(1_000);
    let list = await alertsOf(spaceId);
    expect(list.items.map((a) => [a.title, a.count]).sort()).toEqual([
      ['SQL injection from 198.51.100.7', 3],
      ['SQL injection from 203.0.113.9', 2],
    ]);
    expect(list.counts.high).toBe(2);

    await ingest(token, attacks('198.51.100.7', 4));
    await later(1_000);
    list = await alertsOf(spaceId);
    expect(list.items).toHaveLength(2);
    const first = list.items.find((a) => a.title === 'SQL injection from 198.51.100.7');
    expect(first?.count).toBe(7);

    const detail = await t.read(
      t.api(cookie).spaces[':spaceId'].alerts[':id'].$get({ param: { spaceId, id: String(first?.id) } }),
    );
    expect(detail.json.events).toHaveLength(7);
    expect(detail.json.events.every((e: { ip: string }) => e.ip === '198.51.100.7')).toBe(true);
    expect(detail.json.timeline.map((e: { decision: string }) => e.decision)).toEqual(['opened']);
    expect(detail.json.eventQuery).toBe('(tag:attack-sqli) ip:198.51.100.7');
  });

  test('a record sent twice (same dedup id) is counted once', async () => {
    const { spaceId, token } = await newSpace();
    await createRule(spaceId, { name: 'Any block', severity: 'low', kind: 'match', query: 'action:blocked' });
    const batch = attacks('198.51.100.20', 2).map((a, i) => ({ ...a, id: `evt-${i}` }));
    await ingest(token, batch);
    await ingest(token, batch);
    await later(1_000);
    const list = await alertsOf(spaceId);
    expect(list.items.map((a) => a.count)).toEqual([2]);
  });

  test('a disabled rule fires nothing', async () => {
    const { spaceId, token } = await newSpace();
    await createRule(spaceId, { name: 'Off', severity: 'low', kind: 'match', query: '', enabled: false });
    await ingest(token, attacks('198.51.100.30', 2));
    await later(1_000);
    expect((await alertsOf(spaceId)).items).toEqual([]);
  });
});

describe('threshold rules', () => {
  const rule = {
    name: 'SQLi burst',
    severity: 'critical',
    kind: 'threshold',
    query: 'tag:attack-sqli',
    threshold: 5,
    windowMinutes: 5,
    groupBy: ['ip'],
  } satisfies CreateAlertRuleBody;

  test('more than 5 in 5 minutes opens one alert per attacking IP, and more events do not open a second', async () => {
    const { spaceId, token } = await newSpace();
    await createRule(spaceId, rule);
    await ingest(token, [...attacks('198.51.100.7', 6), ...attacks('203.0.113.9', 6), ...attacks('192.0.2.1', 5)]);
    await later(15_000);
    let list = await alertsOf(spaceId);
    const byIp = (items: Array<Record<string, unknown>>) =>
      items
        .map((a) => [(a.group as { ip: string }).ip, a.count])
        .sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    expect(byIp(list.items)).toEqual([
      ['198.51.100.7', 6],
      ['203.0.113.9', 6],
    ]);

    await ingest(token, attacks('198.51.100.7', 3));
    await later(15_000);
    list = await alertsOf(spaceId);
    expect(list.items).toHaveLength(2);
    expect(list.items.find((a) => (a.group as { ip: string }).ip === '198.51.100.7')?.count).toBe(9);
  });

  test('an evaluation at a moment between the times of one arrival counts both of its events, once', async () => {
    const { spaceId, token } = await newSpace();
    const { id: ruleId } = await createRule(spaceId, rule);
    await ingest(token, attacks('198.51.100.70', 6));
    await later(15_000);
    clock.advance(5_000);
    // Two more events arrive together: one before the moment a scheduled evaluation looks at, one after it.
    const at = clock.now();
    await ingest(token, [
      { ...attacks('198.51.100.70', 1)[0], time: new Date(at.getTime() - 1_000).toISOString() },
      { ...attacks('198.51.100.70', 1)[0], time: new Date(at.getTime() + 20_000).toISOString() },
    ]);
    await enqueue(t.db, evaluateWorker, { ruleId, at: at.toISOString() }, { now: at });
    await runAlertJobs(t.db, { now: clock.now });
    await later(60_000);
    const list = await alertsOf(spaceId);
    expect(list.items.map((a) => a.count)).toEqual([8]);
  });

  test('a suppressed group does not alert again until the suppression is removed', async () => {
    const { spaceId, token } = await newSpace();
    const { id: ruleId } = await createRule(spaceId, {
      ...rule,
      kind: 'match',
      threshold: undefined,
      windowMinutes: undefined,
    });
    await ingest(token, attacks('198.51.100.8', 1));
    await later(1_000);
    const [alert] = (await alertsOf(spaceId)).items;
    const suppressed = await t.read(
      t.api(cookie).spaces[':spaceId'].alerts[':id'].suppress.$post({
        param: { spaceId, id: String(alert?.id) },
        json: { days: 7, reason: 'Our own scanner' },
      }),
    );
    expect(suppressed.status).toBe(201);
    await ingest(token, attacks('198.51.100.8', 2));
    await later(1_000);
    expect((await alertsOf(spaceId)).items.map((a) => a.count)).toEqual([1]);

    const listed = await t.read(
      t.api(cookie).spaces[':spaceId']['alert-rules'][':id'].suppressions.$get({ param: { spaceId, id: ruleId } }),
    );
    expect(listed.json.items.map((s: { reason: string }) => s.reason)).toEqual(['Our own scanner']);
    const removed = await t.read(
      t.api(cookie).spaces[':spaceId']['alert-rules'][':id'].suppressions[':suppressionId'].$delete({
        param: { spaceId, id: ruleId, suppressionId: suppressed.json.id },
      }),
    );
    expect(removed.status).toBe(200);
    await ingest(token, attacks('198.51.100.8', 2));
    await later(1_000);
    expect((await alertsOf(spaceId)).items.map((a) => a.count)).toEqual([3]);
    const timeline = await t.read(
      t.api(cookie).spaces[':spaceId'].alerts[':id'].$get({ param: { spaceId, id: String(alert?.id) } }),
    );
    expect(timeline.json.timeline.map((e: { decision: string }) => e.decision)).toEqual(['opened', 'suppressed']);
  });

  test('two runners on one database evaluate each rule window once', async () => {
    const { spaceId, token } = await newSpace();
    const { id: ruleId } = await createRule(spaceId, rule);
    await ingest(token, attacks('198.51.100.50', 8));
    const other = await anotherHandle(t.database);
    clock.advance(70_000);
    try {
      await runUntilIdle([t.db, other.db], [matchWorker, evaluateWorker, scheduleWorker], { now: clock.now });
    } finally {
      await other.close();
    }
    const evaluations = await t.db
      .select({ key: jobs.uniqueKey, lockedBy: jobs.lockedBy, state: jobs.state })
      .from(jobs)
      .where(and(eq(jobs.kind, 'alerts.evaluate'), eq(jobs.spaceId, spaceId)));
    const keys = evaluations.map((e) => e.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(evaluations.every((e) => e.state === 'completed')).toBe(true);
    const rows = await t.db.select().from(alerts).where(eq(alerts.ruleId, ruleId));
    expect(rows.map((r) => r.count)).toEqual([8]);
  });
});

describe('silence rules', () => {
  test('a source that stops sending opens an alert, which resolves itself when events come back', async () => {
    const { spaceId, sourceId, token } = await newSpace();
    await ingest(token, [{ time: clock.now().toISOString(), path: '/' }]);
    await createRule(spaceId, {
      name: 'Edge went quiet',
      severity: 'medium',
      kind: 'silence',
      sourceId,
      windowMinutes: 5,
    });
    await later(2 * 60_000);
    expect((await alertsOf(spaceId)).items).toEqual([]);

    await later(4 * 60_000);
    let [alert] = (await alertsOf(spaceId)).items;
    expect(alert?.title).toBe('No events from edge for 5 minutes');
    expect(alert?.status).toBe('open');

    // Still silent a minute on: the same alert, not a second one.
    await later(60_000);
    expect((await alertsOf(spaceId)).items).toHaveLength(1);
    await ingest(token, [{ time: clock.now().toISOString(), path: '/' }]);
    await later(60_000);
    [alert] = (await alertsOf(spaceId)).items;
    expect(alert?.status).toBe('resolved');
    const detail = await t.read(
      t.api(cookie).spaces[':spaceId'].alerts[':id'].$get({ param: { spaceId, id: String(alert?.id) } }),
    );
    const resolved = detail.json.timeline.find((e: { decision: string }) => e.decision === 'resolved');
    expect(resolved.actor.name).toBe('Spaceguard');
    expect(resolved.reason).toMatch(/^Events arrived again/);
  });
});

describe('timed work', () => {
  test('a snooze that runs out returns the alert to open; a quiet alert auto-resolves', async () => {
    const { spaceId, token } = await newSpace();
    await createRule(spaceId, {
      name: 'Blocks',
      severity: 'low',
      kind: 'match',
      query: 'action:blocked',
      autoResolveMinutes: 30,
    });
    await ingest(token, attacks('198.51.100.60', 1));
    await later(1_000);
    const [alert] = (await alertsOf(spaceId)).items;
    const snoozed = await t.read(
      t.api(cookie).spaces[':spaceId'].alerts[':id'].$patch({
        param: { spaceId, id: String(alert?.id) },
        json: {
          snoozedUntil: new Date(clock.now().getTime() + 10 * 60_000).toISOString(),
          reason: 'Deploy in progress',
        },
      }),
    );
    expect(snoozed.json.status).toBe('acknowledged');
    await later(11 * 60_000);
    let [after] = (await alertsOf(spaceId)).items;
    expect(after?.status).toBe('open');
    expect(after?.snoozedUntil).toBeNull();

    await later(31 * 60_000);
    [after] = (await alertsOf(spaceId)).items;
    expect(after?.status).toBe('resolved');
    const detail = await t.read(
      t.api(cookie).spaces[':spaceId'].alerts[':id'].$get({ param: { spaceId, id: String(alert?.id) } }),
    );
    expect(detail.json.timeline.map((e: { decision: string }) => e.decision)).toEqual([
      'opened',
      'acknowledged',
      'snoozed',
      'snooze_ended',
      'resolved',
    ]);
  });
});
