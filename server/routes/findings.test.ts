/**
 * Assessments and findings through the API: matching with each ecosystem's version order, findings kept across
 * re-assessments with their triage, fixed and found again, triage in VEX terms with the one triage record, risk
 * acceptances that end, the VEX export, virtual patches kept in step with the firewall, and roles.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Role } from '../../contract/common.ts';
import { activity } from '../db/schema/activity.ts';
import { memberships } from '../db/schema/memberships.ts';
import { spaces } from '../db/schema/spaces.ts';
import { createTestApi, type TestApi } from '../test/harness.ts';
import { testClock } from '../test/jobs.ts';
import { runVulnJobs } from '../test/vulns.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
const as = {} as Record<Role, string>;
let spaceId: string;
let shopId: string;
let hostId: string;
const clock = testClock('2026-11-24T08:00:00Z');

/** OSV records as their databases publish them (trimmed to what matching reads). */
const records = [
  {
    schema_version: '1.6.0',
    id: 'GHSA-jf85-cpcp-j695',
    aliases: ['CVE-2019-10744'],
    summary: 'Prototype Pollution in lodash',
    details: 'Versions of `lodash` before 4.17.12 are vulnerable to Prototype Pollution.',
    modified: '2024-03-01T00:00:00Z',
    published: '2019-07-10T19:45:23Z',
    severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }],
    affected: [
      {
        package: { ecosystem: 'npm', name: 'lodash' },
        ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '4.17.12' }] }],
      },
    ],
    database_specific: { cwe_ids: ['CWE-1321'], severity: 'CRITICAL' },
    references: [{ type: 'ADVISORY', url: 'https://nvd.nist.gov/vuln/detail/CVE-2019-10744' }],
  },
  {
    schema_version: '1.6.0',
    id: 'GHSA-jfh8-c2jp-5v3q',
    aliases: ['CVE-2021-44228'],
    summary: 'Remote code injection in Log4j',
    details: 'JNDI lookups in log messages.',
    modified: '2024-02-01T00:00:00Z',
    severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H' }],
    affected: [
      {
        package: { ecosystem: 'Maven', name: 'org.apache.logging.log4j:log4j-core' },
        // Two ranges: the 2.0-beta9 line fixed in 2.15.0, and (for the installed 2.14.1 irrelevant) the 2.13 line
        // also fixed in 2.16.0: the smallest fix above 2.14.1 is 2.15.0.
        ranges: [
          { type: 'ECOSYSTEM', events: [{ introduced: '2.13.0' }, { fixed: '2.16.0' }] },
          { type: 'ECOSYSTEM', events: [{ introduced: '2.0-beta9' }, { fixed: '2.15.0' }] },
        ],
      },
    ],
    database_specific: { cwe_ids: ['CWE-917', 'CWE-502'] },
  },
  {
    schema_version: '1.6.0',
    id: 'PYSEC-2021-9',
    aliases: ['CVE-2021-3281'],
    summary: 'Directory traversal in Django archive extraction',
    modified: '2024-01-01T00:00:00Z',
    affected: [
      {
        package: { ecosystem: 'PyPI', name: 'django' },
        ranges: [
          { type: 'ECOSYSTEM', events: [{ introduced: '2.2' }, { fixed: '2.2.18' }] },
          { type: 'ECOSYSTEM', events: [{ introduced: '3.0' }, { fixed: '3.0.12' }] },
          { type: 'ECOSYSTEM', events: [{ introduced: '3.1' }, { fixed: '3.1.6' }] },
        ],
      },
    ],
    database_specific: { severity: 'MODERATE' },
  },
  {
    // Withdrawn: kept in the library, never matched.
    schema_version: '1.6.0',
    id: 'GHSA-xxxx-withdrawn',
    summary: 'Withdrawn advisory for express',
    modified: '2024-01-02T00:00:00Z',
    withdrawn: '2024-01-03T00:00:00Z',
    affected: [
      {
        package: { ecosystem: 'npm', name: 'express' },
        ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '5.0.0' }] }],
      },
    ],
  },
  {
    schema_version: '1.6.0',
    id: 'DSA-5532-1',
    aliases: ['CVE-2023-5363'],
    summary: 'openssl security update',
    modified: '2023-10-25T00:00:00Z',
    affected: [
      {
        package: { ecosystem: 'Debian:12', name: 'openssl' },
        ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '3.0.11-1~deb12u2' }] }],
        ecosystem_specific: { urgency: 'high' },
      },
    ],
  },
];

