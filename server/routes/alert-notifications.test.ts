import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { Role } from '../../contract/common.ts';
import { activity } from '../db/schema/activity.ts';
import { alertRules, type StoredChannel } from '../db/schema/alerts.ts';
import { alertDeliveries } from '../db/schema/notifications.ts';
import { outbox } from '../db/schema/outbox.ts';
import { verifyWebhookSignature } from '../services/notifications/sign.ts';
import { BASE, createTestApi, type TestApi } from '../test/harness.ts';
import { spaceWithRoles } from '../test/space-roles.ts';
import { deadPort, startReceiver } from '../test/webhook-receiver.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const secret = 'whsec-route-test-secret-1';
let t: TestApi;
let as: Record<Role | 'stranger', string>;
let spaceId: string;
let otherSpaceId: string;
let ok: Awaited<ReturnType<typeof startReceiver>>;
let broken: Awaited<ReturnType<typeof startReceiver>>;
let dead: string;

beforeAll(async () => {
  t = await createTestApi();
  ok = await startReceiver([200]);
  broken = await startReceiver([500]);
  dead = `http://127.0.0.1:${await deadPort()}/hook`;
  ({ spaceId, otherSpaceId, as } = await spaceWithRoles(t, 'Alerts'));
});
afterAll(async () => {
  await ok?.stop();
  await broken?.stop();
  await t.close();
});

/** A rule of the space notifying `channels`, inserted as the rules service would store it. */
async function ruleWith(channels: StoredChannel[], space = spaceId) {
  const [rule] = await t.db
    .insert(alertRules)
    .values({
      spaceId: space,
      name: `Rule ${Math.random()}`,
      severity: 'critical',
      kind: 'match',
      query: 'tag:attack-sqli',
      channels,
      createdAt: t.deps.now(),
      updatedAt: t.deps.now(),
    })
    .returning();
  if (!rule) throw new Error('no rule');
  return rule;
}

test('an admin sends a test to every channel and reads how each went', async () => {
  const rule = await ruleWith([
    { kind: 'webhook', url: ok.url, secret },
    { kind: 'webhook', url: broken.url, secret },
    { kind: 'webhook', url: dead, secret },
    { kind: 'webhook', url: 'http://10.20.30.40/hook', secret },
    { kind: 'email', to: ['soc@example.com', 'lead@example.com'] },
  ]);
  const res = await t.read(
    t.api(as.admin).spaces[':spaceId']['alert-rules'][':id'].test.$post({ param: { spaceId, id: rule.id } }),
  );
  expect(res.status).toBe(200);
  expect(res.json.results).toEqual([
    { channel: 'webhook', target: ok.url, ok: true, statusCode: 200, message: 'Delivered: 200 OK' },
    { channel: 'webhook', target: broken.url, ok: false, statusCode: 500, message: 'The receiver answered 500' },
    { channel: 'webhook', target: dead, ok: false, statusCode: null, message: 'Could not connect: ECONNREFUSED' },
    {
      channel: 'webhook',
      target: 'http://10.20.30.40/hook',
      ok: false,
      statusCode: null,
      message:
        'url: “10.20.30.40” is a private address (10.0.0.0/8); webhooks must reach a public address. List the host in WEBHOOK_ALLOWED_HOSTS to allow it.',
    },
    {
      channel: 'email',
      target: 'soc@example.com, lead@example.com',
      ok: true,
      statusCode: null,
      message: 'Sent to 2 addresses',
    },
  ]);

  // The receiver got a signed `test` notification of the rule.
  const request = ok.received.at(-1);
  const body = JSON.parse(request?.body ?? '{}');
  expect(body).toMatchObject({
    type: 'test',
    alert: { severity: 'critical', status: 'open', count: 0, ruleId: rule.id, url: `${BASE}/console/alert/${spaceId}` },
    space: { id: spaceId, name: 'Alerts' },
  });
  expect(request?.headers['x-spaceguard-delivery']).toBe(body.id);
  const ts = String(request?.headers['x-spaceguard-timestamp']);
  expect(
    verifyWebhookSignature(secret, ts, request?.body ?? '', String(request?.headers['x-spaceguard-signature'])),
  ).toBe(true);
  for (const to of ['soc@example.com', 'lead@example.com']) {
    const [mail] = await t.db.select().from(outbox).where(eq(outbox.to, to));
    expect(mail?.subject).toContain('Test notification');
  }

  // One delivery per channel, without an alert, in the log with its one attempt.
  const rows = await t.db
    .select()
    .from(alertDeliveries)
    .where(and(eq(alertDeliveries.ruleId, rule.id), isNull(alertDeliveries.alertId)));
  expect(rows).toHaveLength(5);
  expect(rows.every((r) => r.type === 'test' && r.attemptCount === 1)).toBe(true);
  const byTarget = new Map(rows.map((r) => [r.target, r]));
  expect(byTarget.get(ok.url)).toMatchObject({ id: body.id, status: 'delivered' });
  expect(byTarget.get(broken.url)?.status).toBe('failed');
  expect(byTarget.get(broken.url)?.attempts[0]).toMatchObject({ attempt: 1, statusCode: 500 });

  const [record] = await t.db
    .select()
    .from(activity)
    .where(and(eq(activity.action, 'alert_rule.test'), eq(activity.objectId, rule.id)));
  expect(record).toMatchObject({ spaceId, objectType: 'alert_rule', actorName: 'admin person' });
});

test('the owner may send a test; analysts and viewers get 403 and nothing is sent', async () => {
  const rule = await ruleWith([{ kind: 'webhook', url: ok.url, secret }]);
  const before = ok.received.length;
  for (const role of ['analyst', 'viewer'] as const) {
    const res = await t.read(
      t.api(as[role]).spaces[':spaceId']['alert-rules'][':id'].test.$post({ param: { spaceId, id: rule.id } }),
    );
    expect(res.status, role).toBe(403);
  }
  expect(ok.received.length).toBe(before);
  const res = await t.read(
    t.api(as.owner).spaces[':spaceId']['alert-rules'][':id'].test.$post({ param: { spaceId, id: rule.id } }),
  );
  expect(res.status).toBe(200);
  expect(res.json.results).toHaveLength(1);
  expect(ok.received.length).toBe(before + 1);
});

test('a rule of another space is not found, from either space', async () => {
  const foreign = await ruleWith([{ kind: 'webhook', url: ok.url, secret }], otherSpaceId);
  const before = ok.received.length;
  // Through the caller's own space, naming the other space's rule.
  const viaOwn = await t.read(
    t.api(as.admin).spaces[':spaceId']['alert-rules'][':id'].test.$post({ param: { spaceId, id: foreign.id } }),
  );
  expect(viaOwn.status).toBe(404);
  expect(viaOwn.json.error.message).toBe('No such alert rule.');
  // Through the other space, where the caller is no member.
  expect(
    (
      await t.read(
        t
          .api(as.admin)
          .spaces[':spaceId']['alert-rules'][':id'].test.$post({ param: { spaceId: otherSpaceId, id: foreign.id } }),
      )
    ).status,
  ).toBe(404);
  expect(ok.received.length).toBe(before);
});

test('a rule without channels answers no results', async () => {
  const rule = await ruleWith([]);
  const res = await t.read(
    t.api(as.admin).spaces[':spaceId']['alert-rules'][':id'].test.$post({ param: { spaceId, id: rule.id } }),
  );
  expect(res.status).toBe(200);
  expect(res.json).toEqual({ results: [] });
});
