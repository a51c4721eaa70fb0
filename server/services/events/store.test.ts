/**
 * The events store never changes an answer: every query class (the event page, the histogram, the facets) answers
 * through the API exactly what a plain scan of the stored events answers (computed here with the query language's
 * in-memory matcher), whether the rollups, the monthly partitions, the default partition or the raw edges of a
 * range answer it; after ingest (with a replayed batch that dedup skips), after rows move from the default partition
 * into a new month, and after retention has dropped a month whole and deleted the rest by chunk. On PGlite here and
 * on PostgreSQL under `npm run test:api:pg`. The planner checks after it keep each query class on its index.
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { eventActions, severities } from '../../../contract/constants/events.ts';
import type { NormalisedEvent } from '../../../contract/events.ts';
import { matchesEvent } from '../../../contract/query/match.ts';
import { parseQuery } from '../../../contract/query/parse.ts';
import { rowsOf } from '../../db/database.ts';
import { type EventRow, events } from '../../db/schema/events.ts';
import { sources } from '../../db/schema/sources.ts';
import { spaces } from '../../db/schema/spaces.ts';
import { createTestApi, type TestApi } from '../../test/harness.ts';
import { planOf } from '../../test/plans.ts';
import { storeBatch } from '../ingest/store.ts';
import { whereOf } from './filters.ts';
import { ensurePartitions, listPartitions } from './partitions.ts';
import { eventPageSelect, histogramInterval } from './search.ts';
import { rollupFacetsSql, rollupHistogram } from './tiers.ts';
import { deleteExpiredEvents } from './workers/retention-worker.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// A time that is on no boundary (minutes, seconds and milliseconds all set), so ranges counted back from it are ragged.
const now = new Date(Math.floor(Date.now() / HOUR) * HOUR + 37 * 60_000 + 13_456);
const firewalls = [randomUUID(), randomUUID()];

let t: TestApi;
let cookie: string;
let spaceId: string;

/** A small seeded generator, so a failure can be replayed. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const rand = prng(14);
const pick = <T>(values: readonly T[]): T => values[Math.floor(rand() * values.length)] as T;
const ips = ['60.16.4.1', '60.16.200.9', '203.0.113.7', '198.51.100.9', '10.1.2.3', '2001:db8::1', '2001:db8::42'];
const words = ['union select', 'etc/passwd', '<script>', 'sqlmap', 'login failed', 'Union Select'];

/** Event times: spread over 40 days back (so over two or three months), on and off every kind of boundary. */
function eventTime(i: number): Date {
  const kind = i % 7;
  if (kind === 0) return new Date(Math.floor((now.getTime() - rand() * 40 * DAY) / HOUR) * HOUR); // on an hour
  if (kind === 1) return new Date(Math.floor((now.getTime() - rand() * 40 * DAY) / DAY) * DAY); // on a day
  if (kind === 2) return new Date(now.getTime() - Math.floor(rand() * 3) * DAY); // exactly a whole day before now
  if (kind === 3) return new Date(now.getTime() - 7 * DAY + Math.floor(rand() * 3 - 1)); // around the 7-day edge
  return new Date(now.getTime() - rand() * 40 * DAY + rand() * HOUR);
}

function makeEvent(i: number): NormalisedEvent {
  const attack = rand() < 0.4;
  const rules = attack ? [pick([942100, 941100, 930100, 913100]), ...(rand() < 0.3 ? [949110, 949110] : [])] : [];
  return {
    time: eventTime(i).toISOString(),
    dedupKey: rand() < 0.8 ? `k${i}` : null,
    ip: rand() < 0.1 ? (rand() < 0.5 ? null : 'not-an-address') : pick(ips),
    country: rand() < 0.15 ? null : pick(['CN', 'US', 'DE', 'RU', 'FR']),
    method: pick(['GET', 'POST']),
    host: rand() < 0.05 ? null : pick(['shop.example.com', 'api.example.com', 'www.example.com']),
    path: pick(['/', '/login', '/search?q=1', '/../../etc/passwd', '/api/v1/items']),
    status: pick([200, 200, 403, 404, 500]),
    action: attack ? pick(['blocked', 'logged']) : pick(eventActions),
    severity: pick(severities),
    ruleIds: rules,
    tags: attack
      ? [pick(['attack-sqli', 'attack-xss', 'attack-lfi']), ...(rand() < 0.2 ? ['paranoia-level/1'] : [])]
      : [],
    message: rand() < 0.5 ? `Matched ${pick(words)}` : null,
    userAgent: rand() < 0.3 ? `curl/8 ${pick(words)}` : 'Mozilla/5.0',
    firewallId: rand() < 0.5 ? pick(firewalls) : null,
    raw: { i },
  };
}

