/**
 * API speed on both storage drivers: sign-in throughput (argon2id-bound) and p50/p95 latency of the
 * space list and the activity log with 10 000 records. Requests go in-process through `app.request()`
 * (no listening socket); every database this opens is closed, the PostgreSQL one dropped, the PGlite
 * directory removed. Nothing here is asserted by tests.
 */
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { sql } from 'drizzle-orm';
import { createApp } from '../server/app.ts';
import { type Database, openDatabase, rowsOf } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { activity } from '../server/db/schema/activity.ts';
import { memberships } from '../server/db/schema/memberships.ts';
import { spaces } from '../server/db/schema/spaces.ts';
import { users } from '../server/db/schema/users.ts';
import { prng } from '../server/demo/traffic.ts';
import { argon2Parameters, hashPassword, verifyPassword } from '../server/services/accounts/passwords.ts';
import { silentLogger } from '../server/services/shared/logger.ts';
import { postgresDatabase, tempDir } from './lib/databases.ts';
import { loadAverage, ms, table } from './lib/format.ts';
import { type Fetcher, getJson, signIn } from './lib/http.ts';
import { type Latency, runConcurrently, sampleLatency, type Throughput, timed } from './lib/timing.ts';

const BASE = 'http://127.0.0.1:4321';
const PASSWORD = 'correct horse battery 42';
const LOGINS = 40;
const LOGIN_CONCURRENCY = 4;
const LOGIN_ACCOUNTS = 4;
const SPACES = 20;
const ACTIVITY_RECORDS = 10_000;
const OTHER_SPACE_RECORDS = 100;
const WARMUP = 20;
const TIMED = 200;
const HASH_SAMPLES = 40;

type Backend = { label: string; database: Database; cleanup(): Promise<void> };

/** A throwaway PGlite directory under the OS temp dir (what DATA_DIR would be, not memory://). */
async function pgliteBackend(): Promise<Backend> {
  const dir = tempDir('sg-bench-api-');
  try {
    const database = await openDatabase({ dataDir: dir.path });
    return {
      label: 'PGlite (tmp dir)',
      database,
      async cleanup() {
        await database.close().catch(() => undefined);
        dir.remove();
      },
    };
  } catch (error) {
    dir.remove();
    throw error;
  }
}

/** A freshly created PostgreSQL database on the local server, dropped again by `cleanup()`. */
async function postgresBackend(): Promise<Backend> {
  const created = await postgresDatabase(`sg_bench_${randomBytes(6).toString('hex')}`);
  let database: Database;
  try {
    database = await openDatabase({ url: created.url });
  } catch (error) {
    await created.drop();
    throw error;
  }
  return {
    label: 'PostgreSQL (fresh database, pool max 10)',
    database,
    async cleanup() {
      await database.close().catch(() => undefined);
      await created.drop();
    },
  };
}

const ACTIONS: readonly { action: string; objectType: string; weight: number }[] = [
  { action: 'alert.acknowledge', objectType: 'alert', weight: 20 },
  { action: 'alert.resolve', objectType: 'alert', weight: 14 },
  { action: 'firewall.rule_update', objectType: 'firewall_rule', weight: 12 },
  { action: 'firewall.rule_create', objectType: 'firewall_rule', weight: 8 },
  { action: 'firewall.rule_delete', objectType: 'firewall_rule', weight: 3 },
  { action: 'space.update', objectType: 'space', weight: 5 },
  { action: 'member.invite', objectType: 'invitation', weight: 4 },
  { action: 'member.role_change', objectType: 'membership', weight: 3 },
  { action: 'member.remove', objectType: 'membership', weight: 1 },
  { action: 'token.create', objectType: 'api_token', weight: 2 },
  { action: 'activity.export', objectType: 'space', weight: 3 },
  { action: 'scan.start', objectType: 'scan', weight: 15 },
  { action: 'scan.finish', objectType: 'scan', weight: 10 },
];
const AGENTS = [
  'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
  'spaceguard-cli/1.4.2',
  null,
];

type Seeded = {
  accounts: string[];
  spaceId: string;
  filterActor: string;
  filterAction: string;
  filterFrom: string;
};

