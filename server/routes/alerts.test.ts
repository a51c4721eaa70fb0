/** The alert rules and alerts API: roles, validation naming the field, filters, bulk work, notes, notifications. */
import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Role } from '../../contract/common.ts';
import { activity } from '../db/schema/activity.ts';
import { memberships } from '../db/schema/memberships.ts';
import { spaces } from '../db/schema/spaces.ts';
import { verifyWebhookSignature } from '../services/notifications/sign.ts';
import { runAlertJobs } from '../test/alerts.ts';
import { BASE, createTestApi, type TestApi } from '../test/harness.ts';
import { testClock } from '../test/jobs.ts';
import { startReceiver } from '../test/webhook-receiver.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
const as = {} as Record<Role, string>;
const ids = {} as Record<Role, string>;
let spaceId: string;
let token: string;
const clock = testClock('2026-11-23T08:00:00Z');

beforeAll(async () => {
  t = await createTestApi({ now: clock.now });
  const owner = await t.signUp('owner@example.com', 'Olive');
  as.owner = owner.cookie;
  ids.owner = owner.user.id;
  spaceId = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Edge' } }))).json.id;
  await t.db.update(spaces).set({ plan: 'business' }).where(eq(spaces.id, spaceId));
  for (const role of ['admin', 'analyst', 'viewer'] as const) {
    const { cookie, user } = await t.signUp(`${role}@example.com`, `${role[0]?.toUpperCase()}${role.slice(1)}`);
    await t.db.insert(memberships).values({ spaceId, userId: user.id, role, createdAt: clock.now() });
    as[role] = cookie;
    ids[role] = user.id;
  }
  const source = await t.read(
    t.api(as.owner).spaces[':spaceId'].sources.$post({ param: { spaceId }, json: { name: 'edge', kind: 'json' } }),
  );
  token = source.json.token;
});
afterAll(async () => {
  await t.close();
});

const rules = () => `/api/spaces/${spaceId}/alert-rules`;
const alertsPath = () => `/api/spaces/${spaceId}/alerts`;

