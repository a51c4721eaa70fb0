/**
 * Every route loads without a console error or warning: signed in, in the demo space (a firewall with a week of WAF
 * events, alerts, a dashboard, an asset assessed into findings), so each screen renders its charts, tables and
 * details rather than its empty state. A hydration mismatch (React error #418), a chart library's warning
 * or a failed request all show up here as a message the test names with its page.
 */
import type { ConsoleMessage, Page } from '@playwright/test';
import { ROUTES } from '../../src/lib/routes.ts';
import { BASE_URL } from './base-url.ts';
import { type DemoSpace, expect, mailedLink, test } from './fixtures.ts';

const headers = { origin: BASE_URL };

interface Filled {
  readonly spaceId: string;
  readonly params: Record<string, string>;
}

/** Reads as the signed-in user and answers the body of a 2xx answer. */
async function read<T>(page: Page, path: string): Promise<T> {
  const answer = await page.request.get(path, { headers });
  expect(answer.ok(), `${path} answered ${answer.status()}: ${await answer.text()}`).toBe(true);
  return (await answer.json()) as T;
}

/**
 * The ids each route's parameters take in the demo space (what `npm run demo` gives a new user: a firewall with a week
 * of WAF events, its alert rules' alerts, the default dashboard, an assessed storefront with findings).
 */
async function demoParams(page: Page, demo: DemoSpace): Promise<Filled> {
  const api = `/api/spaces/${demo.spaceId}`;
  const sources = await read<{ items: { id: string }[] }>(page, `${api}/sources`);
  const dashboards = await read<{ items: { id: string }[] }>(page, `${api}/dashboards`);
  // The demo's rules open their alerts once the job runner has seen the week's events.
  let alertId = '';
  await expect
    .poll(async () => {
      alertId = (await read<{ items: { id: string }[] }>(page, `${api}/alerts`)).items[0]?.id ?? '';
      return alertId;
    })
    .not.toBe('');
  // A newcomer's activation link, for the activation page to activate rather than refuse.
  const email = `newcomer.${Date.now()}@example.test`;
  const registered = await page.request.post('/api/auth/register', {
    data: { name: 'Newcomer', email, password: 'Orbit-guard-2026' },
    headers,
  });
  expect(registered.ok(), await registered.text()).toBe(true);
  const activation = (await mailedLink(page.request, email, '/auth/activation/')).split('/').at(-1) as string;
  return {
    spaceId: demo.spaceId,
    params: {
      activation,
      space_id: demo.spaceId,
      waf_id: demo.firewallId,
      alert: alertId,
      source: sources.items[0]?.id as string,
      firewall: demo.firewallId,
      dashboard: dashboards.items[0]?.id as string,
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

test('every route loads with no console error or warning, signed in, in the demo space', async ({
  page,
  demoSpace,
}) => {
  test.setTimeout(300_000);
  const filled = await demoParams(page, demoSpace);
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
