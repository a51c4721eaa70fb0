/**
 * Playwright fixtures: a real account per worker, made through the real API (register, the
 * activation link from the development outbox, sign in) with a space of its own.
 */
import { type APIRequestContext, test as base, expect, type Page } from '@playwright/test';
import { BASE_URL } from './base-url.ts';

/** State-changing API calls must say where they come from (CSRF defence). */
const headers = { origin: BASE_URL };

export interface Account {
  readonly name: string;
  readonly email: string;
  readonly password: string;
  readonly spaceId: string;
  /** Cookies of a signed-in browser. */
  readonly storageState: Awaited<ReturnType<APIRequestContext['storageState']>>;
}

/** The link of the newest outbox message to an address whose link contains `path`. */
export async function mailedLink(request: APIRequestContext, to: string, path: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const outbox = (await (await request.get('/api/dev/outbox')).json()) as { items: { to: string; text: string }[] };
      const mail = outbox.items.filter((item) => item.to === to && item.text.includes(path)).at(-1);
      link = mail?.text.match(/https?:\/\/\S+/)?.[0];
      return link;
    })
    .toBeTruthy();
  return new URL(link as string).pathname + new URL(link as string).search;
}

/** Registers, activates and signs in a new user through the API. */
export async function createAccount(request: APIRequestContext, label: string): Promise<Account> {
  // Shaped like a person's address (`first.last@company.example`): dots, no hyphens, so there is nowhere a browser
  // may break the line, and a page that shows it must wrap it itself.
  const email = `${label.replaceAll('-', '.')}.${Date.now()}${Math.round(Math.random() * 1e6)}@example.test`;
  const password = 'Orbit-guard-2026';
  const name = `User ${label}`;
  expect((await request.post('/api/auth/register', { data: { name, email, password }, headers })).status()).toBe(201);
  const link = await mailedLink(request, email, '/auth/activation/');
  const token = link.split('/').at(-1) as string;
  expect((await request.post('/api/auth/activate', { data: { token }, headers })).ok()).toBe(true);
  expect((await request.post('/api/auth/login', { data: { email, password }, headers })).ok()).toBe(true);
  const space = await request.post('/api/spaces', { data: { name: `${name}'s space` }, headers });
  expect(space.status()).toBe(201);
  const { id } = (await space.json()) as { id: string };
  return { name, email, password, spaceId: id, storageState: await request.storageState() };
}

/** A new space of the signed-in account, for a test whose counts must not see other tests' data. */
export async function newSpace(request: APIRequestContext, name: string): Promise<string> {
  const space = await request.post('/api/spaces', { data: { name }, headers });
  expect(space.status()).toBe(201);
  return ((await space.json()) as { id: string }).id;
}

/**
 * A new space with a JSON log source that has received `lines` (event objects) as curl sends them (NDJSON, no
 * cookie); every line must be accepted.
 */
export async function spaceWithEvents(page: Page, name: string, lines: readonly object[]): Promise<string> {
  const spaceId = await newSpace(page.request, name);
  const source = await page.request.post(`/api/spaces/${spaceId}/sources`, {
    data: { name: 'edge nginx', kind: 'json' },
    headers,
  });
  expect(source.status()).toBe(201);
  const { token } = (await source.json()) as { token: string };
  const ingest = await page.request.fetch(`/api/ingest/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', cookie: '' },
    data: lines.map((line) => JSON.stringify(line)).join('\n'),
  });
  expect(await ingest.json()).toEqual({ accepted: lines.length, errors: [] });
  return spaceId;
}

/** A JSON log source in a new space with three events of the last half hour, sent as curl would (NDJSON, no cookie). */
export async function sendEvents(page: Page): Promise<string> {
  const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
  const lines = [
    {
      time: minutesAgo(3),
      ip: '2.2.2.2',
      method: 'GET',
      host: 'shop.example.test',
      path: '/search',
      status: 403,
      action: 'blocked',
      severity: 'critical',
      ruleIds: [942100, 949110],
      tags: ['attack-sqli'],
      message: 'SQL Injection Attack Detected via libinjection',
    },
    {
      time: minutesAgo(9),
      ip: '8.8.8.8',
      method: 'POST',
      host: 'shop.example.test',
      path: '/login',
      status: 403,
      action: 'blocked',
      severity: 'high',
      ruleIds: [941100],
      tags: ['attack-xss'],
      message: 'XSS Attack Detected via libinjection',
    },
    {
      time: minutesAgo(20),
      ip: '81.2.69.142',
      method: 'GET',
      host: 'api.example.test',
      path: '/v1/items',
      status: 200,
      action: 'allowed',
      severity: 'info',
    },
  ];
  return spaceWithEvents(page, 'Event log', lines);
}

/** The demo's data in a space of the worker's account: what `npm run demo` seeds, with a smaller week. */
export interface DemoSpace {
  readonly spaceId: string;
  /** The firewall "Shop edge" every demo event is attributed to. */
  readonly firewallId: string;
  /** Events in the seeded week. */
  readonly events: number;
}

/** How many events the tests' demo week holds: the demo's mix and shape, at a size that seeds in a few seconds. */
export const DEMO_TEST_EVENTS = 3000;

/**
 * Tests that run signed in, in the account's own space; `demoSpace` adds the account's "Demo shop", seeded once per
 * worker through the development API as `npm run demo` seeds it (source, firewall, a week of ModSecurity traffic).
 */
export const test = base.extend<object, { account: Account; demoSpace: DemoSpace }>({
  account: [
    async ({ playwright }, use, workerInfo) => {
      const baseURL = workerInfo.project.use.baseURL as string;
      const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
      await use(await createAccount(request, `worker${workerInfo.workerIndex}`));
      await request.dispose();
    },
    { scope: 'worker' },
  ],
  demoSpace: [
    async ({ playwright, account }, use, workerInfo) => {
      const baseURL = workerInfo.project.use.baseURL as string;
      const request = await playwright.request.newContext({
        baseURL,
        extraHTTPHeaders: { origin: baseURL },
        storageState: account.storageState,
      });
      const res = await request.post('/api/dev/demo', { data: { events: DEMO_TEST_EVENTS }, timeout: 120_000 });
      expect(res.status(), await res.text()).toBe(201);
      const seeded = (await res.json()) as { spaceId: string; firewallId: string; accepted: number };
      expect(seeded.accepted).toBe(DEMO_TEST_EVENTS);
      await use({ spaceId: seeded.spaceId, firewallId: seeded.firewallId, events: seeded.accepted });
      await request.dispose();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  storageState: async ({ account }, use) => use(account.storageState),
});

export { expect };
