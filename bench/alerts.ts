/**
 * Detection (alert rules) on PostgreSQL, two parts, each in a database of its own (created and dropped).
 *
 * 1. The ingest cost of rules: NDJSON batches of 1 000 demo ModSecurity records (server/demo/traffic.ts) through the
 *    real ingest path in this process (`receiveForSource`: the parser, `storeBatch` with `rulesForIngest`,
 *    `matchBatch` and `enqueueDetection`), one after the other, with no rule enabled, with 20 match rules enabled and
 *    with 20 threshold rules enabled. The configurations take turns in rounds (the rules' `enabled` switched in the
 *    database between blocks, the order rotated each round), so the machine's noise falls on all of them alike;
 *    events/s is the median over the rounds. Then the `alerts.match` jobs the match batches enqueued are run by a
 *    job runner of the match worker, timed.
 * 2. Evaluation at 1 000 000 events: 7 days of demo traffic COPY'd as the event log bench loads it (arrival a few
 *    seconds after each event's time), rollups rebuilt, VACUUM ANALYZE; then one `alerts.evaluate` job per
 *    evaluation (claimed and completed by a job runner) for four threshold rules and a silence rule, minute after
 *    minute inside the data's span, the catch-up of 60 missed minutes, and the rule preview over 24 h.
 *
 * `node bench/run.ts alerts` prints the markdown section. BENCH_ALERTS_ROUNDS, BENCH_ALERTS_BATCHES (batches per
 * configuration and round), BENCH_ALERTS_EVENTS (the evaluation part's events) change the sizes. Nothing here is
 * asserted by tests.
 */
import { performance } from 'node:perf_hooks';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { AlertGroupField } from '../contract/alert-rules.ts';
import { AlertRulePreviewBody } from '../contract/alert-rules.ts';
import { buildDeps } from '../server/build-deps.ts';
import type { SpaceCaller } from '../server/caller.ts';
import { type Database, type Db, openDatabase, rowsOf } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { alertRules, alerts } from '../server/db/schema/alerts.ts';
import { jobs } from '../server/db/schema/jobs.ts';
import { sources } from '../server/db/schema/sources.ts';
import { spaces } from '../server/db/schema/spaces.ts';
import { users } from '../server/db/schema/users.ts';
import { createTraffic } from '../server/demo/traffic.ts';
import type { AppDeps } from '../server/deps.ts';
import { previewRule } from '../server/services/alerts/rules/preview.ts';
import { evaluateWorker } from '../server/services/alerts/workers/evaluate-worker.ts';
import { matchWorker } from '../server/services/alerts/workers/match-worker.ts';
import { ensurePartitions } from '../server/services/events/partitions.ts';
import { rebuildRollups } from '../server/services/events/rollups.ts';
import { receiveForSource } from '../server/services/ingest/receive.ts';
import { enqueue } from '../server/services/jobs/enqueue.ts';
import { JobRunner } from '../server/services/jobs/runner.ts';
import { type Logger, silentLogger } from '../server/services/shared/logger.ts';
import { chunks, prepare } from './events-query.ts';
import { type CopyCsv, copyEventsWithPsql } from './lib/copy-events.ts';
import { postgresDatabase } from './lib/databases.ts';
import { count, loadAverage, ms, table } from './lib/format.ts';
import { median, p50p95 } from './lib/stats.ts';
import { sampleLatency, timed } from './lib/timing.ts';

const BATCH = 1000;
/** Rounds of one batch per configuration: the finest interleaving, as the machine's load changes from second to second. */
const ROUNDS = Number(process.env.BENCH_ALERTS_ROUNDS ?? 40);
const BATCHES_PER_ROUND = Number(process.env.BENCH_ALERTS_BATCHES ?? 1);
const EVENTS = Number(process.env.BENCH_ALERTS_EVENTS ?? 1_000_000);
const EVALUATIONS = 10;
const CATCH_UPS = 3;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Seconds between an event's time and its arrival in the loaded data (ingest stamps arrival; COPY does not). */
const ARRIVAL_DELAY_MS = 5_000;

const progress = (what: string) => console.error(`[alerts] ${what}`);

