/**
 * Vulnerability assessment through the built pages and the real API: an asset added with its CycloneDX
 * SBOM, assessed against the library; a finding triaged in VEX terms; the asset's VEX exported; a virtual patch made
 * on the firewall in front of it, which mitigates the finding. Accessible in both themes, no sideways scroll at 375 px.
 */
import { readFileSync } from 'node:fs';
import { BASE_URL } from './base-url.ts';
import { expect, newSpace, test } from './fixtures.ts';
import {
  attachScreenshot,
  expectAccessibleInBothThemes,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
} from './page-checks.ts';
import { vulnRecords as records } from './vuln-records.ts';

const headers = { origin: BASE_URL };

const sbom = {
  bomFormat: 'CycloneDX',
  specVersion: '1.5',
  version: 1,
  metadata: { component: { type: 'application', name: 'shop-web', version: '3.2.0' } },
  components: [
    { type: 'library', name: 'lodash', version: '4.17.11', purl: 'pkg:npm/lodash@4.17.11' },
    { type: 'library', name: 'express', version: '4.21.2', purl: 'pkg:npm/express@4.21.2' },
    {
      type: 'library',
      group: 'org.apache.logging.log4j',
      name: 'log4j-core',
      version: '2.14.1',
      purl: 'pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1',
    },
  ],
};

test('an SBOM uploaded, assessed, a finding triaged, VEX exported, a virtual patch mitigating a finding', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  // Full-page screenshots kept with the results, as responsive.spec.ts keeps them.
  const shot = (name: string) => attachScreenshot(page, testInfo, `${name.replaceAll(' ', '-')}.png`);
  const spaceId = await newSpace(page.request, `Vulns ${Date.now()}`);
  const imported = await page.request.post(`/api/spaces/${spaceId}/vuln-refs`, { data: records, headers });
  expect(imported.status()).toBe(200);
  const firewall = await page.request.post(`/api/spaces/${spaceId}/firewalls`, {
    data: { name: 'shop-waf', hostnames: ['shop.example.test'], upstream: 'http://127.0.0.1:3000', mode: 'block' },
    headers,
  });
  expect(firewall.status()).toBe(201);

  // The empty findings tab says what to do; the asset is added with its SBOM on the assets tab.
  await page.goto(`/console/vulnerabilities/assessment/${spaceId}`);
  await expect(page.getByText(/No findings yet/)).toBeVisible();
  await expectNoAxeViolations(page, 'empty findings');
  await page.getByRole('tab', { name: 'Assets' }).click();
  await page.getByRole('button', { name: 'Add asset' }).click();
  const form = page.getByRole('form', { name: 'New asset' });
  await form.getByRole('textbox', { name: 'Name' }).fill('shop-web');
  await form.getByRole('combobox', { name: 'Kind' }).selectOption('application');
  await form.getByRole('combobox', { name: 'Firewall in front of it' }).selectOption({ label: 'shop-waf' });
  await form.getByRole('radio', { name: 'Upload a CycloneDX SBOM' }).check();
  await form.getByLabel('SBOM file').setInputFiles({
    name: 'shop-web.cdx.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(sbom)),
  });
  await form.getByRole('button', { name: 'Add asset' }).click();
  await page.getByRole('button', { name: 'shop-web' }).first().click();
  await expect(page.getByRole('table', { name: 'Components of shop-web' })).toContainText('log4j-core');
  await shot('asset page');
  await expectAccessibleInBothThemes(page, 'asset page');
  await expectNoSidewaysScroll(page, 'asset page');

  // Assess the asset: two of its three components have a vulnerability of the library.
  await page.getByRole('button', { name: 'Assess now' }).click();
  await expect(page.getByText('Assessed 1 asset (3 components): 2 new, 0 fixed, 0 found again.')).toBeVisible();

  await page.getByRole('tab', { name: 'Findings' }).click();
  const table = page.getByRole('table', { name: 'Findings' });
  await expect(table).toContainText('GHSA-jf85-cpcp-j695');
  await expect(table).toContainText('GHSA-jfh8-c2jp-5v3q');
  await expect(table).toContainText('4.17.12');
  await shot('findings');
  await expectAccessibleInBothThemes(page, 'findings');
  await expectNoSidewaysScroll(page, 'findings');

  // Triage: lodash's vulnerable function is never reached.
  await page.getByRole('button', { name: 'GHSA-jf85-cpcp-j695' }).click();
  const panel = page.getByRole('dialog', { name: 'Finding GHSA-jf85-cpcp-j695' });
  await panel.getByRole('combobox', { name: 'Decision' }).selectOption('not_affected');
  await panel.getByRole('combobox', { name: 'Justification (VEX)' }).selectOption('code_not_reachable');
  await panel.getByRole('textbox', { name: 'Reason (optional)' }).fill('merge() is never called with user input');
  await panel.getByRole('button', { name: 'Save decision' }).click();
  await expect(
    panel.getByRole('list').filter({ hasText: 'Not affected: The vulnerable code is not reachable' }),
  ).toBeVisible();
  await expectNoAxeViolations(page, 'finding panel');
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(table.getByRole('row').filter({ hasText: 'GHSA-jf85-cpcp-j695' })).toContainText('Not affected');

  // A virtual patch for Log4Shell on the firewall in front of the shop.
  await page.getByRole('button', { name: 'GHSA-jfh8-c2jp-5v3q' }).click();
  const log4j = page.getByRole('dialog', { name: 'Finding GHSA-jfh8-c2jp-5v3q' });
  await log4j.getByRole('textbox', { name: 'Path prefix' }).fill('/api/log');
  await log4j.getByRole('textbox', { name: 'Methods (optional)' }).fill('POST');
  await log4j.getByRole('button', { name: 'Preview the change' }).click();
  await expect(log4j.getByText(/^Block POST requests to \/api\/log on shop-waf/)).toBeVisible();
  await expect(log4j.getByText(/REQUEST-944-APPLICATION-ATTACK-JAVA/)).toBeVisible();
  await shot('virtual patch preview');
  await expectNoAxeViolations(page, 'virtual patch preview');
  await log4j.getByRole('button', { name: 'Apply as version 2' }).click();
  await expect(log4j.getByText(/since version 2 of/)).toBeVisible();
  await expect(log4j.getByText('Mitigated (Protected at the perimeter (firewall))')).toBeVisible();
  await log4j.getByRole('button', { name: 'Close' }).click();
  await expect(table.getByRole('row').filter({ hasText: 'GHSA-jfh8-c2jp-5v3q' })).toContainText('Mitigated');

  // The asset's VEX: the triage decisions in CycloneDX terms.
  await table.getByRole('button', { name: 'shop-web' }).first().click();
  await page.getByRole('button', { name: 'Show findings' }).click();
  await expect(page).toHaveURL(/f\.asset=/);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export VEX (CycloneDX)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('shop-web.vex.cdx.json');
  const vex = JSON.parse(readFileSync((await download.path()) as string, 'utf8')) as {
    vulnerabilities: { id: string; analysis: { state: string; justification?: string } }[];
  };
  const states = Object.fromEntries(vex.vulnerabilities.map((v) => [v.id, v.analysis]));
  expect(states['GHSA-jf85-cpcp-j695']).toMatchObject({ state: 'not_affected', justification: 'code_not_reachable' });
  expect(states['GHSA-jfh8-c2jp-5v3q']).toMatchObject({
    state: 'exploitable',
    justification: 'protected_at_perimeter',
  });
});
