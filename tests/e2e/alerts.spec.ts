/**
 * Alerts through the built pages and the real API: a threshold rule made in the editor opens one alert per
 * attacking IP, one alert is worked from its page (acknowledge with a note, snooze, resolve), the list is filtered and
 * bulk acknowledged; both pages are accessible and do not scroll sideways at 375 px.
 */
import { BASE_URL } from './base-url.ts';
import { expect, newSpace, test } from './fixtures.ts';
import {
  attachScreenshot,
  expectAccessibleInBothThemes,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
} from './page-checks.ts';

const headers = { origin: BASE_URL };
const ATTACKERS = ['198.51.100.7', '203.0.113.9'] as const;

/** Six SQL injection attempts from each attacker, a minute old at most (more than 5 in 5 minutes). */
function attackLines(): string {
  const lines: string[] = [];
  for (const ip of ATTACKERS) {
    for (let i = 0; i < 6; i += 1) {
      lines.push(
        JSON.stringify({
          time: new Date(Date.now() - i * 5_000).toISOString(),
          ip,
          method: 'GET',
          host: 'shop.example.test',
          path: `/search?q=%27%20or%201%3D1--&n=${i}`,
          status: 403,
          action: 'blocked',
          severity: 'critical',
          ruleIds: [942100],
          tags: ['attack-sqli'],
          message: 'SQL Injection Attack Detected via libinjection',
        }),
      );
    }
  }
  return lines.join('\n');
}