/** The 20 queries of the ingest part, as a security team writes them, with the grouping each match rule uses. */
const RULES: { query: string; groupBy: AlertGroupField[] }[] = [
  { query: 'tag:attack-sqli', groupBy: ['ip'] },
  { query: 'tag:attack-xss', groupBy: ['ip'] },
  { query: 'tag:attack-lfi', groupBy: ['ip'] },
  { query: 'tag:attack-rce OR tag:attack-injection-php', groupBy: ['ip'] },
  { query: 'tag:attack-reputation-scanner', groupBy: [] },
  { query: 'rule:942000..942999', groupBy: ['ip', 'rule'] },
  { query: 'rule:941000..941999', groupBy: [] },
  { query: 'severity:>=high action:blocked', groupBy: ['ip'] },
  { query: 'severity:critical', groupBy: [] },
  { query: 'ip:10.0.0.0/8', groupBy: [] },
  { query: 'ip:60.16.0.0/16 OR ip:77.34.0.0/16', groupBy: ['ip'] },
  { query: 'status:>=500', groupBy: ['host'] },
  { query: 'method:POST path:/login', groupBy: ['ip'] },
  { query: 'path:/admin* -status:404', groupBy: ['ip'] },
  { query: 'sqlmap', groupBy: ['ip'] },
  { query: 'ua:curl', groupBy: [] },
  { query: 'ua:nikto OR ua:masscan OR ua:wpscan', groupBy: ['ip'] },
  { query: 'country:CN OR country:RU', groupBy: ['country'] },
  { query: '"sql injection"', groupBy: [] },
  { query: 'action:blocked -country:US host:api.shop.example.com', groupBy: ['ip'] },
];

type Config = 'none' | 'match' | 'threshold';
const CONFIGS: readonly Config[] = ['none', 'match', 'threshold'];
const CONFIG_LABEL: Record<Config, string> = {
  none: '(a) no rule enabled',
  match: '(b) 20 match rules',
  threshold: '(c) 20 threshold rules',
};

type Fixture = { space: typeof spaces.$inferSelect; source: typeof sources.$inferSelect; userId: string };

/** A migrated database with one space (business plan), its source and owner, as the event log bench makes them. */
async function fixture(database: Database): Promise<Fixture> {
  await migrate(database);
  const { spaceId, sourceId } = await prepare(database.db);
  const [space] = await database.db.select().from(spaces).where(eq(spaces.id, spaceId));
  const [source] = await database.db.select().from(sources).where(eq(sources.id, sourceId));
  const [user] = await database.db.select({ id: users.id }).from(users);
  if (!space || !source || !user) throw new Error('bench alerts: the space was not made');
  return { space, source, userId: user.id };
}

/** Runs `work` on a fresh database `name` holding the fixture; closes and drops it after. */
async function inDatabase<T>(
  name: string,
  work: (opened: Database, fixture: Fixture, url: string) => Promise<T>,
): Promise<T> {
  const database = await postgresDatabase(name);
  let opened: Database | undefined;
  try {
    opened = await openDatabase({ url: database.url });
    return await work(opened, await fixture(opened), database.url);
  } finally {
    await opened?.close();
    await database.drop();
  }
}

const countOf = async (db: Db, query: SQL): Promise<number> =>
  Number(rowsOf<{ n: number | string }>(await db.execute(query))[0]?.n ?? 0);

/**
 * Runs the jobs of `kind` with `runner` until none is left to run (waiting for the retries of failed attempts);
 * answers the attempts started.
 */
