/**
 * Two API processes (`server/start.js`, as `npm start` runs it) against one PostgreSQL database: each minute's
 * threshold window is evaluated once, so the attack opens one alert per IP whose count is the number of events, not
 * twice that, whichever process ingested the events or ran the jobs. PostgreSQL from E2E_PG_URL (default the local
 * server's `test` database, as `npm run test:api:pg` uses); a database of its own is created and dropped here.
 */
import type { ChildProcess } from 'node:child_process';
import { expect, request as playwrightRequest, test } from '@playwright/test';
import pg from 'pg';
import { startApiProcess, stopApiProcess, withScratchDatabase } from './api-processes.ts';

const PORTS = [4411, 4412] as const;

test('two API processes on one PostgreSQL evaluate each threshold window once', async () => {
  test.setTimeout(300_000);
  await withScratchDatabase(async (databaseUrl) => {
    const servers: ChildProcess[] = [];
    try {
      // One after the other: the second finds the migrations applied.
      for (const port of PORTS) servers.push(await startApiProcess(port, databaseUrl, PORTS));
      const contextOf = (port: number) =>
        playwrightRequest.newContext({
          baseURL: `http://127.0.0.1:${port}`,
          extraHTTPHeaders: { origin: `http://127.0.0.1:${port}` },
        });
      const one = await contextOf(PORTS[0]);
      const two = await contextOf(PORTS[1]);

      // An account through process A (its activation mail read from the shared outbox).
      const email = `two-${Date.now()}@example.test`;
      const password = 'Orbit-guard-2026';
      expect((await one.post('/api/auth/register', { data: { name: 'Two', email, password } })).status()).toBe(201);
      const outbox = (await (await one.get('/api/dev/outbox')).json()) as { items: { to: string; text: string }[] };
      const link = outbox.items.find((item) => item.to === email)?.text.match(/\/auth\/activation\/(\S+)/)?.[1];
      expect((await one.post('/api/auth/activate', { data: { token: link } })).ok()).toBe(true);
      expect((await one.post('/api/auth/login', { data: { email, password } })).ok()).toBe(true);
      const space = (await (await one.post('/api/spaces', { data: { name: 'Two processes' } })).json()) as {
        id: string;
      };
      const source = (await (
        await one.post(`/api/spaces/${space.id}/sources`, { data: { name: 'edge', kind: 'json' } })
      ).json()) as { token: string };
      const rule = await one.post(`/api/spaces/${space.id}/alert-rules`, {
        data: {
          name: 'Burst',
          severity: 'high',
          kind: 'threshold',
          query: 'tag:attack-sqli',
          threshold: 2,
          windowMinutes: 10,
          groupBy: ['ip'],
        },
      });
      expect(rule.status()).toBe(201);

      // Events through process B, in two batches a little apart.
      const send = async (ip: string, n: number) => {
        const lines = Array.from({ length: n }, (_, i) =>
          JSON.stringify({
            time: new Date(Date.now() - i * 1_000).toISOString(),
            ip,
            tags: ['attack-sqli'],
            action: 'blocked',
          }),
        );
        const res = await two.post(`/api/ingest/${source.token}`, {
          headers: { 'content-type': 'application/x-ndjson' },
          data: lines.join('\n'),
        });
        expect(res.ok()).toBe(true);
      };
      await send('198.51.100.1', 4);
      await send('198.51.100.2', 3);

      // Wait for two minute windows of the scheduler to have run (either process may run them).
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      try {
        await expect
          .poll(
            async () =>
              (
                await db.query(
                  `select count(*)::int as n from jobs where kind = 'alerts.schedule' and state = 'completed'`,
                )
              ).rows[0].n as number,
            { timeout: 150_000, intervals: [2_000] },
          )
          .toBeGreaterThanOrEqual(1);
        await send('198.51.100.1', 2);
        await expect
          .poll(
            async () => {
              const list = (await (await one.get(`/api/spaces/${space.id}/alerts`)).json()) as {
                items: { group: { ip: string }; count: number }[];
              };
              return list.items.map((alert) => [alert.group.ip, alert.count]).sort();
            },
            { timeout: 90_000, intervals: [2_000] },
          )
          .toEqual([
            ['198.51.100.1', 6],
            ['198.51.100.2', 3],
          ]);
        // Every evaluation window ran once, in one attempt, and each group opened once.
        const evaluations = await db.query(
          `select unique_key, attempt, state from jobs where kind = 'alerts.evaluate' order by unique_key`,
        );
        expect(new Set(evaluations.rows.map((row) => row.unique_key)).size).toBe(evaluations.rows.length);
        for (const row of evaluations.rows) expect([row.unique_key, row.attempt]).toEqual([row.unique_key, 1]);
        const opened = await db.query(`select count(*)::int as n from triage_records where decision = 'opened'`);
        expect(opened.rows[0].n).toBe(2);
      } finally {
        await db.end();
      }
      await one.dispose();
      await two.dispose();
    } finally {
      await Promise.all(servers.map(stopApiProcess));
    }
  });
});
