import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { outbox } from '../../db/schema/outbox.ts';
import { createTestApi, freshDatabase, type TestApi } from '../../test/harness.ts';
import { createMailer } from './mailer.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

type Received = { from: string; to: string[]; data: string };
const received: Received[] = [];
let server: SMTPServer;
let t: TestApi;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  t = await createTestApi({
    config: { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: 'Spaceguard <guard@example.com>' },
  });
});

afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test('with SMTP_URL, the activation mail goes through a real SMTP server and not to the outbox', async () => {
  const res = await t.read(
    t.api().auth.register.$post({ json: { name: 'Sam', email: 'sam@example.com', password: 'correct horse 42' } }),
  );
  expect(res.status).toBe(201);
  expect(received).toHaveLength(1);
  const mail = received[0];
  expect(mail?.from).toBe('guard@example.com');
  expect(mail?.to).toEqual(['sam@example.com']);
  expect(mail?.data).toMatch(/Subject: Activate your Spaceguard account/);
  const link = mail?.data.replace(/=\r?\n/g, '').match(/http:\/\/localhost:4321\/auth\/activation\/([A-Za-z0-9_-]+)/);
  expect(link?.[1]).toBeTruthy();
  expect(await t.db.select().from(outbox)).toEqual([]);
  const activated = await t.raw('POST', '/api/auth/activate', { body: { token: link?.[1] } });
  expect(activated.status).toBe(200);
  expect((await t.raw('GET', '/api/dev/outbox')).json.items).toEqual([]);
});

test.each([
  [false, true],
  [true, false],
])(
  'without SMTP (production %s) the mail is kept in the outbox; its text is logged: %s',
  async (production, logged) => {
    const { database, drop } = await freshDatabase();
    const lines: Record<string, unknown>[] = [];
    const mailer = createMailer({
      db: database.db,
      log: (line) => lines.push(line),
      now: t.deps.now,
      from: 'x@example.com',
      production,
    });
    await mailer.send({ to: 'ada@example.com', subject: 'Reset', text: 'https://spaceguard.test/auth/reset/SECRET' });
    expect(await database.db.select().from(outbox)).toHaveLength(1);
    expect(JSON.stringify(lines).includes('SECRET')).toBe(logged);
    await drop();
  },
);
