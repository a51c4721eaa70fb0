/**
 * Alerts' background work in the real server (its job runner, its minute scheduler): a local webhook receiver gets
 * the opened and resolved deliveries, signed (checked here with node:crypto, independently of the server's code),
 * the first retried after a 500 with the same delivery id; a snooze runs out and the alert is open again; a silence
 * rule fires when a source stops sending.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BASE_URL } from './base-url.ts';
import { expect, newSpace, test } from './fixtures.ts';

const headers = { origin: BASE_URL };
const SECRET = 'e2e-webhook-secret-0123456789';

type Received = { headers: IncomingHttpHeaders; body: string; answered: number };

/** A webhook receiver on 127.0.0.1 answering 500 to its first request and 200 after. */
async function startReceiver() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answered = received.length === 0 ? 500 : 200;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    stop: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

/** The signature a receiver computes: HMAC-SHA256 of "<timestamp>.<body>" with the secret, as `sha256=<hex>`. */
const signatureOf = (timestamp: string, body: string) =>
  `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex')}`;

test('webhooks signed and retried, a snooze that runs out, a silence rule firing', async ({ page }) => {
  test.setTimeout(240_000);
  const receiver = await startReceiver();
  try {
    const spaceId = await newSpace(page.request, `Background ${Date.now()}`);
    const api = `/api/spaces/${spaceId}`;
    const source = await page.request.post(`${api}/sources`, { data: { name: 'edge', kind: 'json' }, headers });
    const { id: sourceId, token } = (await source.json()) as { id: string; token: string };
    const ingest = async (lines: object[]) => {
      const res = await page.request.fetch(`/api/ingest/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson', cookie: '' },
        data: lines.map((line) => JSON.stringify(line)).join('\n'),
      });
      expect(res.ok()).toBe(true);
    };
    await ingest([{ time: new Date().toISOString(), path: '/' }]);

    // A silence rule on the source: it has sent one event and then nothing for a minute.
    const silence = await page.request.post(`${api}/alert-rules`, {
      data: { name: 'Edge went quiet', severity: 'medium', kind: 'silence', sourceId, windowMinutes: 1 },
      headers,
    });
    expect(silence.status()).toBe(201);

    const rule = await page.request.post(`${api}/alert-rules`, {
      data: {
        name: 'SQL injection',
        severity: 'high',
        kind: 'match',
        query: 'tag:attack-sqli',
        groupBy: ['ip'],
        titleTemplate: 'SQL injection from {ip}',
        channels: [{ kind: 'webhook', url: receiver.url, secret: SECRET }],
      },
      headers,
    });
    expect(rule.status(), await rule.text()).toBe(201);
    await ingest(
      [1, 2, 3].map((i) => ({
        time: new Date(Date.now() - i * 1_000).toISOString(),
        ip: '198.51.100.7',
        path: `/search?q=${i}`,
        action: 'blocked',
        tags: ['attack-sqli'],
        ruleIds: [942100],
      })),
    );

    // The opened notification: a 500, then the retry with the same delivery id and a 200.
    await expect.poll(() => receiver.received.length, { timeout: 60_000, intervals: [500, 1_000] }).toBe(2);
    const [first, retry] = receiver.received as [Received, Received];
    expect(first.answered).toBe(500);
    expect(retry.headers['x-spaceguard-delivery']).toBe(first.headers['x-spaceguard-delivery']);
    const opened = JSON.parse(retry.body) as { type: string; alert: { id: string; status: string; count: number } };
    expect(opened).toMatchObject({ type: 'alert.opened', alert: { status: 'open', count: 3 } });

    // Snoozed for a few seconds: the minute's scheduler returns it to open.
    const until = new Date(Date.now() + 5_000).toISOString();
    const snoozed = await page.request.patch(`${api}/alerts/${opened.alert.id}`, {
      data: { snoozedUntil: until, reason: 'Short look away' },
      headers,
    });
    expect(((await snoozed.json()) as { status: string }).status).toBe('acknowledged');
    await expect
      .poll(
        async () =>
          ((await (await page.request.get(`${api}/alerts/${opened.alert.id}`)).json()) as { status: string }).status,
        { timeout: 90_000, intervals: [2_000] },
      )
      .toBe('open');

    // Resolved on its page: the resolved notification follows.
    await page.goto(`/console/alert/${spaceId}/${opened.alert.id}`);
    await page.getByRole('region', { name: 'Triage' }).getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(3);
    const resolved = JSON.parse(receiver.received[2]?.body ?? '{}') as { type: string; alert: { status: string } };
    expect(resolved).toMatchObject({ type: 'alert.resolved', alert: { status: 'resolved' } });

    // Every request signed with the channel's secret over "<timestamp>.<body>".
    for (const request of receiver.received) {
      const timestamp = String(request.headers['x-spaceguard-timestamp']);
      expect(request.headers['x-spaceguard-signature']).toBe(signatureOf(timestamp, request.body));
    }
    // The alert's page lists the deliveries with their attempts.
    await page.reload();
    const deliveries = page.getByRole('table', { name: 'Notifications' });
    await expect(deliveries.getByRole('row').filter({ hasText: 'alert.opened' })).toContainText('#1 500, #2 200');
    await expect(deliveries.getByRole('row').filter({ hasText: 'alert.resolved' })).toContainText('#1 200');

    // By now the source has been quiet for over a minute: the silence rule fired.
    await expect
      .poll(
        async () => {
          const list = await page.request.get(`${api}/alerts?q=quiet`);
          return ((await list.json()) as { items: { title: string }[] }).items.map((a) => a.title);
        },
        { timeout: 120_000, intervals: [2_000, 5_000] },
      )
      .toEqual(['No events from edge for 1 minute']);
  } finally {
    await receiver.stop();
  }
});
