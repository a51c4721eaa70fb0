/**
 * Billing on PGlite on disk (worker thread, as the server opens it), the API in process with the bundled
 * test provider: p50 / p95 of `GET .../subscription` (the plan page: usage of every limit), of the checkout preview,
 * and of a paid checkout (Luhn, the provider, the invoice and the plan change in one transaction), each space paying
 * once for Pro; then the `billing.renew` pass a month later over all of them (one renewal invoice each), and the same
 * pass again (nothing due: it must renew nothing). Nothing here is asserted by tests.
 *
 * `node bench/run.ts billing` prints the markdown section. BENCH_BILLING_SPACES changes the number of spaces.
 */
import { count, eq } from 'drizzle-orm';
import { createApp } from '../server/app.ts';
import { buildDeps } from '../server/build-deps.ts';
import { openDatabase } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { apiTokens } from '../server/db/schema/api-tokens.ts';
import { invoices } from '../server/db/schema/billing.ts';
import { memberships } from '../server/db/schema/memberships.ts';
import { spaces } from '../server/db/schema/spaces.ts';
import { users } from '../server/db/schema/users.ts';
import { renewDue } from '../server/services/billing/workers/renew-worker.ts';
import { silentLogger } from '../server/services/shared/logger.ts';
import { hashToken, randomToken } from '../server/services/shared/tokens.ts';
import { tempDir } from './lib/databases.ts';
import { loadAverage, ms, count as number, table } from './lib/format.ts';
import { sampleLatency, timed } from './lib/timing.ts';

const SPACES = Number(process.env.BENCH_BILLING_SPACES ?? 300);
const DAY = 86_400_000;

export async function benchBilling(): Promise<string> {
  const before = loadAverage();
  const dir = tempDir('sg-bench-billing-');
  const database = await openDatabase({ dataDir: dir.path, thread: true });
  try {
    await migrate(database);
    const { db } = database;
    let clock = Date.now();
    const now = () => new Date(clock);
    const deps = buildDeps({ db, log: silentLogger, now });
    const app = createApp({ db, deps });
    const origin = 'http://localhost:4321';

    // One owner with a personal API token, owning every space.
    const made = now();
    const [user] = await db
      .insert(users)
      .values({
        email: 'billing-bench@example.test',
        name: 'Bench',
        passwordHash: 'unused',
        activatedAt: new Date(),
        createdAt: made,
        updatedAt: made,
      })
      .returning();
    const bearer = randomToken('sgp_');
    await db.insert(apiTokens).values({
      userId: user?.id ?? '',
      name: 'bench',
      prefix: bearer.slice(0, 8),
      tokenHash: hashToken(bearer),
      createdAt: made,
    });
    const ids: string[] = [];
    for (let i = 0; i < SPACES; i++) {
      const [space] = await db
        .insert(spaces)
        .values({ name: `Billing ${i}`, createdAt: made, updatedAt: made })
        .returning();
      await db
        .insert(memberships)
        .values({ spaceId: space?.id ?? '', userId: user?.id ?? '', role: 'owner', createdAt: made });
      ids.push(space?.id ?? '');
    }
    const call = async (method: string, path: string, body?: unknown, key?: string) => {
      const res = await app.request(`${origin}/api${path}`, {
        method,
        headers: {
          origin,
          authorization: `Bearer ${bearer}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(key ? { 'idempotency-key': key } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    };
    const card = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: '123' };
    let next = 0;
    const page = await sampleLatency(() => call('GET', `/spaces/${ids[next++ % SPACES]}/subscription`), {
      warmup: 5,
      runs: 100,
    });
    next = 0;
    const preview = await sampleLatency(
      () =>
        call('POST', `/spaces/${ids[next++ % SPACES]}/subscription/checkout/preview`, {
          plan: 'pro',
          interval: 'month',
        }),
      { warmup: 5, runs: 100 },
    );
    next = 0;
    const pay = await sampleLatency(
      async () => {
        const id = ids[next++];
        await call(
          'POST',
          `/spaces/${id}/subscription/checkout`,
          { plan: 'pro', interval: 'month', card },
          `pay-${id}`,
        );
      },
      { warmup: 0, runs: SPACES },
    );

    // A month and a day later: one renewal each; the same pass again renews nothing.
    clock += 32 * DAY;
    const first = await timed(() => renewDue(deps, now()));
    const afterFirst = (await db.select({ n: count() }).from(invoices).where(eq(invoices.kind, 'renewal')))[0]?.n ?? 0;
    const second = await timed(() => renewDue(deps, now()));
    const afterSecond = (await db.select({ n: count() }).from(invoices).where(eq(invoices.kind, 'renewal')))[0]?.n ?? 0;

    return [
      '## Billing',
      '',
      `Machine: the one at the top. Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Command: \`node bench/run.ts billing\`. PGlite on disk (worker thread), the API in process (\`app.request\`, a personal API token), the bundled test-mode provider. ${number(SPACES)} Free spaces of one owner; each pays once for Pro by card. Load average before: ${before}.`,
      '',
      ...table(
        ['call', 'runs', 'p50 / p95 ms'],
        [
          [
            '`GET .../subscription` (plan, usage of the seven limits)',
            String(page.runs),
            `${ms(page.p50)} / ${ms(page.p95)}`,
          ],
          [
            '`POST .../subscription/checkout/preview` (Free → Pro)',
            String(preview.runs),
            `${ms(preview.p50)} / ${ms(preview.p95)}`,
          ],
          [
            '`POST .../subscription/checkout` (paid, invoice, plan changed)',
            String(pay.runs),
            `${ms(pay.p50)} / ${ms(pay.p95)}`,
          ],
        ],
      ),
      '',
      ...table(
        ['renewal pass (`renewDue`), 32 days later', 'subscriptions due', 'renewal invoices after', 'seconds'],
        [
          ['first', number(first.result), number(afterFirst), first.seconds.toFixed(2)],
          ['again (nothing due)', number(second.result), number(afterSecond), second.seconds.toFixed(2)],
        ],
      ),
    ].join('\n');
  } finally {
    await database.close();
    dir.remove();
  }
}

if (import.meta.main) console.log(await benchBilling());
