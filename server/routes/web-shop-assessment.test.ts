/**
 * A real-looking case end to end through the API: the web shop's CycloneDX SBOM (npm, PyPI, Maven, Go, Debian and an
 * unsupported cargo crate, nested and duplicated components) assessed against a library of published advisories
 * (trimmed to what matching reads). The expected findings below are worked out by hand from the records' ranges.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createTestApi, type TestApi } from '../test/harness.ts';
import { runVulnJobs } from '../test/vulns.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const fixture = (path: string) =>
  JSON.parse(readFileSync(new URL(`../../tests/fixtures/${path}`, import.meta.url), 'utf8'));

let t: TestApi;
let cookie: string;
let spaceId: string;

beforeAll(async () => {
  t = await createTestApi();
  cookie = (await t.signUp('owner@example.com', 'Olive')).cookie;
  spaceId = (await t.read(t.api(cookie).spaces.$post({ json: { name: 'Web shop' } }))).json.id;
});
afterAll(async () => {
  await t.close();
});

test('the web shop’s SBOM against published advisories: each finding and its fix, as the ranges say', async () => {
  const library = await t.raw('POST', `/api/spaces/${spaceId}/vuln-refs`, {
    cookie,
    body: fixture('osv/web-shop-library.json'),
  });
  expect(library.status).toBe(200);
  expect(library.json).toMatchObject({ imported: 20, withdrawn: 1 });
  await runVulnJobs(t.db, { deps: t.deps });

  const asset = await t.read(
    t.api(cookie).spaces[':spaceId'].assets.$post({
      param: { spaceId },
      json: { name: 'web-shop', kind: 'application', sbom: fixture('sbom/web-shop.cdx.json') },
    }),
  );
  expect(asset.status).toBe(201);
  const assessed = await t.read(
    t.api(cookie).spaces[':spaceId'].assessments.$post({ param: { spaceId }, json: { assetId: asset.json.id } }),
  );
  expect(assessed.status).toBe(201);

  const res = await t.read(
    t.api(cookie).spaces[':spaceId'].findings.$get({ param: { spaceId }, query: { limit: '200' } }),
  );
  const found = (res.json.items as { vulnId: string; component: { name: string; version: string }; fixedIn: string }[])
    .map((f) => `${f.component.name}@${f.component.version} ${f.vulnId} → ${f.fixedIn}`)
    .sort();
  expect(found).toEqual(
    [
      // npm: qs 6.7.0 is in the 6.7.0–6.7.3 range (not the 0–6.2.4 one); minimist 1.2.5 in the second range.
      'qs@6.7.0 GHSA-hrpp-h998-j3pp → 6.7.3',
      'lodash@4.17.20 GHSA-35jh-r3h4-6jhm → 4.17.21',
      'axios@0.21.1 GHSA-cph5-m8f7-6c5x → 0.21.2',
      'jsonwebtoken@8.5.1 GHSA-27h2-hvpr-p74q → 9.0.0',
      'minimist@1.2.5 GHSA-xvch-5gv4-984h → 1.2.6',
      'body-parser@1.19.0 GHSA-qwcr-r2fm-qrc7 → 1.20.3',
      // express: the open redirect, not the withdrawn duplicate.
      'express@4.17.1 GHSA-rv95-896h-c2vc → 4.19.2',
      // PyPI: Django 3.2.12 in the 3.2 line (listed twice in the SBOM, one component); names per PEP 503.
      'django@3.2.12 PYSEC-2022-190 → 3.2.13',
      'urllib3@1.26.4 PYSEC-2021-108 → 1.26.5',
      'requests@2.25.1 GHSA-j8r2-6x86-q33q → 2.31.0',
      'pillow@8.1.0 PYSEC-2021-36 → 8.1.1',
      'celery@5.0.5 GHSA-q4xr-rc97-m4xx → 5.2.2',
      // Maven: log4j-core 2.14.1 in the 2.13.0–2.15.0 range; jackson-databind's four-part fix; log4j-api is not named
      // by the record; spring-web 5.3.18 is the fix itself, so not affected.
      'org.apache.logging.log4j:log4j-core@2.14.1 GHSA-jfh8-c2jp-5v3q → 2.15.0',
      'com.fasterxml.jackson.core:jackson-databind@2.12.1 GHSA-57j2-w4cx-62h2 → 2.12.6.1',
      // Go: v1.7.0 with its v; x/net v0.7.0 is the fix of GO-2023-1571 but before that of GO-2023-1988.
      'github.com/gin-gonic/gin@v1.7.0 GO-2021-0052 → 1.7.7',
      'golang.org/x/net@v0.7.0 GO-2023-1988 → 0.13.0',
      // Debian: the bullseye host gets the Debian 11 advisory, not the Debian 12 one.
      'openssl@1.1.1n-0+deb11u3 DSA-5343-1 → 1.1.1n-0+deb11u4',
    ].sort(),
  );
  // The cargo crate is kept but not assessed; the counts say so.
  expect(assessed.json).toMatchObject({ assets: 1, findingsNew: 17 });
});
