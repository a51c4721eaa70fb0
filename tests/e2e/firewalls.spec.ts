import type { Page } from '@playwright/test';
import { BASE_URL } from './base-url.ts';
import { expect, newSpace, test } from './fixtures.ts';
import { expectAccessibleInBothThemes, expectNoAxeViolations, sidewaysAt375 } from './page-checks.ts';

/** At 375 px the firewall screens do not scroll sideways at all: wide tables, diffs and files scroll in their own box. */
async function expectNoSidewaysScroll(page: Page, label: string): Promise<void> {
  const size = page.viewportSize();
  const overflow = await sidewaysAt375(page);
  if (size) await page.setViewportSize(size);
  expect(overflow, `${label}: the page scrolls sideways at 375 px`).toBe(0);
}

/** Creates the firewall "shop" through the API and opens its configuration; answers its id. */
async function openNewFirewall(page: Page, spaceId: string): Promise<string> {
  const created = await page.request.post(`/api/spaces/${spaceId}/firewalls`, {
    data: { name: 'shop', hostnames: ['shop.example.com'], upstream: 'http://127.0.0.1:3000', mode: 'detect' },
    headers: { origin: BASE_URL },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/console/firewall/config/${spaceId}/${id}`);
  return id;
}

test('a firewall from creation to a saved exclusion and its diff in History, by keyboard, accessible in light and dark', async ({
  page,
}) => {
  test.slow();
  const spaceId = await newSpace(page.request, `Firewalls ${Date.now()}`);
  await page.goto(`/console/firewall/${spaceId}`);
  await expect(page.getByText(/^No firewalls yet\. Create one below/)).toBeVisible();

  // Create by keyboard: type into each field, Tab to the next, Enter on the button.
  const form = page.getByRole('form', { name: 'Create a firewall' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).focus();
  await page.keyboard.type('shop');
  await page.keyboard.press('Tab');
  await expect(form.getByRole('textbox', { name: 'Host names' })).toBeFocused();
  await page.keyboard.type('shop.example.com');
  await page.keyboard.press('Tab');
  await expect(form.getByRole('textbox', { name: 'Upstream' })).toBeFocused();
  await page.keyboard.type('http://127.0.0.1:3000');
  await page.keyboard.press('Tab');
  await expect(form.getByRole('combobox', { name: 'Mode' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(form.getByRole('button', { name: 'Create firewall' })).toBeFocused();
  await page.keyboard.press('Enter');

  const token = await page.getByRole('textbox', { name: 'Connector token' }).inputValue();
  expect(token.length).toBeGreaterThan(20);
  await expect(page.getByRole('figure', { name: 'Run the connector' }).locator('pre')).toHaveText(
    `npm run waf -- --api ${BASE_URL} --token ${token} --listen 127.0.0.1:8080`,
  );
  const table = page.getByRole('table', { name: 'Firewalls' });
  await expect(table.getByRole('link', { name: 'shop' })).toBeVisible();
  await expect(table).toContainText('never connected');
  await expectAccessibleInBothThemes(page, 'list');
  await expectNoSidewaysScroll(page, 'list');

  // Open it by keyboard.
  await page.getByRole('link', { name: 'Configure shop' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'shop', level: 2 })).toBeVisible();
  const tabs = page.getByRole('tablist', { name: 'Firewall settings' });
  await expect(tabs.getByRole('tab', { name: 'General' })).toHaveAttribute('aria-selected', 'true');

  // General: the mode, chosen with the keyboard.
  const mode = page.getByRole('combobox', { name: 'Mode' });
  await mode.focus();
  await mode.selectOption('block');
  await expect(tabs.getByRole('tab', { name: 'General (changed)' })).toBeVisible();

  // Arrows move between tabs; the draft stays.
  await tabs.getByRole('tab', { name: 'General (changed)' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const exclusionsTab = tabs.getByRole('tab', { name: 'Exclusions', exact: true });
  await expect(exclusionsTab).toBeFocused();
  await expect(exclusionsTab).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: 'Add an exclusion' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('spinbutton', { name: 'Rule id' }).fill('942100');
  await page.getByRole('textbox', { name: 'Target (optional)' }).fill('ARGS:q');
  await page.getByRole('textbox', { name: 'Path prefix (optional)' }).fill('/search');
  await expect(page.getByText('Unsaved changes to mode, exclusions, made from version 1.')).toBeVisible();

  await page
    .getByRole('textbox', { name: 'Comment for this version (optional)' })
    .fill('block, and let searches through 942100');
  await page.getByRole('button', { name: 'Save', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Saved as version 2.')).toBeVisible();

  // History: version 2 with its comment and the diff of its settings.
  await tabs.getByRole('tab', { name: 'History' }).click();
  const versions = page.getByRole('table', { name: 'Versions' });
  await expect(versions.getByRole('row', { name: /2 \(newest\)/ })).toContainText(
    'block, and let searches through 942100',
  );
  const diff = page.getByRole('region', { name: 'Settings, version 1 to version 2' });
  await expect(diff).toContainText('"mode": "block"');
  await expect(diff).toContainText('"ruleId": 942100');
  await expect(page.getByRole('region', { name: /\.conf, version 1 to version 2$/ }).first()).toBeVisible();
  await expectAccessibleInBothThemes(page, 'configuration, history');
  await expectNoSidewaysScroll(page, 'configuration, history');
  // The open tab is in the address: a reload (or a link with ?tab=history) opens History again.
  await expect(page).toHaveURL(/[?&]tab=history(&|$)/);
  await page.reload();
  await expect(tabs.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');
  await expect(versions.getByRole('row', { name: /2 \(newest\)/ })).toBeVisible();

  // The other tabs are accessible too, with the edited exclusion and the generated files on screen.
  await tabs.getByRole('tab', { name: 'Exclusions', exact: true }).click();
  await expect(page.getByRole('spinbutton', { name: 'Rule id' })).toHaveValue('942100');
  await expectNoAxeViolations(page, 'configuration, exclusions');
  await tabs.getByRole('tab', { name: 'Preview' }).click();
  await expect(page.getByRole('heading', { name: 'Generated files of version 2' })).toBeVisible();
  await expectNoAxeViolations(page, 'configuration, preview');
  await expectNoSidewaysScroll(page, 'configuration, preview');
});

test('custom rules reorder by dragging a rule by its handle in the browser, and the tab stays accessible', async ({
  page,
}) => {
  const spaceId = await newSpace(page.request, `Rule order ${Date.now()}`);
  const id = await openNewFirewall(page, spaceId);
  await page.getByRole('tab', { name: 'Custom rules' }).click();
  for (let i = 0; i < 3; i += 1) await page.getByRole('button', { name: 'Add a custom rule' }).click();

  // Rule 3 dropped on rule 1 takes its place (all three on screen: the drag does not scroll); the Move buttons remain
  // the keyboard's way.
  await page.setViewportSize({ width: 1280, height: 1600 });
  await page.getByTitle('Drag rule 3 to another place').dragTo(page.getByRole('group', { name: 'Rule 1: Rule 1' }));
  const names = page.getByRole('group', { name: /^Rule \d+: Rule \d$/ });
  await expect(names).toHaveCount(3);
  await expect(page.getByRole('group', { name: 'Rule 1: Rule 3' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Rule 2: Rule 1' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Rule 3: Rule 2' })).toBeVisible();
  await expectNoAxeViolations(page, 'configuration, custom rules');

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved as version 2.')).toBeVisible();
  const saved = (await (await page.request.get(`/api/spaces/${spaceId}/firewalls/${id}`)).json()) as {
    customRules: { name: string }[];
  };
  expect(saved.customRules.map((rule) => rule.name)).toEqual(['Rule 3', 'Rule 1', 'Rule 2']);
});

test('countries are blocked by clicking them on the world map, by keyboard on the map, and from the list, and saved', async ({
  page,
}) => {
  test.slow();
  const spaceId = await newSpace(page.request, `Country map ${Date.now()}`);
  const id = await openNewFirewall(page, spaceId);
  await page.getByRole('tab', { name: 'Countries' }).click();
  const status = page.getByRole('status').filter({ hasText: /blocked/ });
  await expect(status).toHaveText('No countries blocked.');

  // By mouse: a click on Brazil's shape (large and in one piece, so the middle of its box is on it) blocks it, a
  // second one unblocks it.
  const map = page.getByRole('figure', { name: 'World map of blocked countries' });
  const brazil = map.locator('path.highcharts-point.highcharts-key-br');
  await brazil.click();
  await expect(status).toHaveText('1 country blocked: Brazil.');
  await expect(page.getByRole('checkbox', { name: 'Brazil BR' })).toBeChecked();
  // The tooltip says what the country is now (not Highcharts' own point state, "hover").
  await brazil.hover();
  await expect(map.locator('.highcharts-tooltip')).toContainText('Brazil: blocked');
  await brazil.click();
  await expect(status).toHaveText('No countries blocked.');
  await expect(page.getByRole('checkbox', { name: 'Brazil BR' })).not.toBeChecked();

  // By keyboard: Tab from the data-table button enters the map's points, the arrows go from country to country
  // (in the data's order, and through countries without a shape on this map), Enter clicks the highlighted one.
  await page.mouse.move(0, 0);
  await map.getByRole('button', { name: /View as data table/ }).focus();
  await page.keyboard.press('Tab');
  await expect(map.locator('path.highcharts-point').first()).toBeFocused();
  const highlighted = () => brazil.evaluate((element) => element.classList.contains('highcharts-point-hover'));
  for (let step = 0; step < 60 && !(await highlighted()); step += 1) await page.keyboard.press('ArrowRight');
  expect(await highlighted()).toBe(true);
  await page.keyboard.press('Enter');
  await expect(status).toHaveText('1 country blocked: Brazil.');

  // From the list: the search narrows it, the checkbox adds a second country; the map follows.
  await page.getByRole('searchbox', { name: 'Search countries' }).fill('Japan');
  await page.getByRole('checkbox', { name: 'Japan JP' }).check();
  await expect(status).toHaveText('2 countries blocked: Brazil, Japan.');
  await expect(map.locator('path.highcharts-point.highcharts-key-jp')).toHaveAttribute('fill', '#b42318');
  await expect(brazil).toHaveAttribute('fill', '#b42318');
  await expectNoAxeViolations(page, 'configuration, countries');

  await page.getByRole('textbox', { name: 'Comment for this version (optional)' }).fill('block Brazil and Japan');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved as version 2.')).toBeVisible();
  const saved = (await (await page.request.get(`/api/spaces/${spaceId}/firewalls/${id}`)).json()) as {
    countryBlock: string[];
  };
  expect(saved.countryBlock).toEqual(['BR', 'JP']);
});