/** Users (active, same argon2id hash), 20 spaces for the first account, 10 000 activity records in one. */
async function seed(database: Database): Promise<Seeded> {
  const { db } = database;
  const passwordHash = await hashPassword(PASSWORD);
  const now = Date.now();
  // Everyone and every space was made 90 days ago, when the activity records start.
  const madeAt = new Date(now - 90 * 86_400_000);
  const people = Array.from({ length: 12 }, (_, i) => ({
    email: `bench${i}@example.com`,
    name: `Bench User ${i}`,
    passwordHash,
    activatedAt: madeAt,
    createdAt: madeAt,
    updatedAt: madeAt,
  }));
  const userRows = await db.insert(users).values(people).returning({ id: users.id, name: users.name });
  const owner = userRows[0];
  if (!owner) throw new Error('no users inserted');
  const spaceRows = await db
    .insert(spaces)
    .values(
      Array.from({ length: SPACES }, (_, i) => ({
        name: `Bench space ${String(i + 1).padStart(2, '0')}`,
        description: `Space ${i + 1} for the API bench.`,
        plan: (['free', 'pro', 'business'] as const)[i % 3] ?? 'free',
        createdAt: madeAt,
        updatedAt: madeAt,
      })),
    )
    .returning({ id: spaces.id });
  const roles = ['admin', 'analyst', 'viewer'] as const;
  const memberRows: {
    spaceId: string;
    userId: string;
    role: 'owner' | 'admin' | 'analyst' | 'viewer';
    createdAt: Date;
  }[] = [];
  spaceRows.forEach((space, i) => {
    memberRows.push({ spaceId: space.id, userId: owner.id, role: 'owner', createdAt: madeAt });
    // 1–6 further members per space, so the member counts vary.
    for (let k = 1; k <= 1 + (i % 6); k += 1) {
      const other = userRows[k + ((i * 3) % 5)];
      if (other)
        memberRows.push({ spaceId: space.id, userId: other.id, role: roles[k % 3] ?? 'viewer', createdAt: madeAt });
    }
  });
  await db.insert(memberships).values(memberRows).onConflictDoNothing();
  const target = spaceRows[0];
  if (!target) throw new Error('no spaces inserted');

  // Deterministic, so both drivers get the same data shape.
  const random = prng(20_261_121);
  const totalWeight = ACTIONS.reduce((sum, a) => sum + a.weight, 0);
  const pick = () => {
    let r = random() * totalWeight;
    for (const a of ACTIONS) {
      r -= a.weight;
      if (r < 0) return a;
    }
    return ACTIONS[0] ?? { action: 'alert.acknowledge', objectType: 'alert', weight: 1 };
  };
  const actors = userRows.slice(0, 8);
  const record = (spaceId: string) => {
    const kind = pick();
    // Skewed: a few people do most of the work; 10 % are system/API-token actions without a person.
    const actor = random() < 0.1 ? null : (actors[Math.floor(random() ** 2 * actors.length)] ?? null);
    return {
      spaceId,
      actorId: actor?.id ?? null,
      actorName: actor?.name ?? null,
      action: kind.action,
      objectType: kind.objectType,
      objectId: randomBytes(8).toString('hex'),
      // Over the last 90 days, denser recently.
      createdAt: new Date(now - Math.floor(random() ** 1.5 * 90 * 86_400_000)),
      ip: `198.51.100.${1 + Math.floor(random() * 200)}`,
      userAgent: AGENTS[Math.floor(random() * AGENTS.length)] ?? null,
      change: random() < 0.6 ? { field: 'status', from: 'open', to: 'closed', note: 'bench' } : null,
    };
  };
  const batch = 1000;
  for (let done = 0; done < ACTIVITY_RECORDS; done += batch) {
    const n = Math.min(batch, ACTIVITY_RECORDS - done);
    await db.insert(activity).values(Array.from({ length: n }, () => record(target.id)));
  }
  const others = spaceRows
    .slice(1)
    .flatMap((space) => Array.from({ length: OTHER_SPACE_RECORDS }, () => record(space.id)));
  for (let i = 0; i < others.length; i += batch) await db.insert(activity).values(others.slice(i, i + batch));
  await db.execute(sql`analyze`);

  const filterActor = actors[1]?.id;
  if (!filterActor) throw new Error('no actor');
  return {
    accounts: people.slice(0, LOGIN_ACCOUNTS).map((person) => person.email),
    spaceId: target.id,
    filterActor,
    filterAction: 'firewall.rule_update',
    filterFrom: new Date(now - 30 * 86_400_000).toISOString(),
  };
}