const batches = Array.from({ length: 6 }, (_, b) => Array.from({ length: 400 }, (_, i) => makeEvent(b * 400 + i)));

beforeAll(async () => {
  t = await createTestApi({ now: () => now });
  ({ cookie } = await t.signUp('store@example.com'));
  spaceId = (await t.read(t.api(cookie).spaces.$post({ json: { name: 'Store' } }))).json.id;
  const [space] = await t.db.select().from(spaces).where(eq(spaces.id, spaceId));
  if (!space) throw new Error('no space');
  const made = await Promise.all(
    ['waf', 'logs'].map((name) =>
      t.db
        .insert(sources)
        .values({
          spaceId,
          name,
          kind: 'json',
          tokenHash: randomUUID(),
          tokenPrefix: 'sgi_x',
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    ),
  );
  const [waf, logs] = made.map((rows) => rows[0]);
  if (!waf || !logs) throw new Error('no sources');
  await ensurePartitions(t.db, now);
  const store = (valid: NormalisedEvent[], source = waf) =>
    storeBatch(t.db, { space, source, valid, errors: [], now, idempotencyKey: null });
  for (const [i, batch] of batches.slice(0, 3).entries()) await store(batch, i % 2 ? logs : waf);
  // A replayed batch: every event with a dedup key is skipped, the rest (no key) stored again.
  await store(batches[0] ?? [], waf);
  // Last month's rows sit in the default partition until a partition for their month is made: they move into it.
  await ensurePartitions(t.db, new Date(now.getTime() - 45 * DAY));
  await ensurePartitions(t.db, now);
  for (const [i, batch] of batches.slice(3).entries()) await store(batch, i % 2 ? logs : waf);
});

afterAll(async () => {
  await t?.close();
});

/** Every stored event of the space: the plain scan the answers are checked against. */
async function scan(): Promise<EventRow[]> {
  return t.db.select().from(events).where(eq(events.spaceId, spaceId));
}

type Range = { name: string; from?: number; to?: number };
const ranges = (): Range[] => [
  { name: '24 hours', from: now.getTime() - DAY, to: now.getTime() },
  { name: '7 days', from: now.getTime() - 7 * DAY, to: now.getTime() },
  { name: '30 days', from: now.getTime() - 30 * DAY, to: now.getTime() },
  // Whole days exactly, and a range inside one hour: the tiers' edges fall on the range's ends, or there are none.
  {
    name: 'whole days',
    from: Math.floor(now.getTime() / DAY) * DAY - 5 * DAY,
    to: Math.floor(now.getTime() / DAY) * DAY,
  },
  { name: 'within an hour', from: now.getTime() - 20 * 60_000, to: now.getTime() - 5 * 60_000 },
  { name: 'all time' },
];
const queries = [
  '',
  'action:blocked',
  `firewall:${firewalls[0]}`,
  `firewall:${firewalls[1]} -action:allowed`,
  `-firewall:${firewalls[0]}`,
  'tag:attack-sqli',
  'rule:949110',
  // One facet term with the rollup key: histograms of whole hours count these from the facet rollups.
  'tag:attack-sqli -action:allowed',
  `severity:>=high firewall:${firewalls[1]}`,
  'country:cn',
  'host:SHOP.example.com',
  'ip:60.16.0.0/16',
  'ip:2001:db8::/32',
  '"union select"',
  'status:403 ip:60.16.0.0/16',
];

const inRange = (row: EventRow, range: Range) =>
  (range.from === undefined || row.time.getTime() >= range.from) &&
  (range.to === undefined || row.time.getTime() <= range.to);

function matching(rows: EventRow[], q: string, range: Range): EventRow[] {
  const parsed = parseQuery(q);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return rows.filter((row) => inRange(row, range) && matchesEvent(parsed.ast, row));
}

const params = (q: string, range: Range, more: Record<string, string> = {}) => {
  const p = new URLSearchParams({ q, ...more });
  if (range.from !== undefined) p.set('from', new Date(range.from).toISOString());
  if (range.to !== undefined) p.set('to', new Date(range.to).toISOString());
  return p;
};

/** Value → count of each facet over `rows`, as the facets count: arrays once per element, nulls not at all. */
function expectedFacets(rows: EventRow[]) {
  const facets: Record<string, Map<string, number>> = {};
  const add = (facet: string, value: string | number | null) => {
    if (value === null) return;
    const counts = facets[facet] ?? new Map<string, number>();
    facets[facet] = counts;
    counts.set(String(value), (counts.get(String(value)) ?? 0) + 1);
  };
  for (const row of rows) {
    add('action', row.action);
    add('severity', row.severity);
    add('country', row.country);
    add('host', row.host);
    add('ip', row.ip);
    for (const rule of row.ruleIds) add('rule', rule);
    for (const tag of row.tags) add('tag', tag);
  }
  return facets;
}

const asMap = (values: { value: string; count: number }[]) => new Map(values.map((v) => [v.value, v.count]));

/** Checks every query class against the plain scan, for every query and range. */
async function checkAll(label: string) {
  const rows = await scan();
  expect(rows.length).toBeGreaterThan(1000);
  for (const range of ranges()) {
    for (const q of queries) {
      const expected = matching(rows, q, range);
      const what = `${label}: ${q || '(all)'} over ${range.name}`;

      // Facets: size 250 holds every value here, so each facet is compared whole.
      const facets = await t.raw('GET', `/api/spaces/${spaceId}/events/facets?${params(q, range, { size: '250' })}`, {
        cookie,
      });
      expect(facets.status, what).toBe(200);
      expect(facets.json.total, what).toBe(expected.length);
      const counts = expectedFacets(expected);
      for (const facet of ['action', 'severity', 'country', 'host', 'ip', 'rule', 'tag']) {
        expect(asMap(facets.json[facet]), `${what}: ${facet}`).toEqual(counts[facet] ?? new Map());
        const answered: number[] = facets.json[facet].map((v: { count: number }) => v.count);
        expect(answered, `${what}: ${facet} order`).toEqual([...answered].sort((a, b) => b - a));
      }
      // The top 3 have the top counts (which values win a tie is the database's collation).
      const top = await t.raw('GET', `/api/spaces/${spaceId}/events/facets?${params(q, range, { size: '3' })}`, {
        cookie,
      });
      const ipCounts = [...(counts.ip ?? new Map()).values()].sort((a, b) => b - a).slice(0, 3);
      expect(
        top.json.ip.map((v: { count: number }) => v.count),
        `${what}: top ips`,
      ).toEqual(ipCounts);

      if (range.from === undefined || range.to === undefined) continue;
      // Histogram: the round interval, buckets from a multiple of it, each counted as the scan counts it.
      for (const buckets of [60, 10]) {
        const histogram = await t.raw(
          'GET',
          `/api/spaces/${spaceId}/events/histogram?${params(q, range, { buckets: String(buckets) })}`,
          { cookie },
        );
        expect(histogram.status, what).toBe(200);
        const interval = histogramInterval((range.to - range.from) / 1000, buckets) * 1000;
        expect(histogram.json.intervalSeconds * 1000, what).toBe(interval);
        const origin = Math.floor(range.from / interval) * interval;
        const want = new Map<number, { total: number; blocked: number; logged: number }>();
        for (const row of expected) {
          const index = Math.floor((row.time.getTime() - origin) / interval);
          const slot = want.get(index) ?? { total: 0, blocked: 0, logged: 0 };
          slot.total += 1;
          if (row.action === 'blocked') slot.blocked += 1;
          if (row.action === 'logged') slot.logged += 1;
          want.set(index, slot);
        }
        const got = histogram.json.buckets as { time: string; total: number; blocked: number; logged: number }[];
        expect(got[0]?.time, what).toBe(new Date(origin).toISOString());
        for (const [index, bucket] of got.entries()) {
          expect(bucket, `${what}: histogram ${buckets}, bucket ${index}`).toEqual({
            time: new Date(origin + index * interval).toISOString(),
            ...(want.get(index) ?? { total: 0, blocked: 0, logged: 0 }),
          });
        }
        expect(
          got.reduce((sum, b) => sum + b.total, 0),
          what,
        ).toBe(expected.length);
      }

      // The page: every matching event once, newest first (then by id), following the cursor.
      if (range.name !== '7 days' && range.name !== 'within an hour') continue;
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await t.raw(
          'GET',
          `/api/spaces/${spaceId}/events?${params(q, range, { limit: '250', ...(cursor ? { cursor } : {}) })}`,
          { cookie },
        );
        expect(page.status, what).toBe(200);
        for (const item of page.json.items) ids.push(item.id);
        cursor = page.json.nextCursor;
      } while (cursor);
      const order = [...expected].sort((a, b) => b.time.getTime() - a.time.getTime() || (a.id < b.id ? 1 : -1));
      expect(ids, what).toEqual(order.map((row) => row.id));
    }
  }
}

describe('answers match a plain scan of the stored events', () => {
  test('after ingest, a replayed batch and rows moved out of the default partition', async () => {
    const partitions = await listPartitions(t.db);
    // This month, the next, and the ones the events of the last 40 days fall in.
    expect(partitions.filter((p) => p.table === 'events').length).toBeGreaterThanOrEqual(3);
    const inDefault = rowsOf<{ n: number | string }>(await t.db.execute(sql`select count(*) as n from events_default`));
    expect(Number(inDefault[0]?.n)).toBe(0);
    await checkAll('after ingest');
  });

  test('the raw record is read from its side table by the detail, never sent with a page', async () => {
    const [row] = await scan();
    if (!row) throw new Error('no event');
    const detail = await t.read(
      t.api(cookie).spaces[':spaceId'].events[':eventId'].$get({ param: { spaceId, eventId: row.id } }),
    );
    expect(detail.status).toBe(200);
    expect(typeof detail.json.raw.i).toBe('number');
    const page = await t.read(
      t.api(cookie).spaces[':spaceId'].events.$get({ param: { spaceId }, query: { limit: '5' } }),
    );
    expect(page.json.items.length).toBe(5);
    for (const item of page.json.items) expect(item).not.toHaveProperty('raw');
  });

  test('after retention drops the expired months whole and deletes the rest by chunk', async () => {
    const before = await scan();
    // The free plan keeps 7 days: cut at the start of the UTC day 7 days back.
    const cut = Math.floor((now.getTime() - 7 * DAY) / DAY) * DAY;
    const expired = before.filter((row) => row.time.getTime() < cut).length;
    expect(expired).toBeGreaterThan(0);
    // A month wholly before the cut is dropped whole (both tables); the rest is deleted by chunk.
    const wholly = (await listPartitions(t.db)).filter((p) => p.to.getTime() <= cut).map((p) => p.name);
    const result = await deleteExpiredEvents(t.db, now);
    expect(result.droppedPartitions.sort()).toEqual(wholly.sort());
    expect(result.events).toBe(expired);
    expect(result.bySpace[spaceId]).toBe(expired);
    const after = await scan();
    expect(after.length).toBe(before.length - expired);
    expect(after.every((row) => row.time.getTime() >= cut)).toBe(true);
    const rawLeft = rowsOf<{ n: number | string }>(
      await t.db.execute(sql`select count(*) as n from event_raw where space_id = ${spaceId}::uuid`),
    );
    expect(Number(rawLeft[0]?.n)).toBe(after.length);
    await checkAll('after retention');
  });
});

describe('each query class stays on its index (EXPLAIN)', () => {
  beforeAll(async () => {
    // Enough ordinary traffic in the space (after the checks above) for the planner's statistics to mean something.
    const [source] = await t.db.select().from(sources).where(eq(sources.spaceId, spaceId));
    await t.db.execute(sql`insert into events (space_id, source_id, time, received_at, action, severity, ip, message, path, host, user_agent)
      select ${spaceId}::uuid, ${source?.id}::uuid, ${now.toISOString()}::timestamptz - i * interval '7 seconds',
        ${now.toISOString()}::timestamptz, 'allowed', 'info', '192.0.2.' || (i % 250), 'ok', '/p/' || (i % 500), 'www.example.com', 'Mozilla/5.0'
      from generate_series(1, 40000) as i`);
    await t.db.execute(sql`analyze events`);
  });

  const pagePlan = (q: string) =>
    planOf(
      t.db,
      eventPageSelect(t.db, spaceId, { q, limit: 100, from: new Date(now.getTime() - 7 * DAY).toISOString() }),
      {
        noSeqScan: true,
      },
    );
  const parsed = (q: string) => {
    const result = parseQuery(q);
    if (!result.ok) throw new Error(result.error.message);
    return result.ast;
  };

  test('the page, unfiltered: the time index in page order, no sort', async () => {
    const plan = await pagePlan('');
    expect([...plan.indexes], plan.text).toContain('events_space_time_id_idx');
    expect(plan.nodes, plan.text).not.toContain('Sort');
  });

  // What a filtered histogram, facet or export count reads: the matching events, in no order (over all time, so the
  // time index, which a small test table makes as cheap, is no way round the filter's own index).
  test.each([
    ['ip:60.16.0.0/16', 'events_space_ip_idx'],
    ['tag:attack-sqli', 'events_tags_idx'],
    ['rule:942100', 'events_rule_ids_idx'],
    // A rare word (a common one is read off the time index, as it should be).
    ['"xp_cmdshell"', 'events_text_idx'],
  ])('the events matching %s are found with %s', async (q, index) => {
    const where = whereOf(spaceId, { q });
    const statement = t.db
      .select({ n: count() })
      .from(events)
      .where(and(...where));
    const plan = await planOf(t.db, statement, { noSeqScan: true });
    expect([...plan.indexes], plan.text).toContain(index);
  });

  test('facets of an unfiltered range read the day and hour rollups by key, and the edges off the time index', async () => {
    const statement = rollupFacetsSql(spaceId, parsed(''), { from: now.getTime() - 7 * DAY, to: now.getTime() }, 10);
    const plan = await planOf(t.db, statement, { noSeqScan: true });
    expect([...plan.indexes], plan.text).toEqual(
      expect.arrayContaining(['event_rollup_day_key', 'event_rollup_hour_key', 'events_space_time_id_idx']),
    );
    expect(plan.seqScans, plan.text).toEqual([]);
  });

  test('a histogram of a tag by whole hours reads the hour rollup by key', async () => {
    const from = now.getTime() - 7 * DAY;
    const statement = rollupHistogram(
      spaceId,
      parsed('tag:attack-sqli'),
      { from, to: now.getTime() },
      { tier: 'hour', origin: Math.floor(from / 10_800_000) * 10_800_000, intervalSeconds: 10_800 },
    );
    if (!statement) throw new Error('a tag histogram by hours is counted from the rollups');
    const plan = await planOf(t.db, statement, { noSeqScan: true });
    expect([...plan.indexes], plan.text).toContain('event_rollup_hour_key');
    expect(plan.seqScans, plan.text).toEqual([]);
  });

  test('a histogram by minutes reads the minute rollup by key', async () => {
    const from = now.getTime() - DAY;
    const statement = rollupHistogram(
      spaceId,
      parsed('action:blocked'),
      { from, to: now.getTime() },
      { tier: 'minute', origin: Math.floor(from / 1_800_000) * 1_800_000, intervalSeconds: 1800 },
    );
    if (!statement) throw new Error('an action histogram by minutes is counted from the rollups');
    const plan = await planOf(t.db, statement, { noSeqScan: true });
    expect([...plan.indexes], plan.text).toContain('event_rollup_minute_key');
    expect(plan.seqScans, plan.text).toEqual([]);
  });
});
