/**
 * The client-address facet pruned to its heavy values (tiers.ts, `rollupFacets`) answers exactly what counting every
 * address answers: for ragged ranges (whole days, hours and raw edges), with and without the rollup key's filters,
 * whether the bound settles the top N (and the statement counting every address is skipped) or not. On PGlite here
 * and on PostgreSQL under `npm run test:api:pg`.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { parseQuery } from '../../../contract/query/parse.ts';
import { rowsOf } from '../../db/database.ts';
import { sources } from '../../db/schema/sources.ts';
import { createTestApi, type TestApi } from '../../test/harness.ts';
import { planOf } from '../../test/plans.ts';
import { completeStoredEvents } from '../../test/stored-events.ts';
import { ensurePartitions } from './partitions.ts';
import { heavyIpThreshold, rollupFacets, rollupFacetsSql } from './tiers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Off every boundary, so each range has whole days, whole hours and raw edges.
const now = new Date(Math.floor(Date.now() / HOUR) * HOUR + 41 * 60_000 + 7_321);
const firewall = randomUUID();

let t: TestApi;
let spaceId: string;

beforeAll(async () => {
  t = await createTestApi({ now: () => now });
  const { cookie } = await t.signUp('heavy@example.com');
  spaceId = (await t.read(t.api(cookie).spaces.$post({ json: { name: 'Heavy' } }))).json.id;
  const [source] = await t.db
    .insert(sources)
    .values({
      spaceId,
      name: 'waf',
      kind: 'json',
      tokenHash: randomUUID(),
      tokenPrefix: 'sgi_x',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!source) throw new Error('no source');
  await ensurePartitions(t.db, new Date(now.getTime() - 12 * DAY));
  await ensurePartitions(t.db, now);
  const insert = (select: string) =>
    t.db.execute(
      sql.raw(`insert into events (space_id, source_id, time, received_at, action, severity, ip, firewall_id)
        select '${spaceId}'::uuid, '${source.id}'::uuid, t, timestamptz '${now.toISOString()}', action, 'high', ip, fw
        from (${select}) as s(t, action, ip, fw)`),
    );
  const at = (expression: string) => `timestamptz '${now.toISOString()}' - (${expression})`;
  // Eight attackers, each blocked by the firewall 60 + 5 i times a day for 10 days (heavy day rows, distinct totals).
  await insert(`select ${at(`(d * interval '1 day') + (k * interval '13 minutes')`)}, 'blocked', '203.0.113.' || i, '${firewall}'::uuid
    from generate_series(1, 8) as i, generate_series(0, 9) as d, lateral generate_series(1, 60 + 5 * i) as k`);
  // Five scanners, 2 + i requests in each of the last 20 hours, logged without a firewall (heavy hour rows from the
  // second on; the first stays under the hour's threshold).
  await insert(`select ${at(`(h * interval '1 hour') + (k * interval '7 minutes')`)}, 'logged', '198.51.100.' || i, null::uuid
    from generate_series(1, 5) as i, generate_series(0, 19) as h, lateral generate_series(1, 2 + i) as k`);
  // One address busy in the last few minutes only: the raw edge at the range's end.
  await insert(
    `select ${at(`k * interval '20 seconds'`)}, 'allowed', '192.0.2.77', null::uuid from generate_series(1, 9) as k`,
  );
  // Three thousand one-off visitors over 10 days, and a few that come back now and then.
  await insert(`select ${at(`(v * interval '283 seconds')`)}, 'allowed', '10.' || (v / 250) || '.' || (v % 250) || '.9', null::uuid
    from generate_series(1, 3000) as v`);
  await insert(`select ${at(`(v * interval '5 hours 11 minutes')`)}, 'blocked', '172.16.0.' || (v % 6), '${firewall}'::uuid
    from generate_series(1, 45) as v`);
  await completeStoredEvents(t.db, spaceId);
  await t.db.execute(sql`analyze`);
});

afterAll(async () => {
  await t?.close();
});

const ast = (q: string) => {
  const parsed = parseQuery(q);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.ast;
};

/** A plain count of every address of the matching events in the range, ordered as the facet orders them. */
async function plainCount(q: string, from: number, to: number): Promise<Map<string, number>> {
  const filters: Record<string, string> = {
    '': '',
    'action:blocked': `and action = 'blocked'`,
    '-action:logged': `and action <> 'logged'`,
    [`firewall:${firewall}`]: `and firewall_id = '${firewall}'`,
  };
  const filter = filters[q];
  if (filter === undefined) throw new Error(`no plain count for ${q}`);
  const rows = rowsOf<{ ip: string; n: string | number }>(
    await t.db.execute(
      sql.raw(`select ip, count(*) as n from events where space_id = '${spaceId}' and ip is not null
        and time >= '${new Date(from).toISOString()}' and time <= '${new Date(to).toISOString()}' ${filter} group by ip`),
    ),
  );
  return new Map(rows.map((row) => [row.ip, Number(row.n)]));
}