async function ingest(records: object[]) {
  const res = await t.app.request(`${BASE}/api/ingest/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: records.map((r) => JSON.stringify(r)).join('\n'),
  });
  expect(res.status).toBe(200);
}

/** One event per IP, tagged with `tag`, at the clock's time. */
const hits = (tag: string, ipList: string[]) =>
  ipList.map((ip) => ({ time: clock.now().toISOString(), ip, tags: [tag], action: 'blocked', severity: 'high' }));

async function rule(body: Record<string, unknown>, cookie = as.admin) {
  const res = await t.raw('POST', rules(), { cookie, body: { severity: 'high', kind: 'match', ...body } });
  if (res.status !== 201) throw new Error(`rule ${res.status} ${res.text}`);
  return res.json as { id: string };
}

async function fire() {
  clock.advance(1_000);
  await runAlertJobs(t.db, { now: clock.now, deliveries: true, deps: t.deps });
}

describe('alert rules', () => {
  test.each([
    ['owner', 201],
    ['admin', 201],
    ['analyst', 403],
    ['viewer', 403],
  ] as const)('%s creates a rule: %s', async (role, expected) => {
    const res = await t.read(
      t.api(as[role]).spaces[':spaceId']['alert-rules'].$post({
        param: { spaceId },
        json: { name: `by ${role}`, severity: 'low', kind: 'match', query: 'action:blocked' },
      }),
    );
    expect(res.status).toBe(expected);
  });

  test.each([
    [{ kind: 'threshold', query: 'tag:x' }, 'threshold', /needs a threshold/],
    [{ kind: 'threshold', query: 'tag:x', threshold: 5 }, 'windowMinutes', /needs a window/],
    [{ kind: 'silence', windowMinutes: 5 }, 'sourceId', /exactly one/],
    [{ kind: 'match', query: 'foo:bar' }, 'query', /Unknown field "foo"/],
    [{ kind: 'match', query: '', channels: [{ kind: 'webhook', url: 'ftp://x' }] }, 'channels.0.url', /http/],
    [
      { kind: 'match', query: '', channels: [{ kind: 'webhook', url: 'http://127.0.0.1:9/h' }] },
      'channels.0.secret',
      /secret/,
    ],
    [
      {
        kind: 'match',
        query: '',
        channels: [{ kind: 'webhook', url: 'http://[64:ff9b::10.0.0.1]/h', secret: 'a-long-enough-secret-1234' }],
      },
      'channels.0.url',
      /^url: “64:ff9b::a00:1” is a NAT64 form of 10\.0\.0\.1, a private address \(10\.0\.0\.0\/8\); webhooks must reach a public address/,
    ],
    [{ kind: 'match', query: '', channels: [{ kind: 'email', to: ['not-mail'] }] }, 'channels.0.to.0', /email/i],
    [{ kind: 'match', query: '', groupBy: ['ip', 'ip'] }, 'groupBy', /once/],
  ])('%o is refused on %s', async (body, field, message) => {
    const res = await t.raw('POST', rules(), {
      cookie: as.admin,
      body: { name: `bad ${Math.random()}`, severity: 'low', ...body },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.fields[field]).toMatch(message);
  });

  test('names are unique per space (409 naming the field); edits keep a webhook secret when none is given', async () => {
    const receiver = await startReceiver();
    try {
      const created = await rule({
        name: 'Webhook rule',
        query: 'tag:none',
        channels: [{ kind: 'webhook', url: receiver.url, secret: 'a-long-enough-secret-1234' }],
      });
      const again = await t.read(
        t.api(as.admin).spaces[':spaceId']['alert-rules'].$post({
          param: { spaceId },
          json: { name: 'webhook RULE', severity: 'low', kind: 'match' },
        }),
      );
      expect(again.status).toBe(409);
      expect(again.json.error.fields.name).toBeTruthy();
      const edited = await t.read(
        t.api(as.admin).spaces[':spaceId']['alert-rules'][':id'].$patch({
          param: { spaceId, id: created.id },
          json: { severity: 'critical', channels: [{ kind: 'webhook', url: receiver.url }] },
        }),
      );
      expect(edited.status).toBe(200);
      expect(edited.json.channels).toEqual([{ kind: 'webhook', url: receiver.url, secretHint: '…1234' }]);
      expect(JSON.stringify(edited.json)).not.toContain('a-long-enough-secret');
      const [audit] = await t.db.select().from(activity).where(eq(activity.action, 'alert_rule.update'));
      expect(audit?.change).toMatchObject({ severity: { from: 'high', to: 'critical' } });
      expect(JSON.stringify(audit?.change)).not.toContain('a-long-enough-secret');
    } finally {
      await receiver.stop();
    }
  });

  test('the free plan allows 5 rules, and the error names the plan that lifts it', async () => {
    const space = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Free one' } }))).json.id;
    for (let i = 0; i < 5; i++) {
      const res = await t.read(
        t.api(as.owner).spaces[':spaceId']['alert-rules'].$post({
          param: { spaceId: space },
          json: { name: `r${i}`, severity: 'low', kind: 'match' },
        }),
      );
      expect(res.status).toBe(201);
    }
    const sixth = await t.read(
      t.api(as.owner).spaces[':spaceId']['alert-rules'].$post({
        param: { spaceId: space },
        json: { name: 'r5', severity: 'low', kind: 'match' },
      }),
    );
    expect(sixth.status).toBe(402);
    expect(sixth.json.error).toEqual({
      code: 'plan_limit',
      message: 'Alert rules on Free: 5 of 5 used; Pro allows 50',
      limit: 'alertRules',
      plan: 'free',
      upgradeTo: 'pro',
    });
  });

  test('the preview counts what a rule would have done over stored events', async () => {
    await ingest(hits('attack-preview', ['192.0.2.1', '192.0.2.1', '192.0.2.1', '192.0.2.2']));
    clock.advance(1_000);
    const res = await t.read(
      t.api(as.analyst).spaces[':spaceId']['alert-rules'].preview.$post({
        param: { spaceId },
        json: { kind: 'match', query: 'tag:attack-preview', groupBy: ['ip'], titleTemplate: 'Probe from {ip}' },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.json.firings).toBe(4);
    expect(res.json.alerts).toBe(2);
    expect(res.json.groups.map((g: { title: string; events: number }) => [g.title, g.events])).toEqual([
      ['Probe from 192.0.2.1', 3],
      ['Probe from 192.0.2.2', 1],
    ]);
    const threshold = await t.read(
      t.api(as.analyst).spaces[':spaceId']['alert-rules'].preview.$post({
        param: { spaceId },
        json: { kind: 'threshold', query: 'tag:attack-preview', threshold: 2, windowMinutes: 5, groupBy: ['ip'] },
      }),
    );
    expect(threshold.json.groups.map((g: { group: { ip: string } }) => g.group.ip)).toEqual(['192.0.2.1']);
    expect(threshold.json.firings).toBeGreaterThanOrEqual(1);
    const viewer = await t.read(
      t.api(as.viewer).spaces[':spaceId']['alert-rules'].preview.$post({ param: { spaceId }, json: { kind: 'match' } }),
    );
    expect(viewer.status).toBe(403);
  });

  test('a preview reads the events in the search lane: while another space’s searches hold it, the preview waits its turn', async () => {
    const lane = t.deps.searches;
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const held: Promise<unknown>[] = [];
    try {
      // Another space's searches take every slot, and one more waits.
      while (lane.load().waiting === 0)
        held.push(lane.run('facets', 'another-space', async (db) => gate.then(() => db.execute(sql`select 1 as one`))));
      const preview = t.read(
        t.api(as.analyst).spaces[':spaceId']['alert-rules'].preview.$post({
          param: { spaceId },
          json: { kind: 'threshold', query: 'tag:attack-preview', threshold: 2, windowMinutes: 5, groupBy: ['ip'] },
        }),
      );
      await vi.waitFor(() => expect(lane.load().waiting).toBe(2), { timeout: 10_000 });
      open();
      expect((await preview).status).toBe(200);
    } finally {
      open();
      await Promise.all(held);
    }
    expect(lane.load()).toEqual({ running: 0, waiting: 0 });
  });
});

describe('alerts', () => {
  test('viewers read, analysts work: acknowledge with a reason, assign, note; every change audited', async () => {
    await rule({ name: 'Work me', query: 'tag:attack-work', groupBy: ['ip'] });
    await ingest(hits('attack-work', ['198.51.100.1']));
    await fire();
    const [alert] = (
      await t.read(t.api(as.viewer).spaces[':spaceId'].alerts.$get({ param: { spaceId }, query: { q: 'Work me' } }))
    ).json.items;
    expect(alert).toMatchObject({ status: 'open', count: 1, group: { ip: '198.51.100.1' } });

    const byViewer = await t.read(
      t.api(as.viewer).spaces[':spaceId'].alerts[':id'].$patch({
        param: { spaceId, id: alert.id },
        json: { status: 'acknowledged' },
      }),
    );
    expect(byViewer.status).toBe(403);
    const acked = await t.read(
      t.api(as.analyst).spaces[':spaceId'].alerts[':id'].$patch({
        param: { spaceId, id: alert.id },
        json: { status: 'acknowledged', assigneeId: ids.analyst, reason: 'Looking into it' },
      }),
    );
    expect(acked.status).toBe(200);
    expect(acked.json).toMatchObject({ status: 'acknowledged', assignee: { id: ids.analyst, name: 'Analyst' } });
    const outsider = await t.read(
      t.api(as.analyst).spaces[':spaceId'].alerts[':id'].$patch({
        param: { spaceId, id: alert.id },
        json: { assigneeId: '00000000-0000-4000-8000-000000000000' },
      }),
    );
    expect(outsider.status).toBe(400);
    expect(outsider.json.error.fields.assigneeId).toMatch(/member/);
    const note = await t.read(
      t.api(as.analyst).spaces[':spaceId'].alerts[':id'].notes.$post({
        param: { spaceId, id: alert.id },
        json: { body: 'Blocked at the **edge**; see <script>x</script>' },
      }),
    );
    expect(note.status).toBe(201);

    const detail = (
      await t.read(t.api(as.viewer).spaces[':spaceId'].alerts[':id'].$get({ param: { spaceId, id: alert.id } }))
    ).json;
    expect(
      detail.timeline.map((e: { decision: string; actor: { name: string }; reason: string | null }) => [
        e.decision,
        e.actor.name,
        e.reason,
      ]),
    ).toEqual([
      ['opened', 'Spaceguard', 'Work me fired'],
      ['acknowledged', 'Analyst', 'Looking into it'],
      ['assigned', 'Analyst', 'Looking into it'],
      ['noted', 'Analyst', null],
    ]);
    expect(detail.timeline[3].note).toBe('Blocked at the **edge**; see <script>x</script>');
    const audited = await t.db.select().from(activity).where(eq(activity.objectId, alert.id));
    expect(audited.map((a) => a.action).sort()).toEqual(['alert.note', 'alert.update']);
  });

  test('filters combine and are applied before the counts by severity; bulk acknowledge works on a filtered list', async () => {
    await rule({ name: 'Bulk crit', severity: 'critical', query: 'tag:attack-bulk', groupBy: ['ip'] });
    await rule({ name: 'Bulk low', severity: 'low', query: 'tag:attack-bulk-low', groupBy: ['ip'] });
    await ingest([
      ...hits('attack-bulk', ['203.0.113.1', '203.0.113.2', '203.0.113.3']),
      ...hits('attack-bulk-low', ['203.0.113.4']),
    ]);
    await fire();
    const filtered = await t.read(
      t.api(as.viewer).spaces[':spaceId'].alerts.$get({
        param: { spaceId },
        query: { q: 'Bulk', status: 'open', severity: 'critical' },
      }),
    );
    expect(filtered.json.items).toHaveLength(3);
    expect(filtered.json.counts).toMatchObject({ critical: 3, low: 1 });

    const bulk = await t.read(
      t.api(as.analyst).spaces[':spaceId'].alerts.bulk.$post({
        param: { spaceId },
        json: {
          ids: filtered.json.items.map((a: { id: string }) => a.id),
          status: 'acknowledged',
          reason: 'Known scanner',
        },
      }),
    );
    expect(bulk.status).toBe(200);
    expect(bulk.json.updated).toBe(3);
    const open = await t.read(
      t.api(as.viewer).spaces[':spaceId'].alerts.$get({ param: { spaceId }, query: { q: 'Bulk', status: 'open' } }),
    );
    expect(open.json.items.map((a: { ruleName: string }) => a.ruleName)).toEqual(['Bulk low']);

    const paged = await t.read(
      t.api(as.viewer).spaces[':spaceId'].alerts.$get({ param: { spaceId }, query: { q: 'Bulk', limit: '2' } }),
    );
    expect(paged.json.items).toHaveLength(2);
    const rest = await t.read(
      t.api(as.viewer).spaces[':spaceId'].alerts.$get({
        param: { spaceId },
        query: { q: 'Bulk', limit: '2', cursor: paged.json.nextCursor },
      }),
    );
    const seen = [...paged.json.items, ...rest.json.items].map((a: { id: string }) => a.id);
    expect(new Set(seen).size).toBe(4);
  });

  test('the space’s card on /spaces counts its open alerts by severity', async () => {
    const open = (
      await t.read(
        t.api(as.owner).spaces[':spaceId'].alerts.$get({ param: { spaceId }, query: { status: 'open', limit: '200' } }),
      )
    ).json.items as {
      severity: string;
    }[];
    expect(open.length).toBeGreaterThan(0);
    const expected = { critical: 0, high: 0, medium: 0, low: 0 };
    for (const alert of open) if (alert.severity in expected) expected[alert.severity as keyof typeof expected]++;
    const cards = (await t.read(t.api(as.owner).spaces.$get())).json.items as {
      id: string;
      openAlerts: typeof expected;
    }[];
    expect(cards.find((card) => card.id === spaceId)?.openAlerts).toEqual(expected);
  });

  test('another space’s alert is 404, and so is an unknown one', async () => {
    const other = (await t.read(t.api(as.admin).spaces.$post({ json: { name: 'Elsewhere' } }))).json.id;
    const [alert] = (await t.raw('GET', alertsPath(), { cookie: as.viewer })).json.items;
    const res = await t.read(
      t.api(as.admin).spaces[':spaceId'].alerts[':id'].$get({ param: { spaceId: other, id: alert.id } }),
    );
    expect(res.status).toBe(404);
  });
});

describe('WAF alerts', () => {
  test('an alert whose events came from one firewall shows its requests, matched rules and the mode then', async () => {
    const fw = await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls.$post({
        param: { spaceId },
        json: { name: 'shop', hostnames: ['shop.example.com'], upstream: 'http://127.0.0.1:3000', mode: 'detect' },
      }),
    );
    expect(fw.status).toBe(201);
    await rule({ name: 'WAF SQLi', query: `firewall:${fw.json.id} rule:942100`, groupBy: ['ip'] });
    clock.advance(60_000);
    // The recorded requests, as if they came after the firewall was made (its version 1).
    const audit = readFileSync(new URL('../services/ingest/fixtures/audit.ndjson', import.meta.url), 'utf8').replace(
      /"time_stamp":"[^"]*"/g,
      '"time_stamp":"Mon Nov 23 09:30:00 2026"',
    );
    const sent = await t.app.request(`${BASE}/api/connector/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fw.json.token}`, 'content-type': 'application/x-ndjson' },
      body: audit,
    });
    expect(sent.status).toBe(200);
    await fire();
    const [alert] = (
      await t.read(t.api(as.viewer).spaces[':spaceId'].alerts.$get({ param: { spaceId }, query: { q: 'WAF SQLi' } }))
    ).json.items;
    expect(alert.firewallId).toBe(fw.json.id);

    const context = await t.read(
      t
        .api(as.viewer)
        .spaces[':spaceId'].alerts[':id'].waf[':wafId'].$get({ param: { spaceId, id: alert.id, wafId: fw.json.id } }),
    );
    expect(context.status).toBe(200);
    expect(context.json.firewall).toMatchObject({ name: 'shop', mode: 'detect', version: 1 });
    expect(context.json.atFirstSeen).toMatchObject({ version: 1, mode: 'detect' });
    const [request] = context.json.requests;
    expect(request).toMatchObject({ method: 'GET', host: 'shop.example.com', path: '/products' });
    expect(request.args).toEqual([{ name: 'id', value: "1' or 1=1--" }]);
    expect(request.rules[0]).toMatchObject({
      id: 942100,
      message: 'SQL Injection Attack Detected via libinjection',
      data: "Matched Data: s&1c found within ARGS:id: 1' or 1=1--",
      severity: 'critical',
    });
    const wrongFirewall = await t.read(
      t
        .api(as.viewer)
        .spaces[':spaceId'].alerts[':id'].waf[':wafId'].$get({ param: { spaceId, id: alert.id, wafId: spaceId } }),
    );
    expect(wrongFirewall.status).toBe(404);
  });
});

describe('notifications', () => {
  test('a webhook receives signed opened and resolved deliveries, retried after a 500 with the same delivery id', async () => {
    const receiver = await startReceiver([500, 200, 200]);
    const secret = 'hook-secret-0123456789';
    try {
      await rule({
        name: 'Hooked',
        query: 'tag:attack-hook',
        groupBy: ['ip'],
        channels: [{ kind: 'webhook', url: receiver.url, secret }],
      });
      await ingest(hits('attack-hook', ['198.51.100.77']));
      await fire();
      // The first try got a 500: the retry waits for its backoff.
      clock.advance(60_000);
      await runAlertJobs(t.db, { now: clock.now, deliveries: true, deps: t.deps });
      const [alert] = (
        await t.read(t.api(as.viewer).spaces[':spaceId'].alerts.$get({ param: { spaceId }, query: { q: 'Hooked' } }))
      ).json.items;
      await t.read(
        t
          .api(as.analyst)
          .spaces[':spaceId'].alerts[':id'].$patch({ param: { spaceId, id: alert.id }, json: { status: 'resolved' } }),
      );
      await fire();

      expect(receiver.received).toHaveLength(3);
      const [first, retry, resolved] = receiver.received;
      expect(first?.headers['x-spaceguard-delivery']).toBe(retry?.headers['x-spaceguard-delivery']);
      for (const r of receiver.received) {
        const timestamp = String(r.headers['x-spaceguard-timestamp']);
        const signature = String(r.headers['x-spaceguard-signature']);
        expect(verifyWebhookSignature(secret, timestamp, r.body, signature, { toleranceSeconds: 10 ** 9 })).toBe(true);
      }
      expect(JSON.parse(retry?.body ?? '{}')).toMatchObject({
        type: 'alert.opened',
        alert: {
          id: alert.id,
          status: 'open',
          ruleId: alert.ruleId,
          url: `${BASE}/console/alert/${spaceId}/${alert.id}`,
        },
        space: { id: spaceId, name: 'Edge' },
      });
      expect(JSON.parse(resolved?.body ?? '{}')).toMatchObject({
        type: 'alert.resolved',
        alert: { status: 'resolved' },
      });
      const detail = (
        await t.read(t.api(as.viewer).spaces[':spaceId'].alerts[':id'].$get({ param: { spaceId, id: alert.id } }))
      ).json;
      const opened = detail.deliveries.find((d: { type: string }) => d.type === 'alert.opened');
      expect(opened.status).toBe('delivered');
      expect(opened.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
    } finally {
      await receiver.stop();
    }
  });
});
