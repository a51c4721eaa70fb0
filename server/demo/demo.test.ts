import { and, arrayContains, count, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { alertRules, alerts } from '../db/schema/alerts.ts';
import { apiTokens } from '../db/schema/api-tokens.ts';
import { events } from '../db/schema/events.ts';
import { ingestBatches } from '../db/schema/ingest-batches.ts';
import { spaces } from '../db/schema/spaces.ts';
import { runAlertJobs } from '../test/alerts.ts';
import { BASE, createTestApi, type TestApi } from '../test/harness.ts';
import {
  DEMO_EMAIL,
  DEMO_FIREWALL,
  DEMO_RULES,
  type SeededDemo,
  seedDemo,
  startTrickle,
  trickleCount,
} from './seed.ts';
import { createTraffic } from './traffic.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let t: TestApi;
let first: SeededDemo;
const now = new Date();
const send = (path: string, init: RequestInit) => t.app.request(`${BASE}${path}`, init);

async function stored(spaceId: string): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(events).where(eq(events.spaceId, spaceId));
  return row?.n ?? 0;
}

beforeAll(async () => {
  t = await createTestApi();
  first = await seedDemo({ db: t.db, send, now, events: 2500, seed: 11 });
});
afterAll(async () => {
  await t.close();
});

describe('npm run demo seeding', () => {
  test('the demo user signs in with the printed password and sees the space "Demo shop"', async () => {
    expect(first.reset).toBe(false);
    const { cookie } = await t.signIn(DEMO_EMAIL, first.password);
    const list = await t.read(t.api(cookie).spaces.$get());
    expect(list.json.items.map((s: { name: string }) => s.name)).toEqual(['Demo shop']);
    const sources = await t.read(t.api(cookie).spaces[':spaceId'].sources.$get({ param: { spaceId: first.spaceId } }));
    expect(sources.json.items.map((s: { kind: string }) => s.kind)).toEqual(['modsecurity']);
    // The setup's API token is gone again.
    expect(await t.db.select().from(apiTokens)).toEqual([]);
  });

  test('the week arrived through the ingest API in batches of 1 000 with Idempotency-Key', async () => {
    expect(first.accepted).toBe(2500);
    expect(await stored(first.spaceId)).toBe(2500);
    const batches = await t.db.select().from(ingestBatches);
    expect(batches.map((b) => b.idempotencyKey)).toHaveLength(3);
    expect(batches.every((b) => b.status === 200 && b.idempotencyKey.startsWith('demo-11-'))).toBe(true);
  });

  test('the event API finds the attacks, blocked ones and countries over the last 7 days', async () => {
    const { cookie } = await t.signIn(DEMO_EMAIL, first.password);
    const from = new Date(now.getTime() - 7 * 86_400_000).toISOString();
    const facets = await t.read(
      t.api(cookie).spaces[':spaceId'].events.facets.$get({
        param: { spaceId: first.spaceId },
        query: { from, to: now.toISOString(), size: '50' },
      }),
    );
    expect(facets.status).toBe(200);
    expect(facets.json.total).toBe(2500);
    const tags = facets.json.tag.map((f: { value: string }) => f.value);
    expect(tags).toEqual(expect.arrayContaining(['attack-sqli', 'attack-xss', 'attack-lfi', 'attack-rce']));
    expect(facets.json.country.length).toBeGreaterThanOrEqual(15);
    expect(facets.json.action.map((f: { value: string }) => f.value).sort()).toEqual(['allowed', 'blocked', 'logged']);

    const sqli = await t.read(
      t.api(cookie).spaces[':spaceId'].events.$get({
        param: { spaceId: first.spaceId },
        query: { from, to: now.toISOString(), q: 'tag:attack-sqli', limit: '5' },
      }),
    );
    expect(sqli.status).toBe(200);
    expect(sqli.json.items).toHaveLength(5);
    for (const event of sqli.json.items) {
      expect(event.tags).toContain('attack-sqli');
      expect(event).not.toHaveProperty('raw');
    }
    // The page's rows leave the raw record out; the event's detail has it.
    const detail = await t.read(
      t.api(cookie).spaces[':spaceId'].events[':eventId'].$get({
        param: { spaceId: first.spaceId, eventId: sqli.json.items[0].id },
      }),
    );
    expect(detail.json.raw.transaction.producer.modsecurity).toBe('ModSecurity v3.0.9 (Linux)');
    const histogram = await t.read(
      t.api(cookie).spaces[':spaceId'].events.histogram.$get({
        param: { spaceId: first.spaceId },
        query: { from, to: now.toISOString(), buckets: '7' },
      }),
    );
    // Whole UTC days: the first and last buckets hold only the part of their day inside the range.
    const totals: number[] = histogram.json.buckets.map((b: { total: number }) => b.total);
    expect(histogram.json.intervalSeconds).toBe(86_400);
    expect(totals.slice(1, -1).every((n) => n > 100)).toBe(true);
    expect(totals.reduce((a, b) => a + b, 0)).toBe(facets.json.total);
  });

  test('the demo has a firewall in front of the shop, and every WAF event is attributed to it', async () => {
    const { cookie } = await t.signIn(DEMO_EMAIL, first.password);
    const list = await t.read(t.api(cookie).spaces[':spaceId'].firewalls.$get({ param: { spaceId: first.spaceId } }));
    expect(list.json.items.map((f: { id: string; name: string }) => [f.id, f.name])).toEqual([
      [first.firewallId, DEMO_FIREWALL],
    ]);
    const [unattributed] = await t.db
      .select({ n: count() })
      .from(events)
      .where(and(eq(events.spaceId, first.spaceId), isNull(events.firewallId)));
    expect(unattributed?.n).toBe(0);
  });

  test('the storefront is assessed against the vendored OSV advisories and has open findings', async () => {
    const { cookie } = await t.signIn(DEMO_EMAIL, first.password);
    const found = await t.read(
      t.api(cookie).spaces[':spaceId'].findings.$get({ param: { spaceId: first.spaceId }, query: { limit: '50' } }),
    );
    const vulns = found.json.items.map((f: { vulnId: string; component: { name: string } }) => f.vulnId).sort();
    expect(vulns).toEqual([
      'GHSA-35jh-r3h4-6jhm',
      'GHSA-cph5-m8f7-6c5x',
      'GHSA-hrpp-h998-j3pp',
      'GHSA-rv95-896h-c2vc',
      'GHSA-xvch-5gv4-984h',
    ]);
    expect(found.json.counts.open.critical).toBe(1);
  });

  test("the demo's alert rules open an alert per attacked host, counting every attack the week sent", async () => {
    await runAlertJobs(t.db, { now: t.deps.now });
    const [sqli] = await t.db
      .select({ id: alertRules.id })
      .from(alertRules)
      .where(eq(alertRules.name, DEMO_RULES[0].name));
    const opened = await t.db
      .select({ title: alerts.title, count: alerts.count, host: sql<string>`${alerts.groupValues}->>'host'` })
      .from(alerts)
      .where(eq(alerts.ruleId, sqli?.id ?? ''));
    const attacks = await t.db
      .select({ host: events.host, n: count() })
      .from(events)
      .where(and(eq(events.spaceId, first.spaceId), arrayContains(events.tags, ['attack-sqli'])))
      .groupBy(events.host);
    expect(attacks.length).toBeGreaterThan(0);
    expect(new Map(opened.map((alert) => [alert.host, alert.count]))).toEqual(
      new Map(attacks.map((attack) => [attack.host, attack.n])),
    );
    expect(opened.every((alert) => alert.title === `SQL injection against ${alert.host}`)).toBe(true);
  });

  test('the space is on the Pro plan, so a long-running trickle never meets the free quota', async () => {
    const [space] = await t.db.select().from(spaces).where(eq(spaces.id, first.spaceId));
    expect(space?.plan).toBe('pro');
  });

  test('the trickle sends events every interval until stopped', async () => {
    const before = await stored(first.spaceId);
    const trickle = startTrickle({
      send,
      token: first.sourceToken,
      firewallId: first.firewallId,
      traffic: first.traffic,
      since: new Date(Date.now() - 5000),
      // 100 events a second, so a test interval carries some.
      eventsPerWeek: 60_480_000,
      intervalMs: 50,
      now: t.deps.now,
    });
    await vi.waitFor(() => expect(trickle.sent()).toBeGreaterThan(0), { timeout: 10_000 });
    await trickle.stop();
    const sent = trickle.sent();
    expect(await stored(first.spaceId)).toBe(before + sent);
  });

  test('the live trickle keeps the rate of the seeded week: no jump in events per hour when the demo starts', () => {
    const perWeek = 40_000;
    // The seeded week's last hours, as the demo's first run sends them, and the trickle's first hour after it.
    const end = Date.UTC(2026, 10, 24, 9);
    const traffic = createTraffic(3);
    const week = traffic.between(new Date(end - 7 * 86_400_000), new Date(end), perWeek);
    // The same three hours of the day before (a weekday too: 2026-11-24 is a Tuesday).
    const dayBefore = end - 86_400_000;
    const seededSameHours = week.filter((r) => {
      const time = Date.parse(`${r.transaction.time_stamp} UTC`);
      return time >= dayBefore && time < dayBefore + 3 * 3_600_000;
    });
    let carry = 0;
    let live = 0;
    for (let t = end; t < end + 3 * 3_600_000; t += 3000) {
      const next = trickleCount(t, t + 3000, perWeek, carry);
      carry = next.carry;
      live += next.count;
    }
    // The trickle's first three hours against the same hours of the seeded day before: the same curve, give or take
    // one sample's randomness (the trickle used to send about one event a second, 15 times the week's rate).
    expect(seededSameHours.length).toBeGreaterThan(300);
    expect(live).toBeGreaterThan(seededSameHours.length * 0.6);
    expect(live).toBeLessThan(seededSameHours.length * 1.6);
  });

  test('a second run resets the password, reuses the space and fills only the gap', async () => {
    const before = await stored(first.spaceId);
    const later = new Date(Date.now() + 3 * 3_600_000);
    const again = await seedDemo({ db: t.db, send, now: later, events: 2500, seed: 11 });
    expect(again.reset).toBe(true);
    expect(again.password).not.toBe(first.password);
    expect(again.spaceId).toBe(first.spaceId);
    expect(again.firewallId).toBe(first.firewallId);
    // Three hours of a 2 500-events week, give or take rounding.
    expect(again.accepted).toBeGreaterThan(20);
    expect(again.accepted).toBeLessThan(80);
    expect(await stored(first.spaceId)).toBe(before + again.accepted);
    const old = await t.read(t.api().auth.login.$post({ json: { email: DEMO_EMAIL, password: first.password } }));
    expect(old.status).toBe(401);
    await t.signIn(DEMO_EMAIL, again.password);
    // The rotated source token works, the old one no longer does.
    const refused = await send(`/api/ingest/${first.sourceToken}`, { method: 'POST', body: '' });
    expect(refused.status).toBe(401);
  });
});