const path = (p: string) => `/api/spaces/${spaceId}${p}`;

// The import route reads its body itself (a JSON record or array, or a zip): the typed client has no shape for it.
async function importRecords(body: unknown) {
  const res = await t.raw('POST', path('/vuln-refs'), { cookie: as.admin, body });
  if (res.status !== 200 && res.status !== 202) throw new Error(`import ${res.status} ${res.text}`);
  await runVulnJobs(t.db, { now: clock.now, deps: t.deps });
  return res;
}

type FindingJson = {
  id: string;
  vulnId: string;
  status: string;
  fixedIn: string | null;
  severity: string;
  justification: string | null;
  component: { name: string; version: string };
  asset: { id: string };
};

async function findings(query: { assetId?: string; ecosystem?: string; q?: string } = {}): Promise<FindingJson[]> {
  const res = await t.read(
    t.api(as.viewer).spaces[':spaceId'].findings.$get({ param: { spaceId }, query: { limit: '200', ...query } }),
  );
  expect(res.status).toBe(200);
  return res.json.items;
}

const byVuln = (list: FindingJson[], vulnId: string, assetId = shopId) =>
  list.find((f) => f.vulnId === vulnId && f.asset.id === assetId);

async function assess(body: object = {}, cookie = as.admin) {
  clock.advance(60_000);
  return t.read(t.api(cookie).spaces[':spaceId'].assessments.$post({ param: { spaceId }, json: body }));
}

beforeAll(async () => {
  t = await createTestApi({ now: clock.now });
  as.owner = (await t.signUp('owner@example.com', 'Olive')).cookie;
  spaceId = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Shop' } }))).json.id;
  await t.db.update(spaces).set({ plan: 'business' }).where(eq(spaces.id, spaceId));
  for (const role of ['admin', 'analyst', 'viewer'] as const) {
    const { cookie, user } = await t.signUp(`${role}@example.com`, `${role[0]?.toUpperCase()}${role.slice(1)}`);
    await t.db.insert(memberships).values({ spaceId, userId: user.id, role, createdAt: clock.now() });
    as[role] = cookie;
  }
  await importRecords(records);
  const shop = await t.read(
    t.api(as.admin).spaces[':spaceId'].assets.$post({
      param: { spaceId },
      json: {
        name: 'shop-web',
        kind: 'application',
        environment: 'production',
        components: [
          { purl: 'pkg:npm/lodash@4.17.11' },
          { purl: 'pkg:npm/express@4.18.2' },
          { purl: 'pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1' },
          { purl: 'pkg:pypi/Django@3.1.5' },
          // Not affected: 3.1.6 is the fix of the 3.1 line.
          { ecosystem: 'PyPI', name: 'django-rest-framework', version: '3.12.0' },
        ],
      },
    }),
  );
  if (shop.status !== 201) throw new Error(`asset ${shop.status} ${shop.text}`);
  shopId = shop.json.id;
  const host = await t.read(
    t.api(as.admin).spaces[':spaceId'].assets.$post({
      param: { spaceId },
      json: {
        name: 'db-1',
        kind: 'host',
        components: [
          // Debian order: 3.0.11-1~deb12u1 sorts before 3.0.11-1~deb12u2 (the fix): affected.
          { ecosystem: 'Debian', name: 'openssl', version: '3.0.11-1~deb12u1' },
          // A Debian 11 package of the same source: the advisory is about Debian 12, so it does not apply.
          { purl: 'pkg:deb/debian/libssl1.1@1.1.1n-0+deb11u3?arch=amd64&upstream=openssl&distro=debian-11' },
        ],
      },
    }),
  );
  if (host.status !== 201) throw new Error(`asset ${host.status} ${host.text}`);
  hostId = host.json.id;
});
afterAll(async () => {
  await t.close();
});