test('a threshold rule made in the editor opens one alert per IP; triage on the alert; bulk acknowledge on a filtered list', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  // Full-page screenshots kept with the results, as responsive.spec.ts keeps them.
  const shot = (name: string) => attachScreenshot(page, testInfo, `${name.replaceAll(' ', '-')}.png`);
  const spaceId = await newSpace(page.request, `Alerts ${Date.now()}`);
  const source = await page.request.post(`/api/spaces/${spaceId}/sources`, {
    data: { name: 'edge', kind: 'json' },
    headers,
  });
  expect(source.status()).toBe(201);
  const { token } = (await source.json()) as { token: string };

  // The empty list says what to do next; the rule is created in the editor.
  await page.goto(`/console/alert/${spaceId}`);
  await expect(page.getByText('No alerts yet: no rule watches your events.')).toBeVisible();
  await expectNoAxeViolations(page, 'empty alerts');
  await page.getByRole('button', { name: 'Create an alert rule' }).click();
  const editor = page.getByRole('form', { name: 'New alert rule' });
  await editor.getByRole('textbox', { name: 'Name' }).fill('SQL injection burst');
  await editor.getByRole('combobox', { name: 'Severity' }).selectOption('critical');
  await editor.getByRole('combobox', { name: 'Kind' }).selectOption('threshold');
  await editor.getByRole('textbox', { name: 'Query' }).fill('tag:attack-sqli');
  await editor.getByRole('textbox', { name: 'More than (events)' }).fill('5');
  await editor.getByRole('textbox', { name: 'In (minutes)' }).fill('5');
  await editor.getByRole('checkbox', { name: 'ip', exact: true }).check();
  await editor.getByRole('textbox', { name: 'Title template (optional)' }).fill('SQL injection from {ip}');
  await expectNoAxeViolations(page, 'rule editor');
  await shot('rule editor');
  await editor.getByRole('button', { name: 'Create rule' }).click();
  await expect(page.getByText('Rule “SQL injection burst” created.')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Alert rules' })).toContainText('SQL injection burst');
  await expect(page).toHaveURL(/\?tab=rules$/);
  await expectAccessibleInBothThemes(page, 'rules tab');
  await expectNoSidewaysScroll(page, 'rules tab');

  const ingest = await page.request.fetch(`/api/ingest/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', cookie: '' },
    data: attackLines(),
  });
  expect(ingest.ok()).toBe(true);

  // The scheduler evaluates threshold rules every minute: wait for one alert per attacker, and no more.
  await expect
    .poll(
      async () => {
        const list = await page.request.get(`/api/spaces/${spaceId}/alerts`);
        return ((await list.json()) as { items: { title: string }[] }).items.map((item) => item.title).sort();
      },
      { timeout: 180_000, intervals: [2_000, 5_000] },
    )
    .toEqual(ATTACKERS.map((ip) => `SQL injection from ${ip}`));

  await page.goto(`/console/alert/${spaceId}`);
  const table = page.getByRole('table', { name: 'Alerts' });
  await expect(table.getByRole('link')).toHaveCount(2);
  await expect(page.getByRole('list', { name: 'Alerts by severity' })).toHaveText('2 critical');
  await expectAccessibleInBothThemes(page, 'alerts list');
  await shot('alerts list');
  await expectNoSidewaysScroll(page, 'alerts list');

  // One alert, worked from its page.
  await table.getByRole('link', { name: `SQL injection from ${ATTACKERS[0]}` }).click();
  await expect(page.getByRole('heading', { name: `SQL injection from ${ATTACKERS[0]}`, level: 2 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Matching events' }).getByRole('row')).toHaveCount(7);
  await expect(page.getByRole('link', { name: 'Open in event log' })).toHaveAttribute('href', /\/console\/siem\//);
  await expectAccessibleInBothThemes(page, 'one alert');
  await shot('one alert');
  await expectNoSidewaysScroll(page, 'one alert');

  const triage = page.getByRole('region', { name: 'Triage' });
  await triage.getByRole('textbox', { name: 'Reason (optional)' }).fill('Looking into it');
  await triage.getByRole('button', { name: 'Acknowledge' }).click();
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline).toContainText('Looking into it');
  await expect(page.getByText('Acknowledged.', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Add a note…' }).click();
  const note = page.getByRole('form', { name: 'Add a note' });
  await note.getByRole('textbox', { name: 'Note' }).fill('Blocked at the edge; **watch** for a new IP.');
  await note.getByRole('button', { name: 'Add note' }).click();
  await expect(timeline.locator('strong', { hasText: 'watch' })).toBeVisible();

  await triage.getByRole('combobox', { name: 'Snooze for' }).selectOption('4h');
  await triage.getByRole('button', { name: 'Snooze' }).click();
  await expect(page.getByText(/^snoozed until/)).toBeVisible();

  await triage.getByRole('button', { name: 'Resolve' }).click();
  await expect(triage.getByRole('button', { name: 'Reopen' })).toBeVisible();
  await expect(triage.getByRole('button', { name: 'Resolve' })).toHaveCount(0);

  // The list, filtered to the other attacker, bulk acknowledged.
  await page.getByRole('link', { name: '← All alerts' }).click();
  await expect(page.getByRole('table', { name: 'Alerts' }).getByRole('link')).toHaveCount(1);
  await page.getByRole('checkbox', { name: 'critical' }).check();
  await page.getByRole('searchbox', { name: 'Words in the title or group' }).fill(ATTACKERS[1]);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/severity=critical/);
  await expect(page).toHaveURL(new RegExp(`q=${ATTACKERS[1].replaceAll('.', '\\.')}`));
  await page.getByRole('checkbox', { name: 'Select all alerts on the page' }).check();
  await page
    .getByRole('region', { name: 'Change the selected alerts' })
    .getByRole('button', { name: 'Acknowledge' })
    .click();
  await expect(page.getByText('Acknowledged 1 alert.')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Alerts' })).toContainText('acknowledged');

  // A reload reproduces the filtered view from the URL.
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'critical' })).toBeChecked();
  await expect(page.getByRole('searchbox', { name: 'Words in the title or group' })).toHaveValue(ATTACKERS[1]);
  await expectNoAxeViolations(page, 'filtered alerts');
  await shot('filtered alerts, bulk acknowledged');
});