const ranges = [
  { name: '7 days', from: now.getTime() - 7 * DAY, to: now.getTime() },
  { name: '24 hours', from: now.getTime() - DAY, to: now.getTime() },
  { name: '3 days ending an hour ago', from: now.getTime() - 3 * DAY - 13 * 60_000, to: now.getTime() - HOUR },
];

describe('the client-address facet pruned to its heavy values', () => {
  test.each(
    ranges.flatMap((range) =>
      ['', 'action:blocked', `firewall:${firewall}`].flatMap((q) => [3, 8, 12].map((size) => ({ range, q, size }))),
    ),
  )('$q over $range.name, top $size: the counts of a plain count', async ({ range, q, size }) => {
    const { rows } = await rollupFacets(t.db, spaceId, ast(q), range, size);
    const counts = await plainCount(q, range.from, range.to);
    const answered = rows.filter((row) => row.k === 'ip').map((row) => ({ value: String(row.v), n: Number(row.n) }));
    // The top `size` counts, each address with its own count (which of two equal counts comes first is the
    // collation's: only the counts are compared in order).
    const expected = [...counts.values()].sort((a, b) => b - a).slice(0, size);
    expect(answered.map((row) => row.n)).toEqual(expected);
    for (const row of answered) expect(counts.get(row.value), row.value).toBe(row.n);
    // The other facets come with it.
    expect(rows.find((row) => row.k === 'total')).toBeDefined();
  });

  test('the heavy addresses settle a week’s top 5 alone: no statement counts every address', async () => {
    const range = ranges[0] as (typeof ranges)[number];
    const answer = await rollupFacets(t.db, spaceId, ast(''), range, 5);
    expect(answer.ipPruned).toBe(true);
    expect(answer.rows.filter((row) => row.k === 'ip').map((row) => row.v)).toEqual([
      '203.0.113.8',
      '203.0.113.7',
      '203.0.113.6',
      '203.0.113.5',
      '203.0.113.4',
    ]);
  });

  test('when no address stands out from the bound, every address is counted', async () => {
    // Within the last hour but before the busy edge address: one-off visitors and scanners only, top 12 of them.
    const range = { from: now.getTime() - 50 * 60_000, to: now.getTime() - 4 * 60_000 };
    const answer = await rollupFacets(t.db, spaceId, ast('-action:logged'), range, 12);
    expect(answer.ipPruned).toBe(false);
    const counts = await plainCount('-action:logged', range.from, range.to);
    expect(answer.rows.filter((row) => row.k === 'ip').map((row) => Number(row.n))).toEqual(
      [...counts.values()].sort((a, b) => b - a).slice(0, 12),
    );
  });

  test('the thresholds are the partial indexes’ predicates, and a week’s candidates are read through them', async () => {
    const rows = rowsOf<{ indexname: string; indexdef: string }>(
      await t.db.execute(sql`select indexname, indexdef from pg_indexes where indexname like '%heavy_ip_idx'`),
    );
    const predicate = (name: string) => rows.find((row) => row.indexname === name)?.indexdef ?? '';
    expect(predicate('event_rollup_day_heavy_ip_idx')).toContain(`n >= ${heavyIpThreshold.day}`);
    expect(predicate('event_rollup_hour_heavy_ip_idx')).toContain(`n >= ${heavyIpThreshold.hour}`);
    const statement = rollupFacetsSql(spaceId, ast(''), ranges[0] as (typeof ranges)[number], 10, 'pruned');
    const plan = await planOf(t.db, statement, { noSeqScan: true });
    expect([...plan.indexes], plan.text).toEqual(
      expect.arrayContaining(['event_rollup_day_heavy_ip_idx', 'event_rollup_hour_heavy_ip_idx']),
    );
    expect(plan.seqScans, plan.text).toEqual([]);
  });
});