/** `count` sign-ins spread over the accounts, `concurrency` in flight. */
function loginRate(fetcher: Fetcher, accounts: string[], count: number, concurrency: number): Promise<Throughput> {
  return runConcurrently(count, concurrency, (i) =>
    signIn(fetcher, BASE, accounts[i % accounts.length] ?? '', PASSWORD),
  );
}

/** 20 warm-up then 200 timed sequential GETs (body read); every answer must be 200. */
async function latency(fetcher: Fetcher, cookie: string, path: string): Promise<Latency & { items: number }> {
  const get = () =>
    getJson<{ items: unknown[] }>(fetcher, `${BASE}${path}`, { cookie, 'user-agent': 'spaceguard-bench' });
  const items = (await get()).items.length;
  return { ...(await sampleLatency(get, { warmup: WARMUP - 1, runs: TIMED })), items };
}

type Result = {
  label: string;
  server: string;
  load: string;
  seedSeconds: number;
  seq: Throughput;
  par: Throughput;
  reads: { name: string; path: string; p50: number; p95: number; items: number }[];
};

async function benchBackend(make: () => Promise<Backend>): Promise<Result> {
  const backend = await make();
  try {
    const { database } = backend;
    await migrate(database);
    const [version] = rowsOf<{ server_version: string }>(await database.db.execute(sql`show server_version`));
    const { seconds: seedSeconds, result: seeded } = await timed(() => seed(database));
    const app = createApp({
      db: database.db,
      config: {
        publicUrl: BASE,
        allowedOrigins: [BASE],
        production: false,
        trustProxy: false,
        smtpUrl: undefined,
        captchaSecret: undefined,
      },
      log: silentLogger,
    });
    // In process, no socket; every sign-in comes from the same unknown client as far as rate limits go.
    const fetcher: Fetcher = async (url, init) =>
      app.request(url, { ...init, headers: { 'user-agent': 'spaceguard-bench', ...init?.headers } });
    // One untimed sign-in per account first (loads the argon2 module, warms the pool/JIT).
    for (const email of seeded.accounts) await signIn(fetcher, BASE, email, PASSWORD);
    const seq = await loginRate(fetcher, seeded.accounts, LOGINS, 1);
    const par = await loginRate(fetcher, seeded.accounts, LOGINS, LOGIN_CONCURRENCY);
    const cookie = await signIn(fetcher, BASE, seeded.accounts[0] ?? '', PASSWORD);
    const space = seeded.spaceId;
    const filtered = new URLSearchParams({ action: seeded.filterAction, from: seeded.filterFrom }).toString();
    const byActor = new URLSearchParams({ actor: seeded.filterActor }).toString();
    const reads: Result['reads'] = [];
    for (const [name, shown, path] of [
      ['space list', '/api/spaces', '/api/spaces'],
      ['activity, default page', '/api/spaces/{id}/activity', `/api/spaces/${space}/activity`],
      [
        'activity, filtered',
        `/api/spaces/{id}/activity?action=${seeded.filterAction}&from={30 days ago}`,
        `/api/spaces/${space}/activity?${filtered}`,
      ],
      [
        'activity, by actor',
        '/api/spaces/{id}/activity?actor={2nd most active}',
        `/api/spaces/${space}/activity?${byActor}`,
      ],
    ] as const) {
      reads.push({ name, path: shown, ...(await latency(fetcher, cookie, path)) });
    }
    return {
      label: backend.label,
      server: version?.server_version ?? '?',
      load: loadAverage(),
      seedSeconds,
      seq,
      par,
      reads,
    };
  } finally {
    await backend.cleanup();
  }
}

