import type { Page } from '@playwright/test';
import { BASE_URL } from './base-url.ts';
import { expect, test } from './fixtures.ts';
import { expectNoAxeViolations } from './page-checks.ts';

/** A generic JSON event `minutesAgo` minutes old, as one NDJSON line. */
const eventLine = (minutesAgo: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ time: new Date(Date.now() - minutesAgo * 60_000).toISOString(), ...extra });

/** Posts NDJSON to an ingest URL as curl would: no cookie, the NDJSON content type. */
async function post(page: Page, url: string, lines: readonly string[]) {
  return page.request.fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', cookie: '' },
    data: lines.join('\n'),
  });
}

/** The value shown under a term of the figures. */
const figure = (page: Page, term: string) =>
  page.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd');

test('a log source from creation to ingest, parser test and token rotation, accessible in light and dark', async ({
  page,
  account,
}) => {
  // A long journey with four axe runs.
  test.slow();
  // The rail leads from the event log to its log sources, where the source is created; its token and curl line
  // are shown this once.
  await page.goto(`/console/siem/${account.spaceId}`);
  const rail = page.getByRole('navigation', { name: 'Console' }).first();
  await expect(rail.getByRole('link', { name: 'Events' })).toHaveAttribute('aria-current', 'page');
  await rail.getByRole('link', { name: 'Log sources' }).click();
  await expect(page).toHaveURL(`/console/siem/${account.spaceId}?view=sources`);
  await expect(rail.getByRole('link', { name: 'Log sources' })).toHaveAttribute('aria-current', 'page');
  await expect(rail.getByRole('link', { name: 'Events' })).not.toHaveAttribute('aria-current');
  await expect(page.getByRole('region', { name: 'Events', exact: true })).toHaveCount(0);
  const panel = page.getByRole('region', { name: 'Log sources', exact: true });
  const name = `edge ${Date.now()}`;
  await panel.getByRole('textbox', { name: 'Name' }).fill(name);
  await panel.getByRole('combobox', { name: 'Kind' }).selectOption({ label: 'JSON lines' });
  await panel.getByRole('button', { name: 'Create source' }).click();
  const token = await panel.getByRole('textbox', { name: 'Ingest token' }).inputValue();
  expect(token).toMatch(/^sgi_/);
  const curl = (await panel.getByRole('figure', { name: 'Send events with curl' }).locator('pre').textContent()) ?? '';
  expect(curl).toBe(
    `curl -X POST --data-binary @events.ndjson -H 'Content-Type: application/x-ndjson' ${BASE_URL}/api/ingest/${token}`,
  );
  const url = curl.split(' ').at(-1) as string;
  await expect(panel.getByRole('table', { name: 'Log sources' }).getByRole('link', { name })).toBeVisible();
  // The panel with its token on screen is accessible in both themes.
  await expectNoAxeViolations(page, 'panel, light');
  await page.getByRole('radio', { name: /Dark/ }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expectNoAxeViolations(page, 'panel, dark');
  await page.getByRole('radio', { name: /Light/ }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

  // The source page: nothing received yet, the token only by its prefix.
  await panel.getByRole('link', { name: `Open the page of ${name}` }).click();
  await expect(page).toHaveURL(/\/console\/siem\/manage\/[0-9a-f-]+\/[0-9a-f-]+$/);
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  await expect(figure(page, 'Events, last hour')).toHaveText('0');
  await expect(figure(page, 'Last event')).toHaveText('No events yet');
  await expect(page.getByText(token.slice(0, 10), { exact: true })).toBeVisible();
  await expect(page.locator('body')).not.toContainText(token);

  // Send events as curl would; the figures and recent errors follow.
  const sent = await post(page, url, [eventLine(2, { ip: '8.8.8.8', action: 'blocked' }), 'not json', eventLine(4)]);
  expect(sent.status()).toBe(200);
  expect(await sent.json()).toEqual({ accepted: 2, errors: [{ line: 2, message: expect.any(String) }] });
  await page.getByRole('button', { name: 'Refresh figures' }).click();
  await expect(figure(page, 'Events, last hour')).toHaveText('2');
  await expect(figure(page, 'Errors, last 24 h')).toHaveText('1');
  await expect(figure(page, 'Last event')).toContainText('just now');
  const recent = page.getByRole('table', { name: 'Recent ingest errors' });
  await expect(recent.getByRole('row')).toHaveCount(2);
  await expect(recent.getByRole('rowheader')).toHaveText('2');
  await expect(recent.getByRole('row').nth(1)).toContainText('Not valid JSON');

  // Parser test: one good line, one bad line.
  await page
    .getByRole('textbox', { name: 'Sample' })
    .fill(`${eventLine(1, { path: '/login', status: 403 })}\n{"path":"/x"}`);
  await page.getByRole('button', { name: 'Test parser' }).click();
  await expect(page.getByText('1 line read as events, 1 line refused.')).toBeVisible();
  const events = page.getByRole('table', { name: 'Normalised events' });
  await expect(events.getByRole('row')).toHaveCount(2);
  await expect(events.getByRole('row').nth(1)).toContainText('/login');
  const refused = page.getByRole('table', { name: 'Refused lines' });
  await expect(refused.getByRole('rowheader')).toHaveText('2');
  await expect(refused.getByRole('row').nth(1)).toContainText('time');

  // Rotate: asked first, then the new token once; the old one answers 401, the new one works.
  await page.getByRole('button', { name: 'Rotate token' }).click();
  await expect(page.getByRole('button', { name: 'Rotate', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  const fresh = page.getByRole('textbox', { name: 'Ingest token' });
  await expect(fresh).toHaveValue(/^sgi_/);
  const newToken = await fresh.inputValue();
  expect(newToken).not.toBe(token);
  await expect(page.getByRole('figure', { name: 'Send events with curl' }).locator('pre')).toHaveText(
    `curl -X POST --data-binary @events.ndjson -H 'Content-Type: application/x-ndjson' ${BASE_URL}/api/ingest/${newToken}`,
  );
  const old = await post(page, url, [eventLine(1)]);
  expect(old.status()).toBe(401);
  expect(((await old.json()) as { error: { message: string } }).error.message).toBe('Unknown or rotated source token.');
  expect(await (await post(page, `${BASE_URL}/api/ingest/${newToken}`, [eventLine(1)])).json()).toEqual({
    accepted: 1,
    errors: [],
  });

  // Accessible with the token, the parser results and the errors on screen, in light and in dark.
  await expectNoAxeViolations(page, 'light');
  await page.getByRole('radio', { name: /Dark/ }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expectNoAxeViolations(page, 'dark');
});

test('a source page opened later shows the placeholder in the curl line, and delete leads back to the log sources', async ({
  page,
  account,
}) => {
  const created = await page.request.post(`/api/spaces/${account.spaceId}/sources`, {
    data: { name: 'short lived', kind: 'syslog' },
    headers: { origin: BASE_URL },
  });
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/console/siem/manage/${account.spaceId}/${id}`);
  await expect(page.getByRole('heading', { level: 2, name: 'short lived' })).toBeVisible();
  await expect(page.getByText(/^Syslog \(RFC 5424\) · created/)).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Send events with curl' }).locator('pre')).toHaveText(
    `curl -X POST --data-binary @events.ndjson -H 'Content-Type: application/x-ndjson' ${BASE_URL}/api/ingest/$SPACEGUARD_TOKEN`,
  );
  await expect(page.getByText(/The token was shown once/)).toBeVisible();

  // Keyboard only: reach Delete source, confirm with Enter.
  const remove = page.getByRole('button', { name: 'Delete source' });
  await remove.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Delete', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`/console/siem/${account.spaceId}?view=sources`);
  // The list has loaded (the account's other sources, or none) and the deleted one is not in it.
  const list = page.getByRole('region', { name: 'Log sources', exact: true });
  await expect(list).toContainText(/Each source has its own ingest token|No log sources yet/);
  await expect(list).not.toContainText('short lived');
  expect((await page.request.get(`/api/spaces/${account.spaceId}/sources/${id}`)).status()).toBe(404);
});
