/**
 * Renewal across two API processes (`server/start.js`, as `npm start` runs it) on one PostgreSQL
 * database: a space pays for a month of Pro; both processes are restarted with their clock 32 days ahead
 * (`DEV_CLOCK_OFFSET_DAYS`, honoured outside production only); the `billing.renew` job renews the subscription once,
 * whichever process runs it, with one new invoice and the period moved on. PostgreSQL from E2E_PG_URL (default the
 * local server's `test` database); a database of its own is created and dropped here.
 */
import type { ChildProcess } from 'node:child_process';
import { type APIRequestContext, expect, request as playwrightRequest, test } from '@playwright/test';
import pg from 'pg';
import { startApiProcess, stopApiProcess, withScratchDatabase } from './api-processes.ts';

const PORTS = [4413, 4414] as const;

const contextOf = (port: number) =>
  playwrightRequest.newContext({
    baseURL: `http://127.0.0.1:${port}`,
    extraHTTPHeaders: { origin: `http://127.0.0.1:${port}` },
  });

type Invoice = { number: string; kind: string; status: string; period: { start: string; end: string } };

async function invoices(context: APIRequestContext, spaceId: string): Promise<Invoice[]> {
  const answer = await context.get(`/api/spaces/${spaceId}/payments`);
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { items: Invoice[] }).items;
}

test('a month later, two processes renew a paid subscription once', async () => {
  test.setTimeout(300_000);
  await withScratchDatabase(async (databaseUrl) => {
    let servers: ChildProcess[] = [];
    try {
      for (const port of PORTS) servers.push(await startApiProcess(port, databaseUrl, PORTS));
      const one = await contextOf(PORTS[0]);
      const email = `renew-${Date.now()}@example.test`;
      const password = 'Orbit-guard-2026';
      expect((await one.post('/api/auth/register', { data: { name: 'Renew', email, password } })).status()).toBe(201);
      const outbox = (await (await one.get('/api/dev/outbox')).json()) as { items: { to: string; text: string }[] };
      const link = outbox.items.find((item) => item.to === email)?.text.match(/\/auth\/activation\/(\S+)/)?.[1];
      expect((await one.post('/api/auth/activate', { data: { token: link } })).ok()).toBe(true);
      expect((await one.post('/api/auth/login', { data: { email, password } })).ok()).toBe(true);
      const space = (await (await one.post('/api/spaces', { data: { name: 'Renewals' } })).json()) as { id: string };
      const paid = await one.post(`/api/spaces/${space.id}/subscription/checkout`, {
        headers: { 'idempotency-key': 'first-month' },
        data: {
          plan: 'pro',
          interval: 'month',
          card: { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: '123' },
        },
      });
      expect(paid.status()).toBe(200);
      const [first] = await invoices(one, space.id);
      expect(first).toMatchObject({ number: 'INV-0001', kind: 'subscribe', status: 'paid' });
      await one.dispose();

      // A month and a day later, on both processes.
      for (const server of servers) await stopApiProcess(server);
      servers = [];
      for (const port of PORTS)
        servers.push(await startApiProcess(port, databaseUrl, PORTS, { DEV_CLOCK_OFFSET_DAYS: '32' }));
      const later = await contextOf(PORTS[1]);
      expect((await later.post('/api/auth/login', { data: { email, password } })).ok()).toBe(true);
      await expect
        .poll(async () => (await invoices(later, space.id)).length, { timeout: 120_000, intervals: [1_000] })
        .toBe(2);
      // Both runners have had their window: still one renewal.
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      try {
        await expect
          .poll(
            async () =>
              (
                await db.query(
                  `select count(*)::int as n from jobs where kind = 'billing.renew' and state = 'completed'`,
                )
              ).rows[0].n as number,
            { timeout: 60_000, intervals: [1_000] },
          )
          .toBeGreaterThanOrEqual(1);
      } finally {
        await db.end();
      }
      const all = await invoices(later, space.id);
      expect(all).toHaveLength(2);
      const renewal = all.find((invoice) => invoice.kind === 'renewal');
      expect(renewal).toMatchObject({ number: 'INV-0002', status: 'paid', period: { start: first?.period.end } });
      const subscription = (await (await later.get(`/api/spaces/${space.id}/subscription`)).json()) as {
        plan: string;
        status: string;
        period: { start: string };
      };
      expect(subscription).toMatchObject({ plan: 'pro', status: 'active', period: { start: first?.period.end } });
      await later.dispose();
    } finally {
      for (const server of servers) await stopApiProcess(server);
    }
  });
});