/** argon2id verify alone, sequential and 4 at a time, to show what sign-in spends its time on. */
async function hashCost() {
  const stored = await hashPassword(PASSWORD);
  await verifyPassword(stored, PASSWORD);
  const verify = () => verifyPassword(stored, PASSWORD);
  const sequential = await runConcurrently(HASH_SAMPLES, 1, verify);
  const parallel = await runConcurrently(HASH_SAMPLES, LOGIN_CONCURRENCY, verify);
  return {
    sequentialMs: (sequential.seconds * 1000) / HASH_SAMPLES,
    sequentialPerSecond: sequential.perSecond,
    parallelPerSecond: parallel.perSecond,
  };
}

/** The `## API` section of BENCHMARKS.md. */
export async function benchApi(): Promise<string> {
  const startLoad = loadAverage();
  const { seconds: total, result } = await timed(async () => ({
    hash: await hashCost(),
    results: [await benchBackend(pgliteBackend), await benchBackend(postgresBackend)],
  }));
  const { hash, results } = result;
  const p = argon2Parameters;
  const cpu = cpus();

  const lines = [
    '## API',
    '',
    `In-process: every request goes through \`app.request()\` (no listening socket, no HTTP parsing, no network), so these are handler + database + hashing costs. Machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, Node ${process.version}; load average (1, 5, 15 min) ${startLoad} at the start, ${loadAverage()} at the end — other work was running, so treat the numbers as indicative. Whole run ${total.toFixed(0)} s.`,
    '',
    `Data: 12 active users, the signed-in user owns ${SPACES} spaces (1–6 other members each); ${ACTIVITY_RECORDS.toLocaleString('en')} activity records in the measured space (13 actions, 8 actors skewed toward a few plus 10 % actorless, times over 90 days, 60 % with a JSON change) and ${OTHER_SPACE_RECORDS} in each other space, bulk-inserted with Drizzle in batches of 1000, then \`ANALYZE\`.`,
    '',
    '### Sign-in (POST /api/auth/login, correct credentials)',
    '',
    `argon2id (\`server/services/accounts/passwords.ts\`): memory ${p.memoryCost} KiB (${(p.memoryCost / 1024).toFixed(0)} MiB), ${p.timeCost} passes, parallelism ${p.parallelism}, ${p.outputLen}-byte output. The verify alone (no HTTP, no database): ${ms(hash.sequentialMs)} ms each, ${hash.sequentialPerSecond.toFixed(1)}/s sequential, ${hash.parallelPerSecond.toFixed(1)}/s with ${LOGIN_CONCURRENCY} in flight (@node-rs/argon2 runs verifies on the libuv thread pool, so concurrency can at best use every core: ${cpu.length} here, shared with whatever else is running).`,
    '',
    `${LOGINS} timed sign-ins per run, rotating over ${LOGIN_ACCOUNTS} accounts, after one untimed sign-in per account. Rate limits: the login route counts only failures against the account (5) and the IP (30) per 15 min and clears the account on success, so successful sign-ins never approach the limit; the bench keeps the default limits and \`TRUST_PROXY\` off (every request has the same unknown IP) and fails if any answer is not 200. Each sign-in also writes a session row and an activity record in one transaction.`,
    '',
    ...table(
      ['database', 'sequential req/s', 'p50 / p95 ms', 'concurrency 4 req/s', 'p50 / p95 ms'],
      results.map((r) => [
        r.label,
        r.seq.perSecond.toFixed(1),
        `${ms(r.seq.p50)} / ${ms(r.seq.p95)}`,
        r.par.perSecond.toFixed(1),
        `${ms(r.par.p50)} / ${ms(r.par.p95)}`,
      ]),
    ),
    '',
    '### Reads (signed in with the session cookie)',
    '',
    `${WARMUP} warm-up then ${TIMED} timed sequential requests each; time includes reading the JSON body. Default activity page is 50 records.`,
    '',
    ...table(
      ['database', 'request', 'rows', 'p50 ms', 'p95 ms'],
      results.flatMap((r) =>
        r.reads.map((x) => [r.label, `${x.name}: \`GET ${x.path}\``, x.items, ms(x.p50), ms(x.p95)]),
      ),
    ),
    '',
    ...results.map(
      (r) =>
        `- ${r.label}: server ${r.server}, seeding ${r.seedSeconds.toFixed(1)} s, load average ${r.load} when its reads finished.`,
    ),
  ];
  return lines.join('\n');
}

if (import.meta.main) console.log(await benchApi());
