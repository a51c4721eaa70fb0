/**
 * Small screens: every route of the route table, signed in, at 375×812 and 768×1024, in light and dark:
 * the page never scrolls sideways, axe finds nothing, and a full-page screenshot of each is kept with the results.
 * Then the console's navigation drawer by keyboard, and the event drawer on a phone.
 */
import type { Locator, Page } from '@playwright/test';
import { forcedModeOf, isDynamic, ROUTES, type RouteMeta } from '../../src/lib/routes.ts';
import { BASE_URL } from './base-url.ts';
import { test as base, expect } from './fixtures.ts';
import { attachScreenshot, expectNoAxeViolations } from './page-checks.ts';

const SIZES = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'tablet', width: 768, height: 1024 },
] as const;

/** Ids for routes that cannot be drawn without one; routes whose objects do not exist yet get a well-formed id. */
interface Sample {
  readonly firewallId: string;
  readonly sourceId: string;
}
const PLACEHOLDER = {
  id: '9b1d7e0a-52c4-4f8e-8a3b-6d2c1f0e9a7b',
  waf_id: 'c4d5e6f7-0809-4a1b-9c2d-3e4f5a6b7c8d',
  token: 'tok_8f3a9c2b7d1e',
};

/** Each worker's account gets a firewall and a JSON log source with a few events, so tables have rows. */
const test = base.extend<object, { sample: Sample }>({
  sample: [
    async ({ account, playwright }, use, workerInfo) => {
      const request = await playwright.request.newContext({
        baseURL: workerInfo.project.use.baseURL as string,
        storageState: account.storageState,
        extraHTTPHeaders: { origin: BASE_URL },
      });
      const spaces = `/api/spaces/${account.spaceId}`;
      const firewall = await request.post(`${spaces}/firewalls`, {
        data: {
          name: 'storefront-with-a-long-name',
          hostnames: ['shop.example.com', 'www.shop.example.com'],
          upstream: 'http://127.0.0.1:3000',
          mode: 'detect',
        },
      });
      expect(firewall.status()).toBe(201);
      const source = await request.post(`${spaces}/sources`, { data: { name: 'edge nginx', kind: 'json' } });
      expect(source.status()).toBe(201);
      const { id: sourceId, token } = (await source.json()) as { id: string; token: string };
      const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
      const events = [
        {
          time: minutesAgo(3),
          ip: '2.2.2.2',
          method: 'GET',
          host: 'shop.example.test',
          path: '/search?q=%27%20or%201%3D1--&page=2&sort=price-descending-with-a-long-query',
          status: 403,
          action: 'blocked',
          severity: 'critical',
          ruleIds: [942100, 949110],
          tags: ['attack-sqli'],
          message: 'SQL Injection Attack Detected via libinjection',
        },
        { time: minutesAgo(9), ip: '8.8.8.8', method: 'POST', host: 'shop.example.test', path: '/login', status: 200 },
      ];
      const ingest = await request.fetch(`/api/ingest/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson', cookie: '' },
        data: events.map((line) => JSON.stringify(line)).join('\n'),
      });
      expect(ingest.ok()).toBe(true);
      await use({ firewallId: ((await firewall.json()) as { id: string }).id, sourceId });
      await request.dispose();
    },
    { scope: 'worker' },
  ],
});

/** The concrete path of a route: the account's space, the sample firewall and source, placeholders elsewhere. */
function pathOf(route: RouteMeta, spaceId: string, sample: Sample): string {
  const id = route.pattern.startsWith('/console/firewall/config/')
    ? sample.firewallId
    : route.pattern.startsWith('/console/siem/manage/')
      ? sample.sourceId
      : PLACEHOLDER.id;
  const values: Record<string, string> = { ...PLACEHOLDER, space_id: spaceId, id };
  return route.pattern.replace(/\{([a-z_]+)\}/g, (_match, name: string) => values[name] ?? name);
}

/** How far the page scrolls sideways (0 is the goal), and whether something hides the overflow instead of fixing it. */
async function sideways(page: Page): Promise<{ overflow: number; hidden: string[] }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const hidden = [root, document.body]
      .filter((element) => ['hidden', 'clip'].includes(getComputedStyle(element).overflowX))
      .map((element) => element.tagName.toLowerCase());
    return { overflow: root.scrollWidth - root.clientWidth, hidden };
  });
}

async function expectFits(page: Page, label: string): Promise<void> {
  const { overflow, hidden } = await sideways(page);
  expect(overflow, `${label}: the page scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
  expect(hidden, `${label}: overflow hidden on the root hides content instead of fitting it`).toEqual([]);
}

test.describe.configure({ mode: 'parallel' });

for (const size of SIZES) {
  test.describe(`${size.width}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    // Every route, and the log sources view of the event log's route.
    const views = [
      ...ROUTES.map((route) => ({ route, search: '' })),
      ...ROUTES.filter((route) => route.pattern === '/console/siem/{space_id}').map((route) => ({
        route,
        search: '?view=sources',
      })),
    ];
    for (const { route, search } of views) {
      test(`${route.pattern}${search} fits ${size.width} px without sideways scroll, light and dark, with no axe violations`, async ({
        page,
        account,
        sample,
      }, testInfo) => {
        const path = pathOf(route, account.spaceId, sample) + search;
        await page.emulateMedia({ colorScheme: 'light' });
        await page.goto(path);
        if (route.pattern === '/auth/landing') {
          // Signed in, the landing page moves on at once: the page it opens is the one a person sees.
          await expect(page).not.toHaveURL(/\/auth\/landing/);
        } else {
          await expect(page).toHaveURL(isDynamic(route.pattern) ? path : new RegExp(`${route.pattern}$`));
          if (search) await expect(page.getByRole('region', { name: 'Log sources', exact: true })).toBeVisible();
        }
        await page.waitForLoadState('networkidle');
        const slug = `${size.name}-${(route.pattern + search).replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home'}`;

        await expectFits(page, `${path} light`);
        await expectNoAxeViolations(page, `${path} light`);
        await attachScreenshot(page, testInfo, `${slug}-light.png`);
        if (forcedModeOf(route)) return; // The auth pages are always light.

        await page.emulateMedia({ colorScheme: 'dark' });
        await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
        await page.waitForLoadState('networkidle');
        await expectFits(page, `${path} dark`);
        await expectNoAxeViolations(page, `${path} dark`);
        await attachScreenshot(page, testInfo, `${slug}-dark.png`);
      });
    }
  });
}

/** The element's box, for touch-target and on-screen checks. */
async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, `${locator} has no box`).not.toBeNull();
  return found as NonNullable<typeof found>;
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the console navigation opens from the menu button, keeps the keyboard inside, closes with Escape and navigates', async ({
    page,
    account,
  }) => {
    await page.goto(`/console/siem/${account.spaceId}`);
    // The rail is gone; a menu button stands in for it, big enough for a thumb.
    await expect(page.getByRole('navigation', { name: 'Console' })).toBeHidden();
    const menu = page.getByRole('button', { name: 'Menu', exact: true });
    await expect(menu).toBeEnabled();
    expect((await box(menu)).height).toBeGreaterThanOrEqual(44);
    expect((await box(menu)).width).toBeGreaterThanOrEqual(44);
    await expect(menu).toHaveAttribute('aria-expanded', 'false');

    await menu.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    const nav = drawer.getByRole('navigation', { name: 'Console' });
    await expect(nav.getByRole('link', { name: 'Events' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Overview' })).not.toHaveAttribute('aria-current', 'page');
    for (const link of await nav.getByRole('link').all()) {
      expect((await box(link)).height, `${await link.textContent()}`).toBeGreaterThanOrEqual(44);
    }
    // It covers the page: nothing behind it is reachable by pointer.
    const drawerBox = await box(drawer);
    expect(drawerBox.x).toBeLessThanOrEqual(0);
    expect(drawerBox.height).toBeGreaterThanOrEqual(812);
    await expectNoAxeViolations(page, 'drawer open');

    // Tab and Shift+Tab go round inside the drawer, past its last and first controls.
    const count = await drawer.locator('a[href], button:not([disabled]), select, input').count();
    for (let press = 0; press < count + 2; press += 1) {
      await page.keyboard.press('Tab');
      expect(await drawer.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    for (let press = 0; press < count + 2; press += 1) {
      await page.keyboard.press('Shift+Tab');
      expect(await drawer.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }

    // Escape closes it and gives the focus back to the menu button.
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(menu).toBeFocused();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');

    // The close button does the same; a link navigates and the new page is the current one.
    await menu.click();
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await expect(drawer).toBeHidden();
    await expect(menu).toBeFocused();
    await menu.click();
    await nav.getByRole('link', { name: 'Members' }).click();
    await expect(page).toHaveURL(`/console/management/member/${account.spaceId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Members' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test('the top bar fits: the space switcher is in the drawer and the account controls are thumb-sized', async ({
    page,
    account,
  }) => {
    await page.goto(`/console/${account.spaceId}`);
    await page.waitForLoadState('networkidle');
    const account_ = page.getByRole('navigation', { name: 'Account' });
    const user = account_.getByRole('button', { name: account.name });
    await expect(user).toBeVisible();
    for (const control of [user, ...(await account_.locator('.theme-toggle__option').all())]) {
      const found = await box(control);
      expect(found.height).toBeGreaterThanOrEqual(44);
      expect(found.x + found.width).toBeLessThanOrEqual(375);
    }
    // The user menu opens inside the screen.
    await user.click();
    const panel = page.getByRole('link', { name: 'Profile' });
    await expect(panel).toBeVisible();
    const found = await box(page.locator('.console-user__panel'));
    expect(found.x).toBeGreaterThanOrEqual(0);
    expect(found.x + found.width).toBeLessThanOrEqual(375);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    const space = page.getByRole('dialog', { name: 'Menu' }).getByRole('combobox', { name: 'Space' });
    await expect(space).toHaveValue(account.spaceId);
    expect((await box(space)).height).toBeGreaterThanOrEqual(44);
  });

  test('the event drawer takes the whole screen and its close button is on it', async ({ page, account, sample }) => {
    expect(sample.sourceId).toBeTruthy();
    await page.goto(`/console/siem/${account.spaceId}`);
    const table = page.getByRole('region', { name: 'Events, scrollable' });
    await table.getByRole('button').first().click();
    const drawer = page.locator('.event-drawer');
    await expect(drawer).toBeVisible();
    const found = await box(drawer);
    expect(found.x).toBeLessThanOrEqual(0);
    expect(found.width).toBeGreaterThanOrEqual(375);
    const close = drawer.getByRole('button', { name: 'Close' });
    const closeBox = await box(close);
    expect(closeBox.x).toBeGreaterThanOrEqual(0);
    expect(closeBox.x + closeBox.width).toBeLessThanOrEqual(375);
    expect(closeBox.y).toBeGreaterThanOrEqual(0);
    expect(closeBox.height).toBeGreaterThanOrEqual(44);
    await expectFits(page, 'event drawer');
    await close.click();
    await expect(drawer).toBeHidden();
  });
});

test.describe('on a phone, before or without scripts', () => {
  test.use({ viewport: { width: 375, height: 812 }, javaScriptEnabled: false });

  test('the pre-rendered console shell fits, its menu button waits for the script, and the logo leads to all spaces', async ({
    page,
    account,
  }) => {
    await page.goto(`/console/firewall/${account.spaceId}`);
    await expectFits(page, 'console shell without scripts');
    await expect(page.getByRole('button', { name: 'Menu', exact: true })).toBeDisabled();
    await expect(page.getByRole('navigation', { name: 'Console' })).toBeHidden();
    const home = page.getByRole('banner').getByRole('link', { name: 'Spaceguard' });
    await expect(home).toHaveAttribute('href', '/spaces');
    expect((await box(home)).height).toBeGreaterThanOrEqual(44);
  });
});

test('above the breakpoint the rail stays and there is no menu button', async ({ page, account }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/console/siem/${account.spaceId}`);
  const rail = page.getByRole('navigation', { name: 'Console' });
  await expect(rail.getByRole('link', { name: 'Events' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('button', { name: 'Menu', exact: true })).toBeHidden();
  await expect(
    page.getByRole('navigation', { name: 'Account' }).getByRole('combobox', { name: 'Space' }),
  ).toBeVisible();
});