async function drain(db: Db, runner: JobRunner, kind: string): Promise<number> {
  let ran = 0;
  for (;;) {
    const started = await runner.runOnce();
    ran += started;
    if (started > 0) continue;
    const left = await countOf(
      db,
      sql`select count(*) as n from ${jobs} where ${jobs.kind} = ${kind} and ${jobs.state} in ('available', 'retryable', 'executing')`,
    );
    if (left === 0) return ran;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

type IngestResult = {
  rates: Record<Config, number[]>;
  batchMs: Record<Config, number[]>;
  match: {
    jobs: number;
    attempts: number;
    failures: string[];
    seconds: number;
    alerts: number;
    firings: number;
    kept: number;
  };
  evaluateJobs: number;
  load: string;
};

/** Part 1: events/s of sequential batches per configuration, then the match jobs. */
async function ingestCost(): Promise<IngestResult> {
  return inDatabase('sg_bench_alerts_ingest', async (opened, { space, source }) => {
    const { db } = opened;
    const now = new Date();
    await ensurePartitions(db, new Date(now.getTime() - DAY));
    await ensurePartitions(db, now);
    await db.insert(alertRules).values(
      RULES.flatMap(({ query, groupBy }, i) => [
        {
          spaceId: space.id,
          name: `match ${i}: ${query}`,
          enabled: false,
          severity: 'high' as const,
          kind: 'match' as const,
          query,
          groupBy,
          createdAt: now,
          updatedAt: now,
        },
        {
          spaceId: space.id,
          name: `threshold ${i}: ${query}`,
          enabled: false,
          severity: 'high' as const,
          kind: 'threshold' as const,
          query,
          groupBy,
          threshold: 20,
          windowMinutes: 5,
          createdAt: now,
          updatedAt: now,
        },
      ]),
    );
    const deps = buildDeps({ db, log: silentLogger });
    const traffic = createTraffic(7);
    // One block: the batches of one configuration in one round, records over the last 24 h, oldest first.
    const block = () => {
      const records = traffic.between(new Date(now.getTime() - DAY), now, BATCH * BATCHES_PER_ROUND);
      const bodies: string[] = [];
      for (let i = 0; i < records.length; i += BATCH)
        bodies.push(
          records
            .slice(i, i + BATCH)
            .map((r) => JSON.stringify(r))
            .join('\n'),
        );
      return bodies;
    };
    const run = async (config: Config): Promise<number[]> => {
      await db.execute(sql`update alert_rules set enabled = (kind = ${config})`);
      const bodies = block();
      const times: number[] = [];
      for (const body of bodies) {
        const t0 = performance.now();
        const stored = await receiveForSource(deps, { space, source }, body, null);
        times.push(performance.now() - t0);
        if (stored.status !== 200 || stored.answer.accepted !== BATCH)
          throw new Error(`bench alerts: a batch was not stored whole: ${JSON.stringify(stored.answer).slice(0, 300)}`);
      }
      return times;
    };
    const rates: Record<Config, number[]> = { none: [], match: [], threshold: [] };
    const batchMs: Record<Config, number[]> = { none: [], match: [], threshold: [] };
    for (const config of CONFIGS) await run(config); // warm-up, untimed
    const load = loadAverage();
    for (let round = 0; round < ROUNDS; round++) {
      // Rotated each round (abc, bca, cab, …) so no configuration always runs first or after the same one.
      const order = CONFIGS.map((_, i) => CONFIGS[(i + round) % CONFIGS.length] as Config);
      for (const config of order) {
        const times = await run(config);
        const seconds = times.reduce((a, b) => a + b, 0) / 1000;
        rates[config].push((times.length * BATCH) / seconds);
        batchMs[config].push(...times);
      }
      if ((round + 1) % 5 === 0)
        progress(
          `ingest round ${round + 1}/${ROUNDS}: ${CONFIGS.map((c) => `${c} ${count(rates[c].at(-1) ?? 0)} events/s`).join(', ')}`,
        );
    }
    const pending = await countOf(
      db,
      sql`select count(*) as n from ${jobs} where ${jobs.kind} = ${matchWorker.kind} and ${jobs.state} = 'available'`,
    );
    const evaluateJobs = await countOf(
      db,
      sql`select count(*) as n from ${jobs} where ${jobs.kind} = ${evaluateWorker.kind}`,
    );
    // The alerts the match batches found, written by the match worker after the timing (evaluate jobs left alone).
    await db.execute(sql`update alert_rules set enabled = (kind = 'match')`);
    const failures: string[] = [];
    const log: Logger = (entry) => {
      if (entry.level !== 'info' && typeof entry.error === 'string') failures.push(entry.error);
    };
    const runner = new JobRunner({ db, workers: [matchWorker], log, deps });
    const { seconds, result: attempts } = await timed(() => drain(db, runner, matchWorker.kind));
    await runner.stop(1_000);
    const completed = await countOf(
      db,
      sql`select count(*) as n from ${jobs} where ${jobs.kind} = ${matchWorker.kind} and ${jobs.state} = 'completed'`,
    );
    if (completed !== pending) throw new Error(`bench alerts: ${completed} of ${pending} match jobs completed`);
    const [written] = rowsOf<{ alerts: number; firings: string; kept: string }>(
      await db.execute(
        sql`select count(*)::int as alerts, coalesce(sum(count), 0)::text as firings, coalesce(sum(kept), 0)::text as kept from ${alerts}`,
      ),
    );
    progress(
      `match jobs: ${completed} (${attempts} attempts; failed: ${failures.join(' | ').slice(0, 500)}) in ${seconds.toFixed(1)} s, ${written?.alerts ?? 0} alerts`,
    );
    return {
      rates,
      batchMs,
      match: {
        jobs: completed,
        attempts,
        failures: [...new Set(failures.map((f) => f.split('\n')[0] ?? f))],
        seconds,
        alerts: written?.alerts ?? 0,
        firings: Number(written?.firings ?? 0),
        kept: Number(written?.kept ?? 0),
      },
      evaluateJobs,
      load,
    };
  });
}

/** The chunks with each event's arrival a few seconds after its time (the loader stamps one arrival for all). */
function* arriving(csv: Iterable<CopyCsv>): Generator<CopyCsv> {
  // events: space_id, time, id, source_id, received_at, … (bench/lib/copy-events.ts); none of the first five is quoted.
  const line = /^([^,\n]*,)([^,\n]*)(,[^,\n]*,[^,\n]*,)[^,\n]*/gm;
  for (const chunk of csv) {
    yield {
      ...chunk,
      events: chunk.events.replace(
        line,
        (_m, head: string, time: string, middle: string) =>
          `${head}${time}${middle}${new Date(Date.parse(time) + ARRIVAL_DELAY_MS).toISOString()}`,
      ),
    };
  }
}

type Evaluation = {
  name: string;
  first: number;
  p50: number;
  p95: number;
  runs: number;
  catchUp: number[];
  alerts: number;
};
type Preview = { name: string; what: string; p50: number; p95: number; runs: number };
type EvaluationResult = {
  fill: { copy: number; rollups: number; vacuum: number };
  at: Date;
  evaluations: Evaluation[];
  previews: Preview[];
  load: string;
};

/** The threshold rules evaluated at 1 M events. */
const THRESHOLDS: { query: string; threshold: number; windowMinutes: number; groupBy: AlertGroupField[] }[] = [
  { query: 'tag:attack-sqli', threshold: 5, windowMinutes: 5, groupBy: ['ip'] },
  { query: 'action:blocked', threshold: 50, windowMinutes: 5, groupBy: ['ip'] },
  { query: 'severity:>=high', threshold: 100, windowMinutes: 15, groupBy: [] },
  { query: 'rule:942000..942999', threshold: 10, windowMinutes: 60, groupBy: ['ip', 'rule'] },
];

/** One `alerts.evaluate` job of `ruleId` at `at`, after the rule's last evaluation was moved to `from`; answers ms. */
async function evaluateOnce(db: Db, runner: JobRunner, ruleId: string, spaceId: string, from: Date, at: Date) {
  await db.update(alertRules).set({ evaluatedUntil: from }).where(eq(alertRules.id, ruleId));
  // The runner works in real time: the job is due at once.
  await enqueue(db, evaluateWorker, { ruleId, at: at.toISOString() }, { now: new Date(), spaceId });
  const t0 = performance.now();
  const started = await runner.runOnce();
  const took = performance.now() - t0;
  const [rule] = await db
    .select({ until: alertRules.evaluatedUntil })
    .from(alertRules)
    .where(eq(alertRules.id, ruleId));
  if (started !== 1 || rule?.until?.getTime() !== at.getTime())
    throw new Error(`bench alerts: the evaluation of ${ruleId} at ${at.toISOString()} did not complete`);
  return took;
}

/** Part 2: evaluations and previews over EVENTS events. */
async function evaluationCost(): Promise<EvaluationResult> {
  return inDatabase('sg_bench_alerts_eval', async (opened, { space, source, userId }, url) => {
    const { db } = opened;
    const now = new Date();
    await ensurePartitions(db, new Date(now.getTime() - 7 * DAY));
    await ensurePartitions(db, now);
    progress(`filling ${count(EVENTS)} events`);
    const { seconds: copy } = await timed(() =>
      copyEventsWithPsql(url, arriving(chunks(EVENTS, space.id, source.id, now))),
    );
    progress(`COPY ${Math.round(copy)} s`);
    const { seconds: rollups } = await timed(() => rebuildRollups(db));
    const { seconds: vacuum } = await timed(() =>
      db.execute(sql.raw('vacuum analyze events, event_raw, event_rollup_minute, event_rollup_hour, event_rollup_day')),
    );
    progress(`rollups ${Math.round(rollups)} s, vacuum analyze ${Math.round(vacuum)} s`);
    // The afternoon peak (15:00 UTC) of the day before the load's end: inside the data, with the busiest traffic.
    const at = new Date(Math.floor((now.getTime() - DAY) / DAY) * DAY + 15 * HOUR);
    const rules = await db
      .insert(alertRules)
      .values([
        ...THRESHOLDS.map((t, i) => ({
          spaceId: space.id,
          name: `threshold ${i}`,
          severity: 'high' as const,
          kind: 'threshold' as const,
          ...t,
          createdAt: now,
          updatedAt: now,
        })),
        {
          spaceId: space.id,
          name: 'silence',
          severity: 'medium' as const,
          kind: 'silence' as const,
          sourceId: source.id,
          windowMinutes: 15,
          createdAt: now,
          updatedAt: now,
        },
      ])
      .returning();
    const deps: AppDeps = buildDeps({ db, log: silentLogger });
    const runner = new JobRunner({ db, workers: [evaluateWorker], log: silentLogger, deps });
    const load = loadAverage();
    const evaluations: Evaluation[] = [];
    for (const rule of rules) {
      const name =
        rule.kind === 'silence'
          ? `silence: nothing from the source for ${rule.windowMinutes} min`
          : `\`${rule.query}\` > ${rule.threshold} in ${rule.windowMinutes} min${rule.groupBy.length ? ` by ${rule.groupBy.join(',')}` : ', no group'}`;
      // The first evaluation opens the rule's alerts; the next ones, a minute apart, add to them.
      const first = await evaluateOnce(db, runner, rule.id, space.id, new Date(at.getTime() - MINUTE), at);
      const samples: number[] = [];
      for (let i = 1; i <= EVALUATIONS; i++) {
        const end = new Date(at.getTime() + i * MINUTE);
        samples.push(await evaluateOnce(db, runner, rule.id, space.id, new Date(end.getTime() - MINUTE), end));
      }
      // Catching up: one evaluation over the 60 minutes missed while every process was down.
      const catchUp: number[] = [];
      for (let i = 1; i <= CATCH_UPS; i++) {
        const end = new Date(at.getTime() + EVALUATIONS * MINUTE + i * HOUR);
        catchUp.push(await evaluateOnce(db, runner, rule.id, space.id, new Date(end.getTime() - HOUR), end));
      }
      const alertCount = await countOf(
        db,
        sql`select count(*) as n from ${alerts} where ${alerts.ruleId} = ${rule.id}`,
      );
      const { p50, p95 } = p50p95(samples);
      evaluations.push({ name, first, p50, p95, runs: samples.length, catchUp, alerts: alertCount });
      progress(
        `${name}: first ${ms(first)} ms, p50 ${ms(p50)} / p95 ${ms(p95)} ms, catch-up ${catchUp.map((c) => ms(c)).join(' / ')} ms, ${alertCount} alerts`,
      );
    }
    await runner.stop(1_000);

    // The rule editor's preview over the 24 h before `at`.
    const [space2] = await db.select().from(spaces).where(eq(spaces.id, space.id));
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (!space2 || !user) throw new Error('bench alerts: no space or user');
    const caller: SpaceCaller = {
      deps: buildDeps({ db, log: silentLogger, now: () => at }),
      actor: { id: user.id, name: user.name, ip: null, userAgent: null, at },
      ip: '127.0.0.1',
      session: null,
      user,
      space: space2,
      role: 'owner',
    };
    const previews: Preview[] = [];
    for (const [name, body] of [
      ['match `tag:attack-sqli` by ip, 24 h', { kind: 'match', query: 'tag:attack-sqli', groupBy: ['ip'], hours: 24 }],
      [
        'threshold `action:blocked` > 50 in 5 min by ip, 24 h',
        { kind: 'threshold', query: 'action:blocked', threshold: 50, windowMinutes: 5, groupBy: ['ip'], hours: 24 },
      ],
    ] as const) {
      const parsed = AlertRulePreviewBody.parse(body);
      let what = '';
      const latency = await sampleLatency(
        async () => {
          const answer = await previewRule(caller, parsed);
          what = `${count(answer.firings)} firings, ${count(answer.alerts)} alerts`;
        },
        { warmup: 2, runs: EVALUATIONS },
      );
      previews.push({ name, what, ...latency });
      progress(`preview ${name}: ${what}, p50 ${ms(latency.p50)} / p95 ${ms(latency.p95)} ms`);
    }
    return { fill: { copy, rollups, vacuum }, at, evaluations, previews, load };
  });
}

/** The ingest part's paragraphs and table. */
function ingestText(ingest: IngestResult): string[] {
  const none = median(ingest.rates.none);
  const slowdown = (config: Config) => `${((1 - median(ingest.rates[config]) / none) * 100).toFixed(1)} %`;
  // The slowdown of each round against the no-rule block of the same round, then the median.
  const paired = (config: Config) =>
    `${(median(ingest.rates[config].map((rate, i) => 1 - rate / (ingest.rates.none[i] ?? rate))) * 100).toFixed(1)} %`;
  const rows = CONFIGS.map((config) => {
    const { p50, p95 } = p50p95(ingest.batchMs[config]);
    const rates = [...ingest.rates[config]].sort((a, b) => a - b);
    return [
      CONFIG_LABEL[config],
      count(median(rates)),
      `${count(rates[0] ?? 0)}–${count(rates.at(-1) ?? 0)}`,
      `${ms(p50, 0)} / ${ms(p95, 0)}`,
      config === 'none' ? '—' : slowdown(config),
      config === 'none' ? '—' : paired(config),
    ];
  });
  const m = ingest.match;
  const failed = m.attempts - m.jobs;
  return [
    `**Ingest cost of rules.** Batches of ${count(BATCH)} demo ModSecurity records (server/demo/traffic.ts, over the last 24 h) through the real ingest path in this process, \`receiveForSource\` (the ModSecurity parser, then \`storeBatch\`: the space's enabled rules read and tried on the batch in memory, \`matchBatch\`, before its transaction; the insert; \`enqueueDetection\` in the transaction: one \`alerts.match\` job per batch with the groups found, an \`alerts.evaluate\` job per touched threshold rule and 10-second slot), one batch after the other, each timed from the call to the committed answer. Three configurations of the same space: (a) no rule enabled, (b) 20 match rules enabled, (c) 20 threshold rules (> 20 in 5 min) with the same queries enabled. The queries: ${RULES.map((r) => `\`${r.query}\`${r.groupBy.length ? ` by ${r.groupBy.join(',')}` : ''}`).join(', ')}. The configurations take turns: ${ROUNDS} rounds (after one untimed warm-up round), each ${BATCHES_PER_ROUND === 1 ? 'one batch' : `a block of ${BATCHES_PER_ROUND} batches`} per configuration, the rules' \`enabled\` switched in the database in between and the order rotated each round (abc, bca, cab, …), so the machine's noise falls on all three alike; ${count(ROUNDS * BATCHES_PER_ROUND * BATCH)} events per configuration. events/s: the median over the rounds (range beside it); slowdown: against (a)'s median, and paired: the median of each round's slowdown against (a) in the same round. Load average when the rounds started: ${ingest.load}.`,
    '',
    ...table(
      [
        'configuration',
        'events/s (median of rounds)',
        'range',
        'batch ms p50 / p95',
        'slowdown vs (a)',
        'paired by round',
      ],
      rows,
      [1],
    ),
    '',
    `Then the alerts: the ${count(m.jobs)} \`alerts.match\` jobs the match batches enqueued (warm-up included), run by a job runner of the match worker (5 slots, as the API runs its queues) until every one had completed: ${m.seconds.toFixed(1)} s (${count(m.jobs / m.seconds)} jobs/s), ${count(m.alerts)} alerts opened (one per rule and group), counting ${count(m.firings)} matching events, ${count(m.kept)} of them kept as links; ${failed === 0 ? 'no attempt failed' : `${failed} attempts failed and were retried after their backoff (${m.failures.join('; ')})`}. The threshold batches enqueued ${count(ingest.evaluateJobs)} \`alerts.evaluate\` jobs (at most one per rule and 10-second slot); they are not run here (their cost is the next table's).`,
  ];
}