describe('assessments', () => {
  test.each([
    ['analyst', 403],
    ['viewer', 403],
  ] as const)('%s cannot run an assessment: %s', async (role, expected) => {
    expect((await assess({}, as[role])).status).toBe(expected);
  });

  test('an assessment of every asset finds what the records say, by each ecosystem’s order', async () => {
    const res = await assess();
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ assets: 2, components: 7, findingsNew: 4, findingsFixed: 0, trigger: 'manual' });
    const list = await findings();
    expect(list.map((f) => `${f.vulnId} ${f.component.name}@${f.component.version}`).sort()).toEqual([
      'DSA-5532-1 openssl@3.0.11-1~deb12u1',
      'GHSA-jf85-cpcp-j695 lodash@4.17.11',
      'GHSA-jfh8-c2jp-5v3q org.apache.logging.log4j:log4j-core@2.14.1',
      // The purl spec lower-cases PyPI names: pkg:pypi/Django is django.
      'PYSEC-2021-9 django@3.1.5',
    ]);
    expect(byVuln(list, 'GHSA-jf85-cpcp-j695')).toMatchObject({
      fixedIn: '4.17.12',
      severity: 'critical',
      status: 'open',
    });
    // The smallest fix above 2.14.1 across both ranges.
    expect(byVuln(list, 'GHSA-jfh8-c2jp-5v3q')?.fixedIn).toBe('2.15.0');
    expect(byVuln(list, 'PYSEC-2021-9')?.fixedIn).toBe('3.1.6');
    expect(byVuln(list, 'DSA-5532-1', hostId)?.fixedIn).toBe('3.0.11-1~deb12u2');
    expect(res.json.open.critical).toBeGreaterThanOrEqual(1);
  });

  test('an asset of another space is not found', async () => {
    const res = await assess({ assetId: '00000000-0000-4000-8000-000000000000' });
    expect(res.status).toBe(404);
  });

  test('the list filters by asset, severity, ecosystem and text, with counts', async () => {
    expect((await findings({ assetId: hostId })).map((f) => f.vulnId)).toEqual(['DSA-5532-1']);
    expect((await findings({ ecosystem: 'Maven' })).map((f) => f.vulnId)).toEqual(['GHSA-jfh8-c2jp-5v3q']);
    expect((await findings({ q: 'CVE-2019-10744' })).map((f) => f.vulnId)).toEqual(['GHSA-jf85-cpcp-j695']);
    const bad = await t.read(
      t.api(as.viewer).spaces[':spaceId'].findings.$get({ param: { spaceId }, query: { status: 'open,broken' } }),
    );
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields.status).toMatch(/Use any of open, not_affected/);
  });
});

describe('triage', () => {
  test('a not affected finding needs a VEX justification, named on its field', async () => {
    const f = byVuln(await findings(), 'GHSA-jf85-cpcp-j695');
    const res = await t.read(
      t.api(as.analyst).spaces[':spaceId'].findings[':id'].$patch({
        param: { spaceId, id: String(f?.id) },
        json: { status: 'not_affected' },
      }),
    );
    expect(res.status).toBe(400);
    expect(res.json.error.fields.justification).toMatch(/VEX justification/);
  });

  test('viewers cannot triage', async () => {
    const f = byVuln(await findings(), 'GHSA-jf85-cpcp-j695');
    const res = await t.read(
      t.api(as.viewer).spaces[':spaceId'].findings[':id'].$patch({
        param: { spaceId, id: String(f?.id) },
        json: { status: 'not_affected', justification: 'code_not_reachable' },
      }),
    );
    expect(res.status).toBe(403);
  });

  test('not affected is kept across re-assessments, in the triage record and the audit log', async () => {
    const f = byVuln(await findings(), 'GHSA-jf85-cpcp-j695');
    const res = await t.read(
      t.api(as.analyst).spaces[':spaceId'].findings[':id'].$patch({
        param: { spaceId, id: String(f?.id) },
        json: { status: 'not_affected', justification: 'code_not_reachable', reason: 'merge() is never called' },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'not_affected', justification: 'code_not_reachable' });
    expect((await assess()).json.findingsNew).toBe(0);
    expect(byVuln(await findings(), 'GHSA-jf85-cpcp-j695')?.status).toBe('not_affected');
    const detail = await t.read(
      t.api(as.viewer).spaces[':spaceId'].findings[':id'].$get({ param: { spaceId, id: String(f?.id) } }),
    );
    expect(detail.json.timeline).toEqual([
      expect.objectContaining({
        decision: 'not_affected',
        actor: expect.objectContaining({ name: 'Analyst' }),
        reason: 'merge() is never called',
        scope: { justification: 'code_not_reachable' },
      }),
    ]);
    const audited = await t.db
      .select()
      .from(activity)
      .where(and(eq(activity.action, 'finding.update'), eq(activity.objectId, f?.id ?? '')));
    expect(audited).toHaveLength(1);
  });

  test('a risk acceptance needs a reason and an end ahead, and opens the finding again when it ends', async () => {
    const f = byVuln(await findings(), 'PYSEC-2021-9');
    const missing = await t.read(
      t.api(as.analyst).spaces[':spaceId'].findings[':id'].$patch({
        param: { spaceId, id: String(f?.id) },
        json: { status: 'accepted' },
      }),
    );
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.json.error.fields).sort()).toEqual(['reason', 'until']);
    const past = await t.read(
      t.api(as.analyst).spaces[':spaceId'].findings[':id'].$patch({
        param: { spaceId, id: String(f?.id) },
        json: { status: 'accepted', reason: 'internal only', until: '2026-11-01T00:00:00Z' },
      }),
    );
    expect(past.status).toBe(400);
    expect(past.json.error.fields.until).toMatch(/future/);
    const until = new Date(clock.now().getTime() + 2 * 86_400_000).toISOString();
    const ok = await t.read(
      t.api(as.analyst).spaces[':spaceId'].findings[':id'].$patch({
        param: { spaceId, id: String(f?.id) },
        json: { status: 'accepted', reason: 'Admin upload is disabled until the upgrade', until },
      }),
    );
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ status: 'accepted', until });
    clock.advance(86_400_000);
    await runVulnJobs(t.db, { now: clock.now, deps: t.deps });
    expect(byVuln(await findings(), 'PYSEC-2021-9')?.status).toBe('accepted');
    clock.advance(86_400_000 + 60_000);
    await runVulnJobs(t.db, { now: clock.now, deps: t.deps });
    expect(byVuln(await findings(), 'PYSEC-2021-9')?.status).toBe('open');
    const detail = await t.read(
      t.api(as.viewer).spaces[':spaceId'].findings[':id'].$get({ param: { spaceId, id: String(f?.id) } }),
    );
    expect(detail.json.timeline.at(-1)).toMatchObject({ decision: 'reopened', reason: 'The risk acceptance ended.' });
  });

  test('bulk triage changes the findings it can and says how many', async () => {
    const list = await findings();
    const ids = list.map((f) => f.id);
    const res = await t.read(
      t.api(as.analyst).spaces[':spaceId'].findings.bulk.$post({
        param: { spaceId },
        json: { ids, status: 'not_affected', justification: 'requires_configuration' },
      }),
    );
    expect(res.status).toBe(200);
    // The lodash finding already is not affected, but with another justification: every one changes.
    expect(res.json.updated).toBe(4);
    const reopen = await t.read(
      t.api(as.analyst).spaces[':spaceId'].findings.bulk.$post({ param: { spaceId }, json: { ids, status: 'open' } }),
    );
    expect(reopen.json.updated).toBe(4);
  });
});

