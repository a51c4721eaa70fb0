/**
 * Checkouts sent at the same moment: each is quoted from the space as it is once locked, so the second
 * of two identical checkouts charges nothing and an upgrade racing a purchase is credited for it. Two API processes
 * on their own pools (PostgreSQL with TEST_DATABASE_URL), or two apps on the one PGlite.
 */
import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { priceCents } from '../../contract/billing.ts';
import { testCards } from '../../contract/constants/billing.ts';
import { createApp } from '../app.ts';
import { invoices } from '../db/schema/billing.ts';
import { spaces } from '../db/schema/spaces.ts';
import { createLocalProvider } from '../services/billing/local-provider.ts';
import type { BillingProvider } from '../services/billing/provider.ts';
import { anotherHandle, BASE, createTestApi, ORIGIN, type TestApi } from '../test/harness.ts';
import { testClock } from '../test/jobs.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const clock = testClock('2026-11-01T09:00:00.000Z');
let t: TestApi;
let other: Awaited<ReturnType<typeof anotherHandle>>;
let owner: string;
/** Each process's own provider, as each API process has its own client of the payment provider. */
const providers: BillingProvider[] = [createLocalProvider(), createLocalProvider()];
let apps: { request: (url: string, init: RequestInit) => Response | Promise<Response> }[];

beforeAll(async () => {
  t = await createTestApi({ now: clock.now });
  other = await anotherHandle(t.database);
  apps = [
    createApp({ db: t.db, deps: { ...t.deps, billing: providers[0] as BillingProvider } }),
    createApp({ db: other.db, deps: { ...t.deps, db: other.db, billing: providers[1] as BillingProvider } }),
  ];
  owner = (await t.signUp('owner@example.com', 'Olive')).cookie;
});
afterAll(async () => {
  await other.close();
  await t.close();
});

const card = { number: testCards.success.number, expMonth: 12, expYear: 2040, cvc: '123' };

/** A checkout through process `n`, under its own Idempotency-Key. */
async function checkoutVia(n: number, spaceId: string, body: unknown) {
  const res = await (apps[n] as (typeof apps)[number]).request(`${BASE}/api/spaces/${spaceId}/subscription/checkout`, {
    method: 'POST',
    headers: {
      origin: ORIGIN,
      cookie: owner,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
      'x-forwarded-for': '203.0.113.7',
    },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely
  return { status: res.status, json: (await res.json()) as any };
}

/** Both processes' checkouts at once; the answers in the order of their status (200 first). */
async function atOnce(spaceId: string, bodies: [unknown, unknown]) {
  const answers = await Promise.all(bodies.map((body, n) => checkoutVia(n, spaceId, body)));
  return answers.sort((a, b) => a.status - b.status);
}

async function newSpace(): Promise<string> {
  const res = await t.read(t.api(owner).spaces.$post({ json: { name: `Race ${randomUUID().slice(0, 8)}` } }));
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.id;
}

const paidInvoices = async (spaceId: string) =>
  (await t.db.select().from(invoices).where(eq(invoices.spaceId, spaceId)).orderBy(asc(invoices.number))).filter(
    (row) => row.status === 'paid',
  );
/** What the payment provider took from the space's card, refunds excluded. */
const charged = async (spaceId: string) =>
  (await Promise.all(providers.map((p) => p.listInvoices(spaceId))))
    .flat()
    .filter((p) => p.status === 'succeeded')
    .map((p) => p.amountCents);
const planOf = async (spaceId: string) =>
  (await t.db.select({ plan: spaces.plan }).from(spaces).where(eq(spaces.id, spaceId)))[0]?.plan;

test('two checkouts of Pro at once from a Free space: one pays, the other answers 409 and charges nothing', async () => {
  const spaceId = await newSpace();
  const body = { plan: 'pro', interval: 'month', card };
  const [paid, refused] = await atOnce(spaceId, [body, body]);
  expect(paid?.status, JSON.stringify(paid?.json)).toBe(200);
  expect(refused?.status, JSON.stringify(refused?.json)).toBe(409);
  expect(refused?.json.error).toMatchObject({ code: 'no_change', message: 'This space is already on Pro, monthly.' });
  expect((await paidInvoices(spaceId)).map((row) => [row.kind, row.totalCents])).toEqual([
    ['subscribe', priceCents('pro', 'month')],
  ]);
  expect(await charged(spaceId)).toEqual([priceCents('pro', 'month')]);
  expect(await planOf(spaceId)).toBe('pro');
});

test('two upgrades of a Pro space to Business at once: one is charged the prorated difference, the other 409', async () => {
  const spaceId = await newSpace();
  expect((await checkoutVia(0, spaceId, { plan: 'pro', interval: 'month', card })).status).toBe(200);
  clock.advance(15 * 86_400_000);
  const body = { plan: 'business', interval: 'month' };
  const [paid, refused] = await atOnce(spaceId, [body, body]);
  expect(paid?.status, JSON.stringify(paid?.json)).toBe(200);
  expect(paid?.json.invoice.kind).toBe('upgrade');
  expect(refused?.status, JSON.stringify(refused?.json)).toBe(409);
  expect(refused?.json.error).toMatchObject({
    code: 'no_change',
    message: 'This space is already on Business, monthly.',
  });
  expect((await paidInvoices(spaceId)).map((row) => row.kind)).toEqual(['subscribe', 'upgrade']);
  expect((await charged(spaceId)).length).toBe(2);
  expect(await planOf(spaceId)).toBe('business');
});

test('Pro and Business bought at once from Free cost the Business price: whichever comes second sees the first', async () => {
  const spaceId = await newSpace();
  const answers = await atOnce(spaceId, [
    { plan: 'pro', interval: 'month', card },
    { plan: 'business', interval: 'month', card },
  ]);
  expect(answers.map((a) => a.status)).toEqual([200, 200]);
  // Pro first: Business is an upgrade, credited the whole unused Pro month. Business first: Pro waits for the
  // period's end. Either way the space pays for one month of Business, not for both plans.
  const total = (await paidInvoices(spaceId)).reduce((sum, row) => sum + row.totalCents, 0);
  expect(total).toBe(priceCents('business', 'month'));
  expect((await charged(spaceId)).reduce((sum, cents) => sum + cents, 0)).toBe(priceCents('business', 'month'));
  expect(await planOf(spaceId)).toBe('business');
});
