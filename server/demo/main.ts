/**
 * `npm run demo`: starts the product exactly as `npm start` does (embedded PGlite in DATA_DIR unless
 * DATABASE_URL says otherwise), seeds a demo user and the space "Demo shop" with a week of ModSecurity
 * traffic through the real ingest API, prints the sign-in once, then keeps a trickle of events coming
 * until Ctrl-C. DEMO_EVENTS (default 40 000) and DEMO_SEED (default 2026) change the week's traffic.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { start, stopOnSignal } from '../main.ts';
import { jsonLogger, type Logger } from '../services/shared/logger.ts';
import { seedDemo, startTrickle } from './seed.ts';

const events = Number(process.env.DEMO_EVENTS ?? 40_000);
const seed = Number(process.env.DEMO_SEED ?? 2026);

// The demo's own ingest calls (thousands while seeding, then one every few seconds) stay out of the request log,
// so the sign-in printed below is still on screen; every other request and every failure is logged.
const log: Logger = (entry) => {
  const ownIngest =
    entry.msg === 'request' && String(entry.path).startsWith('/api/ingest/') && Number(entry.status) < 300;
  if (!ownIngest) jsonLogger(entry);
};

/** Where the sign-in is kept for later: beside the embedded database, readable by this user only. */
function loginFile(): string {
  const dataDir = process.env.DATA_DIR || './data';
  return resolve(process.env.DATABASE_URL || dataDir.startsWith('memory://') ? '.' : dataDir, 'demo-login.txt');
}

/** The sign-in as a framed block, so it stands out from the JSON log lines around it. */
function framed(lines: readonly string[]): string {
  const width = Math.max(...lines.map((line) => line.length));
  const rule = `+${'-'.repeat(width + 2)}+`;
  return [rule, ...lines.map((line) => `| ${line.padEnd(width)} |`), rule].join('\n');
}

const running = await start(process.env, log);
const send = (path: string, init: RequestInit) => fetch(`${running.url}${path}`, init);
const say = (msg: string, extra: Record<string, unknown> = {}) =>
  console.log(JSON.stringify({ level: 'info', msg, ...extra }));

let trickle: ReturnType<typeof startTrickle> | undefined;
stopOnSignal(async () => {
  await trickle?.stop();
  await running.stop();
});

try {
  say('demo: seeding', { events, seed });
  const started = performance.now();
  let reported = 0;
  const demo = await seedDemo({
    db: running.api.database.db,
    send,
    now: running.api.deps.now(),
    events,
    seed,
    onProgress: (sent, total) => {
      if (sent - reported >= 10_000 || sent === total) {
        reported = sent;
        say('demo: events sent', { sent, total });
      }
    },
  });
  say('demo: seeded', { accepted: demo.accepted, seconds: Math.round((performance.now() - started) / 100) / 10 });
  trickle = startTrickle({
    send,
    token: demo.sourceToken,
    firewallId: demo.firewallId,
    traffic: demo.traffic,
    since: running.api.deps.now(),
    now: running.api.deps.now,
    eventsPerWeek: events,
    onError: (error) =>
      console.error(JSON.stringify({ level: 'warn', msg: 'demo: trickle batch failed', error: String(error) })),
  });
  const lines = [
    `Spaceguard demo is running at ${running.url}`,
    `Sign in at ${running.url}/auth/login`,
    `  email:    ${demo.email}`,
    `  password: ${demo.password}`,
    demo.reset
      ? '  (the demo user existed from an earlier run: its password was reset to this new one)'
      : '  (a random password, made for this run)',
    `Space "Demo shop": ${running.url}/console/${demo.spaceId}`,
    '',
    'A few new events arrive every few seconds. Ctrl-C stops.',
  ];
  const file = loginFile();
  writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  process.stdout.write(`\n${framed([...lines, `This sign-in is also in ${file} (readable by you only).`])}\n\n`);
} catch (error) {
  console.error(JSON.stringify({ level: 'error', msg: 'demo: seeding failed', error: String(error) }));
  await running.stop();
  process.exit(1);
}
