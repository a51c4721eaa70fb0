/**
 * What a new user reads in the demo (`npm run demo`'s seed, through the `demoSpace` fixture) in their first hour:
 * the top rules are the rules that detected something, every CRS message reads without its raw macro, the
 * storefront's assessment finds what the demo's OSV library holds, its rules have opened alerts, and a country is
 * listed once.
 */
import { expect, test } from './fixtures.ts';

test('the overview lists the rules that detected the week’s attacks, and no CRS message shows a raw macro', async ({
  page,
  demoSpace,
}) => {
  test.slow();
  await page.goto(`/console/${demoSpace.spaceId}`);
  await page.getByLabel('Time range').selectOption('7d');
  const rules = page.getByRole('region', { name: 'Top rules' });
  // The demo's attacks were scored by SQL injection, XSS, traversal… rules: those lead, not the 949110 verdict.
  await expect(
    rules
      .getByRole('row')
      .filter({ hasText: /94[12]\d{3}/ })
      .first(),
  ).toBeVisible();
  await expect(rules.getByRole('row').filter({ hasText: '949110' })).toHaveCount(0);
  await expect(page.getByRole('main')).not.toContainText('%{');

  // The verdict itself, in the event log's rows and drawer: its message without "(Total Score: %{TX.…})".
  await page.goto(`/console/siem/${demoSpace.spaceId}?${new URLSearchParams({ q: 'rule:949110', range: '7d' })}`);
  const table = page.getByRole('region', { name: 'Events, scrollable' });
  await expect(table.getByRole('row').nth(1)).toContainText('Inbound Anomaly Score Exceeded');
  await expect(table).not.toContainText('%{');
  await table.getByRole('button').first().click();
  const drawer = page.getByRole('complementary', { name: /Event / });
  await expect(drawer).toContainText('Inbound Anomaly Score Exceeded');
  await expect(drawer).not.toContainText('%{');
});

test('the storefront’s assessment finds the demo library’s advisories, and the demo’s rules have opened alerts', async ({
  page,
  demoSpace,
}) => {
  await page.goto(`/console/vulnerabilities/assessment/${demoSpace.spaceId}`);
  const main = page.getByRole('main');
  await expect(main.getByText('Storefront').first()).toBeVisible();
  // A lodash prototype pollution advisory of the vendored OSV set, on the storefront's lodash 4.17.20.
  await expect(main.getByText(/GHSA-[\w-]+/).first()).toBeVisible();
  await expect(main).not.toContainText('0 new');

  await page.goto(`/console/alert/${demoSpace.spaceId}`);
  await expect(page.getByRole('link', { name: /^SQL injection against / }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Security scanners at work' })).toBeVisible();
});

test('the firewall’s countries list names Benin and Burkina Faso once each', async ({ page, demoSpace }) => {
  await page.goto(`/console/firewall/config/${demoSpace.spaceId}/${demoSpace.firewallId}`);
  await page.getByRole('tab', { name: 'Countries' }).click();
  await expect(page.getByRole('checkbox', { name: /^Benin / })).toHaveCount(1);
  await expect(page.getByRole('checkbox', { name: /^Burkina Faso / })).toHaveCount(1);
  await expect(page.getByRole('checkbox', { name: /\b(DY|HV)$/ })).toHaveCount(0);
});