describe('inventory changes', () => {
  test('a component upgraded past the fix makes its finding fixed; going back finds it again', async () => {
    const upgraded = await t.read(
      t.api(as.admin).spaces[':spaceId'].assets[':id'].$patch({
        param: { spaceId, id: shopId },
        json: {
          components: [
            { purl: 'pkg:npm/lodash@4.17.21' },
            { purl: 'pkg:npm/express@4.18.2' },
            { purl: 'pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1' },
            { purl: 'pkg:pypi/Django@3.1.5' },
          ],
        },
      }),
    );
    expect(upgraded.status).toBe(200);
    const res = await assess({ assetId: shopId });
    expect(res.json).toMatchObject({ assets: 1, findingsFixed: 1, findingsNew: 0 });
    const fixed = byVuln(await findings(), 'GHSA-jf85-cpcp-j695');
    expect(fixed?.status).toBe('fixed');
    const triage = await t.read(
      t.api(as.analyst).spaces[':spaceId'].findings[':id'].$patch({
        param: { spaceId, id: String(fixed?.id) },
        json: { status: 'open' },
      }),
    );
    expect(triage.status).toBe(409);
  });

  test('a library import re-assesses every asset by itself', async () => {
    const before = (await findings()).length;
    await importRecords({
      schema_version: '1.6.0',
      id: 'GHSA-rv95-896h-c2vc',
      aliases: ['CVE-2024-29041'],
      summary: 'Open redirect in express',
      modified: '2024-03-25T00:00:00Z',
      affected: [
        {
          package: { ecosystem: 'npm', name: 'express' },
          ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '4.19.2' }] }],
        },
      ],
    });
    const list = await findings();
    expect(list.length).toBe(before + 1);
    expect(byVuln(list, 'GHSA-rv95-896h-c2vc')).toMatchObject({ fixedIn: '4.19.2', status: 'open' });
    const trend = await t.read(t.api(as.viewer).spaces[':spaceId'].findings.trend.$get({ param: { spaceId } }));
    expect(trend.json.points.length).toBeGreaterThanOrEqual(4);
  });
});

