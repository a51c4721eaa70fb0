/**
 * What `npm run demo` does once the server runs: a demo user with a fresh random password, the space
 * "Demo shop" with a ModSecurity source, a week of traffic sent through the real ingest API in batches of
 * 1 000, then a trickle while it runs. Speaks HTTP through `send`, so tests pass `app.request` instead.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { apiTokens } from '../db/schema/api-tokens.ts';
import { spaces } from '../db/schema/spaces.ts';
import { users } from '../db/schema/users.ts';
import { hashPassword } from '../services/accounts/passwords.ts';
import { hashToken, randomToken } from '../services/shared/tokens.ts';
import { createTraffic, type ModSecurityRecord, rhythm, type Traffic } from './traffic.ts';

export const DEMO_EMAIL = 'demo@spaceguard.test';
export const DEMO_SPACE = 'Demo shop';
export const DEMO_SOURCE = 'nginx ModSecurity (demo)';
/** The firewall in front of the shop: every demo event is attributed to it, so the WAF screens and remedies work. */
export const DEMO_FIREWALL = 'Shop edge';
const DEMO_HOSTS = ['shop.example.com', 'www.shop.example.com', 'api.shop.example.com', 'static.shop.example.com'];
const WEEK = 7 * 86_400_000;
/** The shop's storefront as an asset, with npm packages that published advisories (osv/) name. */
export const DEMO_ASSET = 'Storefront';
const DEMO_COMPONENTS = ['lodash@4.17.20', 'qs@6.7.0', 'express@4.17.1', 'minimist@1.2.5', 'axios@0.21.1'];

/** An HTTP call to the API by path (`/api/...`): global fetch against the server, or `app.request`. */
export type Send = (path: string, init: RequestInit) => Response | Promise<Response>;

/**
 * The demo user, activated, with a new random password (reset when the user exists from an earlier run).
 * Written straight to the database: the demo needs no mail round trip.
 */
export async function ensureDemoUser(db: Db, now: Date): Promise<{ id: string; password: string; reset: boolean }> {
  const password = randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password);
  const [existing] = await db.select().from(users).where(eq(users.email, DEMO_EMAIL));
  if (existing) {
    await db
      .update(users)
      .set({ passwordHash, activatedAt: existing.activatedAt ?? now, updatedAt: now })
      .where(eq(users.id, existing.id));
    return { id: existing.id, password, reset: true };
  }
  const [created] = await db
    .insert(users)
    .values({ email: DEMO_EMAIL, name: 'Demo', passwordHash, activatedAt: now, createdAt: now, updatedAt: now })
    .returning({ id: users.id });
  if (!created) throw new Error('insert returned nothing');
  return { id: created.id, password, reset: false };
}

