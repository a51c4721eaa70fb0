/**
 * Every route loads without a console error or warning: signed in, in a space with data (a firewall with WAF events
 * from a log source, an alert, a dashboard, an asset assessed into findings), so each screen renders its charts,
 * tables and details rather than its empty state. A hydration mismatch (React error #418), a chart library's warning
 * or a failed request all show up here as a message the test names with its page.
 */
import type { ConsoleMessage, Page } from '@playwright/test';
import { ROUTES } from '../../src/lib/routes.ts';
import { BASE_URL } from './base-url.ts';
import { expect, mailedLink, newSpace, test } from './fixtures.ts';
import { vulnRecords } from './vuln-records.ts';

const headers = { origin: BASE_URL };

interface Filled {
  readonly spaceId: string;
  readonly params: Record<string, string>;
}

/** Posts as the signed-in user and answers the body of a 2xx answer. */
async function post<T>(page: Page, path: string, data: unknown): Promise<T> {
  const answer = await page.request.post(path, { data, headers });
  expect(answer.ok(), `${path} answered ${answer.status()}: ${await answer.text()}`).toBe(true);
  return (await answer.json()) as T;
}

/** A space with something on every screen; answers the ids each route's parameters take. */
async function spaceWithData(page: Page): Promise<Filled> {
  const spaceId = await newSpace(page.request, `Console clean ${Date.now()}`);
  const api = `/api/spaces/${spaceId}`;
  const firewall = await post<{ id: string }>(page, `${api}/firewalls`, {
    name: 'shop',
    hostnames: ['shop.example.test'],
    upstream: 'http://127.0.0.1:3000',
    mode: 'block',
  });
  const source = await post<{ id: string; token: string }>(page, `${api}/sources`, { name: 'edge', kind: 'json' });
  await post(page, `${api}/alert-rules`, {
    name: 'SQL injection',
    enabled: true,
    severity: 'high',
    kind: 'match',
    query: 'tag:attack-sqli',
    threshold: null,
    windowMinutes: null,
    groupBy: [],
    sourceId: null,
    firewallId: null,
    titleTemplate: null,
    renotifyMinutes: null,
    autoResolveMinutes: null,
    channels: [],
  });
  const event = (minutes: number, ip: string, path: string, action: 'blocked' | 'allowed', attack: boolean) =>
    JSON.stringify({
      time: new Date(Date.now() - minutes * 60_000).toISOString(),
      ip,
      method: 'GET',
      host: 'shop.example.test',
      path,
      status: action === 'blocked' ? 403 : 200,
      action,
      severity: attack ? 'critical' : 'info',
      ...(attack
        ? {
            ruleIds: [942100, 949110],
            tags: ['attack-sqli'],
            message: 'SQL Injection Attack Detected via libinjection',
          }
        : {}),
      firewallId: firewall.id,
    });
  const lines = [
    event(2, '203.0.113.7', "/search?q=' or 1=1", 'blocked', true),
    event(30, '8.8.8.8', '/search?q=union select', 'blocked', true),
    event(90, '81.2.69.142', '/products', 'allowed', false),
    event(300, '81.2.69.142', '/cart', 'allowed', false),
  ];
  const ingest = await page.request.fetch(`/api/ingest/${source.token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', cookie: '' },
    data: lines.join('\n'),
  });
  expect(await ingest.json()).toEqual({ accepted: lines.length, errors: [] });
  const dashboard = await post<{ id: string }>(page, `${api}/dashboards`, {
    schemaVersion: 1,
    title: 'Traffic',
    timeRange: { from: 'now-24h', to: 'now' },
    refreshSeconds: 0,
    variables: [],
    widgets: [
      {
        id: 'events',
        title: 'Events',
        type: 'stat',
        gridPos: { x: 0, y: 0, w: 6, h: 4 },
        query: { metric: 'count', groupBy: { kind: 'none' }, filter: '' },
      },
    ],
  });
  await post(page, `${api}/vuln-refs`, vulnRecords);
  await post(page, `${api}/assets`, {
    name: 'shop-web',
    kind: 'application',
    firewallId: firewall.id,
    components: [{ purl: 'pkg:npm/lodash@4.17.11' }],
  });
  await post(page, `${api}/assessments`, {});
  // The match rule opens its alert from the ingested events once the job runner has seen them.
  let alertId = '';
  await expect
    .poll(async () => {
      const list = (await (await page.request.get(`${api}/alerts`)).json()) as { items: { id: string }[] };
      alertId = list.items[0]?.id ?? '';
      return alertId;
    })
    .not.toBe('');
  // A newcomer's activation link, for the activation page to activate rather than refuse.
  const email = `newcomer.${Date.now()}@example.test`;
  await post(page, '/api/auth/register', { name: 'Newcomer', email, password: 'Orbit-guard-2026' });
  const activation = (await mailedLink(page.request, email, '/auth/activation/')).split('/').at(-1) as string;
  return {
    spaceId,
    params: {
      activation,
      space_id: spaceId,
      waf_id: firewall.id,
      alert: alertId,
      source: source.id,
      firewall: firewall.id,
      dashboard: dashboard.id,
    },
  };
}

/** The id a route's `{id}` takes: the thing its screen shows. */
function idFor(pattern: string, params: Record<string, string>): string {
  if (pattern.startsWith('/console/siem/manage/')) return params.source as string;
  if (pattern.startsWith('/console/alert/')) return params.alert as string;
  if (pattern.startsWith('/console/firewall/config/')) return params.firewall as string;
  if (pattern.startsWith('/console/dashboard/explore/')) return params.dashboard as string;
  if (pattern.startsWith('/console/alerts/waf/')) return params.alert as string;
  if (pattern.startsWith('/auth/activation/')) return params.activation as string;
  return 'tok_8f3a9c2b7d1e';
}

function pathOf(pattern: string, filled: Filled): string {
  return pattern.replace(/\{([a-z_]+)\}/g, (_match, name: string) =>
    name === 'id' || name === 'token' ? idFor(pattern, filled.params) : (filled.params[name] as string),
  );
}

/** The landing page moves on at once when signed in (routes.spec.ts checks where to). */
const MOVES_ON = new Set(['/auth/landing']);

test('every route loads with no console error or warning, signed in, in a space with data', async ({ page }) => {
  test.setTimeout(300_000);
  const filled = await spaceWithData(page);
  const messages: string[] = [];
  let current = '';
  const listen = (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      messages.push(`${current}: ${message.type()} ${message.text()}`);
    }
  };
  page.on('console', listen);
  page.on('pageerror', (error) => messages.push(`${current}: uncaught ${error.message}`));
  for (const route of ROUTES) {
    if (MOVES_ON.has(route.pattern)) continue;
    current = pathOf(route.pattern, filled);
    await page.goto(current);
    await expect(page.locator('h1').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  expect(messages).toEqual([]);
});