describe('VEX export', () => {
  test('an asset’s findings as CycloneDX VEX with analysis state and justification', async () => {
    const f = byVuln(await findings(), 'DSA-5532-1', hostId);
    await t.read(
      t.api(as.analyst).spaces[':spaceId'].findings[':id'].$patch({
        param: { spaceId, id: String(f?.id) },
        json: { status: 'not_affected', justification: 'requires_environment' },
      }),
    );
    const res = await t.read(
      t.api(as.viewer).spaces[':spaceId'].assets[':id'].vex.$get({ param: { spaceId, id: hostId } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="db-1.vex.cdx.json"');
    expect(res.json).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.5' });
    expect(res.json.vulnerabilities).toEqual([
      expect.objectContaining({
        id: 'DSA-5532-1',
        analysis: expect.objectContaining({ state: 'not_affected', justification: 'requires_environment' }),
        affects: [
          {
            ref: expect.stringContaining('openssl'),
            versions: [{ version: '3.0.11-1~deb12u1', status: 'unaffected' }],
          },
        ],
      }),
    ]);
  });
});

describe('the trend', () => {
  test('ends now on the open counts the findings list shows, a triage since the last assessment included', async () => {
    const open = byVuln(await findings(), 'GHSA-rv95-896h-c2vc');
    expect(open?.status).toBe('open');
    clock.advance(60_000);
    await t.read(
      t.api(as.analyst).spaces[':spaceId'].findings[':id'].$patch({
        param: { spaceId, id: String(open?.id) },
        json: { status: 'not_affected', justification: 'code_not_reachable' },
      }),
    );
    clock.advance(60_000);
    const list = await t.raw('GET', path('/findings?limit=1'), { cookie: as.viewer });
    const trend = await t.read(t.api(as.viewer).spaces[':spaceId'].findings.trend.$get({ param: { spaceId } }));
    const points = trend.json.points;
    expect(points.at(-1)).toEqual({ at: clock.now().toISOString(), open: list.json.counts.open });
    // The last assessment's point counted the finding the triage closed since.
    const total = (point: { open: Record<string, number> } | undefined) =>
      Object.values(point?.open ?? {}).reduce((sum: number, n: number) => sum + n, 0);
    expect(total(points.at(-2))).toBe(total(points.at(-1)) + 1);
  });
});

describe('virtual patches', () => {
  let firewallId: string;
  beforeAll(async () => {
    const firewall = await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls.$post({
        param: { spaceId },
        json: { name: 'shop', hostnames: ['shop.example.com'], upstream: 'http://127.0.0.1:3000', mode: 'block' },
      }),
    );
    if (firewall.status !== 201) throw new Error(`firewall ${firewall.status} ${firewall.text}`);
    firewallId = firewall.json.id;
  });

  const log4j = async () => byVuln(await findings(), 'GHSA-jfh8-c2jp-5v3q');

  test('a host’s finding cannot be patched on a firewall', async () => {
    const f = byVuln(await findings(), 'DSA-5532-1', hostId);
    const res = await t.read(
      t.api(as.admin).spaces[':spaceId'].findings[':id']['virtual-patch'].preview.$post({
        param: { spaceId, id: String(f?.id) },
        json: { kind: 'custom-rule', firewallId, path: '/' },
      }),
    );
    expect(res.status).toBe(409);
    expect(res.json.error.message).toMatch(/web applications/);
  });

  test('the preview names the change and the compiled files, and suggests the CRS group of the weakness', async () => {
    const f = await log4j();
    const res = await t.read(
      t.api(as.admin).spaces[':spaceId'].findings[':id']['virtual-patch'].preview.$post({
        param: { spaceId, id: String(f?.id) },
        json: { kind: 'custom-rule', firewallId, path: '/api/log', methods: ['post'], queryPattern: '\\$\\{jndi:' },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.json.change).toBe(
      'Block POST requests to /api/log whose query matches \\$\\{jndi: on shop (GHSA-jfh8-c2jp-5v3q in org.apache.logging.log4j:log4j-core of shop-web).',
    );
    expect(res.json.suggestedGroup).toBe('REQUEST-944-APPLICATION-ATTACK-JAVA');
    expect(res.json.files.length).toBeGreaterThan(0);
    expect(res.json.files.map((file: { after: string }) => file.after).join('\n')).toContain('/api/log');
  });

  test('a bad path is refused on its field', async () => {
    const f = await log4j();
    const res = await t.read(
      t.api(as.admin).spaces[':spaceId'].findings[':id']['virtual-patch'].$post({
        param: { spaceId, id: String(f?.id) },
        json: { kind: 'custom-rule', firewallId, path: 'api/log' },
      }),
    );
    expect(res.status).toBe(400);
    expect(res.json.error.fields.path).toMatch(/starts with \//);
  });

  test('analysts cannot change a firewall', async () => {
    const f = await log4j();
    const res = await t.read(
      t.api(as.analyst).spaces[':spaceId'].findings[':id']['virtual-patch'].$post({
        param: { spaceId, id: String(f?.id) },
        json: { kind: 'custom-rule', firewallId, path: '/api/log' },
      }),
    );
    expect(res.status).toBe(403);
  });

  test('applying makes a firewall version and mitigates the finding; removing the rule from the firewall reopens it', async () => {
    const f = await log4j();
    const res = await t.read(
      t.api(as.admin).spaces[':spaceId'].findings[':id']['virtual-patch'].$post({
        param: { spaceId, id: String(f?.id) },
        json: { kind: 'custom-rule', firewallId, path: '/api/log', methods: ['POST'] },
      }),
    );
    expect(res.status).toBe(201);
    expect(res.json.version).toBe(2);
    expect(res.json.finding).toMatchObject({ status: 'mitigated', justification: 'protected_at_perimeter' });
    expect(res.json.finding.virtualPatch).toMatchObject({
      firewallId,
      kind: 'custom-rule',
      version: 2,
      firewallMode: 'block',
    });
    const firewall = await t.read(
      t.api(as.viewer).spaces[':spaceId'].firewalls[':id'].$get({ param: { spaceId, id: firewallId } }),
    );
    const rule = firewall.json.customRules.find((r: { name: string }) => r.name.includes('GHSA-jfh8-c2jp-5v3q'));
    expect(rule).toMatchObject({ action: 'block', enabled: true });
    expect(res.json.finding.virtualPatch.ruleId).toBe(rule.id);
    // Re-assessing keeps the mitigation.
    await assess();
    expect((await log4j())?.status).toBe('mitigated');
    // Someone edits the firewall and drops the rule: the finding opens again, and says why.
    const edited = await t.read(
      t.api(as.admin).spaces[':spaceId'].firewalls[':id'].$patch({
        param: { spaceId, id: firewallId },
        json: { customRules: [], version: 2 },
      }),
    );
    expect(edited.status).toBe(200);
    const after = await t.read(
      t.api(as.viewer).spaces[':spaceId'].findings[':id'].$get({ param: { spaceId, id: String(f?.id) } }),
    );
    expect(after.json).toMatchObject({ status: 'open', justification: null, virtualPatch: null });
    expect(after.json.patches).toEqual([expect.objectContaining({ removedInVersion: 3 })]);
    expect(after.json.timeline.at(-1)).toMatchObject({
      decision: 'reopened',
      actor: expect.objectContaining({ name: 'Admin' }),
      reason: expect.stringContaining('no longer in shop, version 3'),
    });
  });

  test('removing a patch from the finding takes it off the firewall', async () => {
    const f = await log4j();
    const made = await t.read(
      t.api(as.admin).spaces[':spaceId'].findings[':id']['virtual-patch'].$post({
        param: { spaceId, id: String(f?.id) },
        json: { kind: 'custom-rule', firewallId, path: '/api/log' },
      }),
    );
    expect(made.status).toBe(201);
    const removed = await t.read(
      t
        .api(as.admin)
        .spaces[':spaceId'].findings[':id']['virtual-patch'].$delete({ param: { spaceId, id: String(f?.id) } }),
    );
    expect(removed.status).toBe(200);
    expect(removed.json).toMatchObject({ status: 'open', virtualPatch: null });
    const firewall = await t.read(
      t.api(as.viewer).spaces[':spaceId'].firewalls[':id'].$get({ param: { spaceId, id: firewallId } }),
    );
    expect(firewall.json.customRules).toEqual([]);
    // Removing again changes nothing (DELETE is idempotent): no new firewall version.
    const again = await t.read(
      t
        .api(as.admin)
        .spaces[':spaceId'].findings[':id']['virtual-patch'].$delete({ param: { spaceId, id: String(f?.id) } }),
    );
    expect(again.status).toBe(200);
    const versions = await t.read(
      t.api(as.viewer).spaces[':spaceId'].firewalls[':id'].$get({ param: { spaceId, id: firewallId } }),
    );
    expect(versions.json.version).toBe(firewall.json.version);
  });
});