async function call<T>(send: Send, method: string, path: string, bearer: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${bearer}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await send(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

/**
 * The space "Demo shop" and its ModSecurity source, through the API as the demo user (with a personal API
 * token that lives only for this setup). An existing source gets its token rotated: only its hash is stored.
 * The firewall "Shop edge" in front of the shop's hosts is made the same way (the API's one firewall-change path).
 * Answers the space, the source token, the firewall and the newest event already stored (null on a first run).
 */
export async function prepareDemoSpace(
  db: Db,
  send: Send,
  userId: string,
  now: Date,
): Promise<{ spaceId: string; sourceToken: string; firewallId: string; newest: Date | null }> {
  const bearer = randomToken('sgp_');
  const [token] = await db
    .insert(apiTokens)
    .values({
      userId,
      name: 'npm run demo (setup)',
      prefix: bearer.slice(0, 8),
      tokenHash: hashToken(bearer),
      createdAt: now,
    })
    .returning({ id: apiTokens.id });
  try {
    const list = await call<{ items: { id: string; name: string }[] }>(send, 'GET', '/api/spaces', bearer);
    let spaceId = list.items.find((s) => s.name === DEMO_SPACE)?.id;
    if (!spaceId) {
      const created = await call<{ id: string }>(send, 'POST', '/api/spaces', bearer, {
        name: DEMO_SPACE,
        description: 'A small web shop behind nginx + ModSecurity + OWASP CRS, seeded by `npm run demo`.',
      });
      spaceId = created.id;
    }
    // Pro plan: the trickle of a long-running demo would use up the free plan's 100 000 events a month.
    await db.update(spaces).set({ plan: 'pro' }).where(eq(spaces.id, spaceId));
    const sources = await call<{ items: { id: string; name: string }[] }>(
      send,
      'GET',
      `/api/spaces/${spaceId}/sources`,
      bearer,
    );
    const existing = sources.items.find((s) => s.name === DEMO_SOURCE);
    const source = existing
      ? await call<{ token: string }>(send, 'POST', `/api/spaces/${spaceId}/sources/${existing.id}/token`, bearer, {})
      : await call<{ token: string }>(send, 'POST', `/api/spaces/${spaceId}/sources`, bearer, {
          name: DEMO_SOURCE,
          kind: 'modsecurity',
        });
    const firewalls = await call<{ items: { id: string; name: string }[] }>(
      send,
      'GET',
      `/api/spaces/${spaceId}/firewalls`,
      bearer,
    );
    const firewallId =
      firewalls.items.find((f) => f.name === DEMO_FIREWALL)?.id ??
      (
        await call<{ id: string }>(send, 'POST', `/api/spaces/${spaceId}/firewalls`, bearer, {
          name: DEMO_FIREWALL,
          hostnames: DEMO_HOSTS,
          upstream: 'http://10.0.0.5:8080',
          mode: 'block',
        })
      ).id;
    await ensureDemoLibrary(send, spaceId, bearer);
    await ensureDemoRules(send, spaceId, bearer);
    const page = await call<{ items: { time: string }[] }>(
      send,
      'GET',
      `/api/spaces/${spaceId}/events?limit=1`,
      bearer,
    );
    const newest = page.items[0] ? new Date(page.items[0].time) : null;
    return { spaceId, sourceToken: source.token, firewallId, newest };
  } finally {
    if (token) await db.delete(apiTokens).where(eq(apiTokens.id, token.id));
  }
}

/**
 * The storefront asset, the small OSV library of server/demo/osv/ (vendored, with its licence) and an assessment of
 * one against the other, so the vulnerability screens show findings; a space that has the asset is left as it is.
 */
async function ensureDemoLibrary(send: Send, spaceId: string, bearer: string): Promise<void> {
  const assets = await call<{ items: { name: string }[] }>(send, 'GET', `/api/spaces/${spaceId}/assets`, bearer);
  if (assets.items.some((asset) => asset.name === DEMO_ASSET)) return;
  await call(send, 'POST', `/api/spaces/${spaceId}/assets`, bearer, {
    name: DEMO_ASSET,
    kind: 'application',
    environment: 'production',
    components: DEMO_COMPONENTS.map((component) => ({ purl: `pkg:npm/${component}` })),
  });
  const records: unknown = JSON.parse(readFileSync(new URL('./osv/npm-advisories.json', import.meta.url), 'utf8'));
  await call(send, 'POST', `/api/spaces/${spaceId}/vuln-refs`, bearer, records);
  await call(send, 'POST', `/api/spaces/${spaceId}/assessments`, bearer, {});
}

/**
 * The alert rules a team starts with, made before the week is sent so its attacks open alerts as they arrive: SQL
 * injection per attacked host (a handful of alerts that count every attempt, not one per address of a botnet) and
 * security scanners as one alert that gathers them.
 */
export const DEMO_RULES = [
  {
    name: 'SQL injection attempts',
    query: 'tag:attack-sqli',
    severity: 'high',
    groupBy: ['host'],
    title: 'SQL injection against {host}',
  },
  {
    name: 'Security scanner',
    query: 'tag:attack-reputation-scanner',
    severity: 'medium',
    groupBy: [],
    title: 'Security scanners at work',
  },
] as const;

async function ensureDemoRules(send: Send, spaceId: string, bearer: string): Promise<void> {
  const rules = await call<{ items: { name: string }[] }>(send, 'GET', `/api/spaces/${spaceId}/alert-rules`, bearer);
  for (const rule of DEMO_RULES) {
    if (rules.items.some((existing) => existing.name === rule.name)) continue;
    await call(send, 'POST', `/api/spaces/${spaceId}/alert-rules`, bearer, {
      name: rule.name,
      enabled: true,
      severity: rule.severity,
      kind: 'match',
      query: rule.query,
      groupBy: rule.groupBy,
      titleTemplate: rule.title,
      channels: [],
    });
  }
}

/**
 * Sends records through `POST /api/ingest/{token}` as NDJSON, one batch with an Idempotency-Key, each record naming
 * the firewall that wrote it (as the connector does); answers accepted.
 */
export async function sendBatch(
  send: Send,
  token: string,
  records: ModSecurityRecord[],
  key: string,
  firewallId: string,
): Promise<number> {
  const res = await send(`/api/ingest/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', 'idempotency-key': key },
    body: records.map((r) => JSON.stringify({ ...r, firewallId })).join('\n'),
  });
  const answer = (await res.json()) as { accepted?: number; errors?: unknown[]; error?: { message: string } };
  if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${answer.error?.message ?? ''}`);
  if (answer.errors?.length) throw new Error(`ingest refused ${answer.errors.length} demo records`);
  return answer.accepted ?? 0;
}

export type SeedOptions = {
  db: Db;
  send: Send;
  now: Date;
  /** Events for a whole week; a rerun fills only the time since the newest stored event. */
  events: number;
  seed: number;
  batchSize?: number;
  onProgress?: (sent: number, total: number) => void;
};

export type SeededDemo = {
  email: string;
  password: string;
  reset: boolean;
  spaceId: string;
  sourceToken: string;
  firewallId: string;
  accepted: number;
  traffic: Traffic;
};

/** The whole setup: user, space, source, firewall, and the week (or the gap since the last run) of traffic. */
export async function seedDemo(options: SeedOptions): Promise<SeededDemo> {
  const user = await ensureDemoUser(options.db, options.now);
  const space = await seedDemoSpace({ ...options, userId: user.id });
  return { email: DEMO_EMAIL, password: user.password, reset: user.reset, ...space };
}

/**
 * The demo's space, source, firewall and week of traffic for any user: what `npm run demo` gives the demo user,
 * and what the development API gives a test's own account.
 */
export async function seedDemoSpace(
  options: SeedOptions & { userId: string },
): Promise<Omit<SeededDemo, 'email' | 'password' | 'reset'>> {
  const { db, send, now, events, seed } = options;
  const batchSize = options.batchSize ?? 1000;
  const { spaceId, sourceToken, firewallId, newest } = await prepareDemoSpace(db, send, options.userId, now);
  const from = new Date(Math.max(now.getTime() - WEEK, (newest?.getTime() ?? 0) + 1000));
  const count = Math.round((events * (now.getTime() - from.getTime())) / WEEK);
  const traffic = createTraffic(seed);
  const records = traffic.between(from, now, count);
  let accepted = 0;
  for (let i = 0; i < records.length; i += batchSize) {
    accepted += await sendBatch(
      send,
      sourceToken,
      records.slice(i, i + batchSize),
      `demo-${seed}-${from.getTime()}-${i / batchSize}`,
      firewallId,
    );
    options.onProgress?.(Math.min(records.length, i + batchSize), records.length);
  }
  return { spaceId, sourceToken, firewallId, accepted, traffic };
}

/** The week's mean of `rhythm`, sampled each minute: the seeded week's events per hour follow rhythm / mean. */
const MEAN_RHYTHM = (() => {
  let sum = 0;
  const minutes = WEEK / 60_000;
  for (let i = 0; i < minutes; i++) sum += rhythm(Date.UTC(2026, 0, 4) + i * 60_000);
  return sum / minutes;
})();

/**
 * How many events the trickle sends for the window [from, to): the seeded week's rate at that time of day (so the
 * live traffic carries on the week's curve instead of jumping when the demo starts), with the fraction carried to
 * the next window.
 */
export function trickleCount(
  from: number,
  to: number,
  eventsPerWeek: number,
  carry: number,
): { count: number; carry: number } {
  const expected = (eventsPerWeek * (to - from) * rhythm((from + to) / 2)) / WEEK / MEAN_RHYTHM + carry;
  const count = Math.floor(expected);
  return { count, carry: expected - count };
}

/**
 * Events at the seeded week's rate (attacks now and then, as in the mix), sent every few seconds until stopped;
 * `stop()` waits for the batch in flight.
 */
export function startTrickle(options: {
  send: Send;
  token: string;
  firewallId: string;
  traffic: Traffic;
  since: Date;
  /** The seeded week's size: the trickle keeps its rate. */
  eventsPerWeek: number;
  intervalMs?: number;
  /** The console's clock (the API's `deps.now`). */
  now: () => Date;
  onError?: (error: unknown) => void;
}): { stop(): Promise<void>; sent(): number } {
  const clock = options.now;
  let last = options.since;
  let sent = 0;
  let inFlight: Promise<void> = Promise.resolve();
  let round = 0;
  let carry = 0;
  const timer = setInterval(() => {
    const to = clock();
    if (to.getTime() - last.getTime() < 1000) return;
    const next = trickleCount(last.getTime(), to.getTime(), options.eventsPerWeek, carry);
    carry = next.carry;
    if (next.count === 0) return;
    const records = options.traffic.between(last, to, next.count);
    const key = `demo-trickle-${last.getTime()}-${round++}`;
    last = to;
    inFlight = inFlight
      .then(() => sendBatch(options.send, options.token, records, key, options.firewallId))
      .then((n) => {
        sent += n;
      })
      .catch((error: unknown) => options.onError?.(error));
  }, options.intervalMs ?? 3000);
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
    sent: () => sent,
  };
}
