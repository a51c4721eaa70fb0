/**
 * The vulnerability reference library through the built pages and the real API: an admin imports a zip
 * of OSV records and watches the progress bar reach the total, searches by a CVE alias, opens a record (details as
 * Markdown, ranges in words, the vector's parts); a viewer reads the library without the import. Both views are
 * accessible in both themes and do not scroll sideways at 375 px.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { generatedRecord, makeZip } from '../fixtures/osv/zip.ts';
import { BASE_URL } from './base-url.ts';
import { createAccount, expect, mailedLink, newSpace, test } from './fixtures.ts';
import { expectAccessibleInBothThemes, expectNoAxeViolations, expectNoSidewaysScroll } from './page-checks.ts';

const headers = { origin: BASE_URL };
const fixture = (name: string) => readFileSync(resolve('tests/fixtures/osv', name), 'utf8');
const FILES = 600;

/** A zip like OSV's all.zip: generated npm records, the hand-written fixtures, and two files it refuses. */
function archive(): Buffer {
  const files = [
    ...Array.from({ length: FILES }, (_, i) => ({
      name: `npm/GHSA-gen0-${i}.json`,
      content: JSON.stringify(generatedRecord(i)),
    })),
    { name: 'npm/GHSA-4w2v-q235-vp99.json', content: fixture('GHSA-4w2v-q235-vp99.json') },
    { name: 'PyPI/GHSA-h5c8-rqwp-cp95.json', content: fixture('GHSA-h5c8-rqwp-cp95.json') },
    { name: 'Debian/DSA-5576-1.json', content: fixture('DSA-5576-1.json') },
    { name: 'npm/GHSA-9wx4-h78v-vm56.json', content: fixture('GHSA-9wx4-h78v-vm56.withdrawn.json') },
    { name: 'npm/invalid.json', content: fixture('invalid.json') },
    { name: 'README.md', content: '# not a record' },
  ];
  return Buffer.from(makeZip(files));
}

test('an admin imports a zip with a progress bar, searches by CVE alias and reads a record; a viewer sees no import', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const spaceId = await newSpace(page.request, `Library ${Date.now()}`);
  await page.goto(`/console/vulnerabilities/refs/${spaceId}`);
  await expect(page.getByText('The library is empty.')).toBeVisible();
  await expectNoAxeViolations(page, 'empty library');

  // The zip import runs as a job: the progress bar counts files read of the total, to the end.
  await page.getByLabel('OSV file').setInputFiles({ name: 'all.zip', mimeType: 'application/zip', buffer: archive() });
  await page.getByRole('button', { name: 'Import' }).click();
  const bar = page.getByRole('progressbar', { name: 'all.zip' });
  await expect(bar).toBeVisible();
  const total = FILES + 6;
  await expect(page.getByText(`${total} of ${total} files`)).toBeVisible({ timeout: 120_000 });
  await expect(bar).toHaveAttribute('max', String(total));
  await expect(bar).toHaveAttribute('value', String(total));
  await expect(
    page.getByText(`Imported all.zip: ${FILES + 3} new records, 0 updated, 0 unchanged, 1 withdrawn, 2 refused.`),
  ).toBeVisible();
  const refused = page.getByRole('table', { name: 'Refused files' });
  await expect(refused).toContainText('npm/invalid.json');
  await expect(refused).toContainText('modified:');
  await expect(refused).toContainText('README.md');
  await expectAccessibleInBothThemes(page, 'library after import');
  await expectNoSidewaysScroll(page, 'library after import');

  // Search by CVE alias; the search is in the URL.
  await page.getByRole('searchbox', { name: 'Id, alias, package or words' }).fill('CVE-2024-24762');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\?q=CVE-2024-24762$/);
  const table = page.getByRole('table', { name: 'Records of the library' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('High 7.5');

  // The record: Markdown rendered (no raw HTML), ranges in words, the vector's parts, references as links.
  await table.getByRole('link', { name: 'GHSA-4w2v-q235-vp99' }).click();
  await expect(page).toHaveURL(/\?q=CVE-2024-24762&id=GHSA-4w2v-q235-vp99$/);
  const detail = page.getByRole('article', { name: 'GHSA-4w2v-q235-vp99' });
  await expect(detail.getByRole('heading', { name: 'Impact' })).toBeVisible();
  await expect(detail.locator('.sg-markdown table')).toBeVisible();
  await expect(detail.locator('script')).toHaveCount(0);
  await expect(detail.getByText('from 2.0.0 before 2.3.1')).toBeVisible();
  await expect(detail.getByRole('list', { name: 'Parts of the CVSS 3.1 vector' })).toContainText(
    'Attack Vector: Network',
  );
  await expect(detail.getByRole('link', { name: 'https://nvd.nist.gov/vuln/detail/CVE-2024-24762' })).toHaveAttribute(
    'target',
    '_blank',
  );
  await expectAccessibleInBothThemes(page, 'record detail');
  await expectNoSidewaysScroll(page, 'record detail');

  // The link reproduces the view.
  await page.reload();
  await expect(page.getByRole('article', { name: 'GHSA-4w2v-q235-vp99' })).toBeVisible();

  // A viewer reads the library but has no import.
  const other = await browser.newContext({ baseURL: BASE_URL });
  const viewerPage = await other.newPage();
  const viewer = await createAccount(viewerPage.request, 'viewer');
  const invited = await page.request.post(`/api/spaces/${spaceId}/invitations`, {
    data: { email: viewer.email, role: 'viewer' },
    headers,
  });
  expect(invited.status()).toBe(201);
  const link = await mailedLink(viewerPage.request, viewer.email, '/spaces?invitation=');
  const token = new URLSearchParams(link.split('?')[1]).get('invitation') ?? '';
  expect((await viewerPage.request.post(`/api/invitations/${token}/accept`, { headers })).ok()).toBe(true);
  await viewerPage.goto(`/console/vulnerabilities/refs/${spaceId}?q=jinja2`);
  await expect(viewerPage.getByRole('link', { name: 'GHSA-h5c8-rqwp-cp95' })).toBeVisible();
  await expect(viewerPage.getByRole('heading', { name: 'Import OSV records' })).toHaveCount(0);
  await expect(viewerPage.getByLabel('OSV file')).toHaveCount(0);
  await expectNoAxeViolations(viewerPage, 'viewer library');
  await expectNoSidewaysScroll(viewerPage, 'viewer library');
  await other.close();
});