/** The evaluation part's paragraphs and tables. */
function evaluationText(evaluation: EvaluationResult): string[] {
  const rows = evaluation.evaluations.map((e) => [
    e.name,
    ms(e.first),
    `${ms(e.p50)} / ${ms(e.p95)}`,
    `${ms(median(e.catchUp))} (${e.catchUp.map((c) => ms(c, 0)).join(', ')})`,
    count(e.alerts),
  ]);
  const previewRows = evaluation.previews.map((p) => [p.name, p.what, `${ms(p.p50)} / ${ms(p.p95)}`]);
  const fill = evaluation.fill;
  return [
    `**Evaluation at ${count(EVENTS)} events.** One space holding ${count(EVENTS)} demo events over 7 days, loaded as the event log bench loads them (COPY into \`events\` and \`event_raw\`, each event arriving ${ARRIVAL_DELAY_MS / 1000} s after its time; ${Math.round(fill.copy)} s COPY + ${Math.round(fill.rollups)} s rollups + ${Math.round(fill.vacuum)} s VACUUM ANALYZE). Each evaluation is one \`alerts.evaluate\` job with an explicit \`at\`, claimed, performed and completed by a job runner of the evaluate worker (ms from the poll to the completion). The first at ${evaluation.at.toISOString().slice(0, 16)} UTC (the afternoon peak of the day before the load's end) opens the rule's alerts; then ${EVALUATIONS} evaluations a minute apart, each after the rule's \`evaluated_until\` was moved to the minute before, as the scheduler runs them (p50 / p95); then the catch-up: ${CATCH_UPS} evaluations each covering 60 missed minutes (\`evaluated_until\` an hour back; median and each run). Alerts: the rule's alerts at the end. Load average when the evaluations started: ${evaluation.load}.`,
    '',
    ...table(
      [
        'rule',
        'first evaluation ms',
        `minute evaluation ms p50 / p95 (${EVALUATIONS})`,
        'catch-up 60 min ms',
        'alerts',
      ],
      rows,
    ),
    '',
    `The rule editor's preview (\`previewRule\`) over the 24 h before that moment, ${EVALUATIONS} runs after 2 warm-up ones:`,
    '',
    ...table(['preview', 'answer', 'ms p50 / p95'], previewRows),
  ];
}

/** The "Detection (alert rules)" section of BENCHMARKS.md; BENCH_ALERTS_ONLY=ingest|evaluation runs one part. */
export async function benchAlerts(): Promise<string> {
  const before = loadAverage();
  const only = process.env.BENCH_ALERTS_ONLY;
  const ingest = only === 'evaluation' ? null : await ingestCost();
  const evaluation = only === 'ingest' ? null : await evaluationCost();
  return [
    '## Detection (alert rules)',
    '',
    `Command: \`node bench/run.ts alerts\` (PostgreSQL 15, the benches' own cluster; a database of its own per part, dropped after). Load average before: ${before}; after: ${loadAverage()}.`,
    ...(ingest ? ['', ...ingestText(ingest)] : []),
    ...(evaluation ? ['', ...evaluationText(evaluation)] : []),
  ].join('\n');
}

if (import.meta.main) console.log(await benchAlerts());
