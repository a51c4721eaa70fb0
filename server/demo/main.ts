/**
 * `npm run demo`: starts the product exactly as `npm start` does (embedded PGlite in DATA_DIR unless
 * DATABASE_URL says otherwise), seeds a demo user and the space "Demo shop" with a week of ModSecurity
 * traffic through the real ingest API, prints the sign-in once, then keeps a trickle of events coming
 * until Ctrl-C. DEMO_EVENTS (default 40 000) and DEMO_SEED (default 2026) change the week's traffic.
 */
import { start, stopOnSignal } from '../main.ts';
import { seedDemo, startTrickle } from './seed.ts';

const events = Number(process.env.DEMO_EVENTS ?? 40_000);
const seed = Number(process.env.DEMO_SEED ?? 2026);

const running = await start();
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
    now: new Date(),
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
    traffic: demo.traffic,
    since: new Date(),
    onError: (error) =>
      console.error(JSON.stringify({ level: 'warn', msg: 'demo: trickle batch failed', error: String(error) })),
  });
  const lines = [
    '',
    `Spaceguard demo is running at ${running.url}`,
    `Sign in at ${running.url}/auth/login`,
    `  email:    ${demo.email}`,
    `  password: ${demo.password}`,
    demo.reset
      ? '  (the demo user existed from an earlier run: its password was reset to this new one)'
      : '  (a random password, shown this once)',
    `Space "Demo shop": ${running.url}/console/${demo.spaceId}`,
    'A few new events arrive every few seconds. Ctrl-C stops.',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} catch (error) {
  console.error(JSON.stringify({ level: 'error', msg: 'demo: seeding failed', error: String(error) }));
  await running.stop();
  process.exit(1);
}
