/** The assets API: roles, inventories typed or from a CycloneDX SBOM, malformed SBOMs by JSON path, history, limits. */
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Role } from '../../contract/common.ts';
import { activity } from '../db/schema/activity.ts';
import { memberships } from '../db/schema/memberships.ts';
import { spaces } from '../db/schema/spaces.ts';
import { assetComponents, assetInventories, findings } from '../db/schema/vulns.ts';
import { insertFirewall } from '../test/firewall-row.ts';
import { createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
const as = {} as Record<Role, string>;
let spaceId: string;

const webShop = JSON.parse(
  readFileSync(new URL('../../tests/fixtures/sbom/web-shop.cdx.json', import.meta.url), 'utf8'),
);

/** The web shop SBOM's inventory, written by hand: 23 entries, lodash and Django twice, so 21 components. */
const webShopInventory = [
  ['Debian', 'openssl', '1.1.1n-0+deb11u3', 'Debian:openssl@1.1.1n-0+deb11u3'],
  ['Go', 'github.com/gin-gonic/gin', 'v1.7.0', 'Go:github.com/gin-gonic/gin@v1.7.0'],
  ['Go', 'golang.org/x/net', 'v0.7.0', 'Go:golang.org/x/net@v0.7.0'],
  [
    'Maven',
    'com.fasterxml.jackson.core:jackson-databind',
    '2.12.1',
    'Maven:com.fasterxml.jackson.core:jackson-databind@2.12.1',
  ],
  ['Maven', 'org.apache.logging.log4j:log4j-api', '2.14.1', 'Maven:org.apache.logging.log4j:log4j-api@2.14.1'],
  ['Maven', 'org.apache.logging.log4j:log4j-core', '2.14.1', 'Maven:org.apache.logging.log4j:log4j-core@2.14.1'],
  ['Maven', 'org.springframework:spring-web', '5.3.18', 'Maven:org.springframework:spring-web@5.3.18'],
  ['PyPI', 'celery', '5.0.5', 'PyPI:celery@5.0.5'],
  ['PyPI', 'django', '3.2.12', 'PyPI:django@3.2.12'],
  ['PyPI', 'pillow', '8.1.0', 'PyPI:pillow@8.1.0'],
  ['PyPI', 'requests', '2.25.1', 'PyPI:requests@2.25.1'],
  ['PyPI', 'urllib3', '1.26.4', 'PyPI:urllib3@1.26.4'],
  ['cargo', 'serde', '1.0.130', 'cargo:serde@1.0.130'],
  ['npm', '@angular/core', '16.2.0', 'npm:@angular/core@16.2.0'],
  ['npm', 'axios', '0.21.1', 'npm:axios@0.21.1'],
  ['npm', 'body-parser', '1.19.0', 'npm:body-parser@1.19.0'],
  ['npm', 'express', '4.17.1', 'npm:express@4.17.1'],
  ['npm', 'jsonwebtoken', '8.5.1', 'npm:jsonwebtoken@8.5.1'],
  ['npm', 'lodash', '4.17.20', 'npm:lodash@4.17.20'],
  ['npm', 'minimist', '1.2.5', 'npm:minimist@1.2.5'],
  ['npm', 'qs', '6.7.0', 'npm:qs@6.7.0'],
].map(([ecosystem = '', name = '', version = '', key = '']) => ({ ecosystem, name, version, key }));

beforeAll(async () => {
  t = await createTestApi();
  as.owner = (await t.signUp('owner@example.com', 'Olive')).cookie;
  spaceId = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Shop' } }))).json.id;
  await t.db.update(spaces).set({ plan: 'business' }).where(eq(spaces.id, spaceId));
  for (const role of ['admin', 'analyst', 'viewer'] as const) {
    const { cookie, user } = await t.signUp(`${role}@example.com`, role);
    await t.db.insert(memberships).values({ spaceId, userId: user.id, role, createdAt: t.deps.now() });
    as[role] = cookie;
  }
});
afterAll(async () => {
  await t.close();
});

const assetsPath = (space = spaceId) => `/api/spaces/${space}/assets`;
let counter = 0;

async function create(body: Record<string, unknown>, cookie = as.admin) {
  counter += 1;
  const res = await t.read(
    t.api(cookie).spaces[':spaceId'].assets.$post({
      param: { spaceId },
      json: { name: `asset ${counter}`, kind: 'application', ...body },
    }),
  );
  if (res.status !== 201) throw new Error(`create ${res.status} ${res.text}`);
  return res.json as { id: string; name: string };
}

const byKey = <T extends { key: string }>(list: T[]) => [...list].sort((a, b) => (a.key < b.key ? -1 : 1));

describe('assets', () => {
  test.each([
    ['owner', 201],
    ['admin', 201],
    ['analyst', 403],
    ['viewer', 403],
  ] as const)('%s creates an asset: %s', async (role, expected) => {
    const res = await t.read(
      t
        .api(as[role])
        .spaces[':spaceId'].assets.$post({ param: { spaceId }, json: { name: `by ${role}`, kind: 'host' } }),
    );
    expect(res.status).toBe(expected);
  });

  test('analysts and viewers read; they may not change or delete', async () => {
    const asset = await create({ components: [{ purl: 'pkg:npm/lodash@4.17.20' }] });
    for (const role of ['analyst', 'viewer'] as const) {
      expect((await t.read(t.api(as[role]).spaces[':spaceId'].assets.$get({ param: { spaceId } }))).status).toBe(200);
      expect(
        (await t.read(t.api(as[role]).spaces[':spaceId'].assets[':id'].$get({ param: { spaceId, id: asset.id } })))
          .status,
      ).toBe(200);
      const patch = await t.read(
        t
          .api(as[role])
          .spaces[':spaceId'].assets[':id'].$patch({ param: { spaceId, id: asset.id }, json: { tags: ['x'] } }),
      );
      expect(patch.status).toBe(403);
      expect(
        (await t.read(t.api(as[role]).spaces[':spaceId'].assets[':id'].$delete({ param: { spaceId, id: asset.id } })))
          .status,
      ).toBe(403);
    }
  });

  test('a real-looking CycloneDX 1.5 SBOM: nested components read, duplicates merged, cargo kept but not assessed', async () => {
    const res = await t.read(
      t.api(as.admin).spaces[':spaceId'].assets.$post({
        param: { spaceId },
        json: {
          name: 'Web shop',
          kind: 'application',
          environment: 'production',
          tags: ['shop', 'pci'],
          sbom: webShop,
          sbomFileName: 'acme-shop.cdx.json',
        },
      }),
    );
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      name: 'Web shop',
      environment: 'production',
      tags: ['shop', 'pci'],
      inventoryVersion: 1,
      inventorySource: 'sbom',
      components: 21,
      notAssessed: 1,
      sbom: {
        specVersion: '1.5',
        serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
        tools: ['@cyclonedx cdxgen 10.9.4'],
        component: { name: 'acme-shop', version: '4.2.0' },
        fileName: 'acme-shop.cdx.json',
      },
    });
    const detail = await t.read(
      t.api(as.viewer).spaces[':spaceId'].assets[':id'].$get({ param: { spaceId, id: res.json.id } }),
    );
    expect(detail.status).toBe(200);
    expect(
      byKey<{ key: string; ecosystem: string; name: string; version: string }>(detail.json.inventory).map(
        ({ ecosystem, name, version, key }) => ({ ecosystem, name, version, key }),
      ),
    ).toEqual(byKey(webShopInventory));
    const serde = detail.json.inventory.find((c: { name: string }) => c.name === 'serde');
    expect(serde).toMatchObject({ assessed: false, note: 'not assessed (ecosystem cargo is not supported)' });
    const angular = detail.json.inventory.find((c: { name: string }) => c.name === '@angular/core');
    expect(angular).toMatchObject({ purl: 'pkg:npm/%40angular/core@16.2.0', assessed: true, note: null });
    // minimist's purl has its version; a component without one in its purl takes the component's.
    const rows = await t.db.select().from(assetComponents).where(eq(assetComponents.assetId, res.json.id));
    expect(rows.find((r) => r.name === 'django')?.packageKey).toBe('PyPI:django');
  });

  test('typed components: purls and ecosystem, name, version; duplicates merged; each problem named by its field', async () => {
    const asset = await create({
      components: [
        { purl: 'pkg:npm/%40babel/traverse@7.23.0' },
        { ecosystem: 'npm', name: '@Babel/Traverse', version: '7.23.0' },
        { ecosystem: 'PyPI', name: 'Jinja2', version: '2.11.2' },
        { purl: 'pkg:gem/rails@6.1.0' },
      ],
    });
    const detail = (
      await t.read(t.api(as.viewer).spaces[':spaceId'].assets[':id'].$get({ param: { spaceId, id: asset.id } }))
    ).json;
    expect(detail.inventorySource).toBe('manual');
    expect(byKey(detail.inventory).map((c: { key: string }) => c.key)).toEqual([
      'PyPI:jinja2@2.11.2',
      'gem:rails@6.1.0',
      'npm:@babel/traverse@7.23.0',
    ]);
    for (const [component, field, message] of [
      [{ purl: 'pkg:npm' }, 'components.0.purl', /"pkg:npm" is not a package URL \(.*name.*\)/],
      [{ purl: 'pkg:npm/lodash' }, 'components.0.purl', /has no version/],
      [
        { ecosystem: 'RubyGems', name: 'rails', version: '6' },
        'components.0.ecosystem',
        /Use one of npm, PyPI, Maven, Go, Debian/,
      ],
      [{ ecosystem: 'npm', name: 'x' }, 'components.0.version', /Give the version/],
      [{ ecosystem: 'Maven', name: 'log4j-core', version: '2.14.1' }, 'components.0.name', /group:artifact/],
      [{ ecosystem: 'npm', name: 'x', version: '1', extra: 1 }, 'components.0.extra', /Unknown field/],
    ] as const) {
      const res = await t.raw('POST', assetsPath(), {
        cookie: as.admin,
        body: { name: 'typed bad', kind: 'host', components: [component] },
      });
      expect(res.status, JSON.stringify(component)).toBe(400);
      expect(res.json.error.fields[field], JSON.stringify(res.json.error.fields)).toMatch(message);
    }
  });

  test.each([
    [{ ...webShop, bomFormat: 'SPDX' }, /^sbom\.bomFormat: must be "CycloneDX" \(found "SPDX"\)/],
    [{ ...webShop, specVersion: '1.2' }, /^sbom\.specVersion: CycloneDX 1\.4, 1\.5, 1\.6 are read \(found "1\.2"\)/],
    [{ ...webShop, components: {} }, /^sbom\.components: must be an array/],
    [
      {
        ...webShop,
        components: [
          { name: 'a', version: '1', purl: 'pkg:npm/a@1' },
          { name: 'b', purl: 'pkg:npm/b@1' },
          { name: 'c', purl: 'pkg:npm/c@1' },
          { name: 'd', purl: 'pkg:npm/d@1', components: [{ name: 'e', purl: 'pkg:npm' }] },
        ],
      },
      /^sbom\.components\[3\]\.components\[0\]\.purl: "pkg:npm" is not a package URL \(/,
    ],
    [
      { ...webShop, components: [{ type: 'library', name: 'x' }] },
      /^sbom\.components\[0\]: a component needs a "purl", or a "name" and a "version"/,
    ],
    [{ ...webShop, components: [{ purl: 'pkg:npm/x' }] }, /^sbom\.components\[0\]\.purl: "pkg:npm\/x" has no version/],
    [{ ...webShop, components: [7] }, /^sbom\.components\[0\]: must be a component object/],
  ])('a malformed SBOM is refused with the JSON path: %#', async (sbom, message) => {
    const res = await t.read(
      t
        .api(as.admin)
        .spaces[':spaceId'].assets.$post({ param: { spaceId }, json: { name: 'bad sbom', kind: 'application', sbom } }),
    );
    expect(res.status).toBe(400);
    expect(res.json.error.fields.sbom).toMatch(message);
  });

  test('components and an SBOM together are refused; fields are checked', async () => {
    const both = await t.read(
      t.api(as.admin).spaces[':spaceId'].assets.$post({
        param: { spaceId },
        json: { name: 'both', kind: 'host', components: [], sbom: webShop },
      }),
    );
    expect(both.json.error.fields.sbom).toMatch(/not both/);
    for (const [body, field, message] of [
      [{ name: '', kind: 'host' }, 'name', /Give the asset a name/],
      [{ name: 'x', kind: 'server' }, 'kind', /./],
      [{ name: 'x', kind: 'host', tags: ['a', 'A'] }, 'tags', /once/],
      [{ name: 'x', kind: 'host', firewallId: crypto.randomUUID() }, 'firewallId', /host/],
      [{ name: 'x', kind: 'application', firewallId: crypto.randomUUID() }, 'firewallId', /no such firewall/],
    ] as const) {
      const res = await t.raw('POST', assetsPath(), { cookie: as.admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.fields[field]).toMatch(message);
    }
    await create({ name: 'Unique name' });
    const again = await t.read(
      t
        .api(as.admin)
        .spaces[':spaceId'].assets.$post({ param: { spaceId }, json: { name: 'UNIQUE name', kind: 'host' } }),
    );
    expect(again.status).toBe(409);
    expect(again.json.error.fields.name).toMatch(/Another asset/);
  });

  test('a firewall of the space may stand in front of an application', async () => {
    const firewallId = await insertFirewall(t.db, spaceId, t.deps.now());
    const asset = await create({ firewallId });
    expect(
      (await t.read(t.api(as.viewer).spaces[':spaceId'].assets[':id'].$get({ param: { spaceId, id: asset.id } }))).json
        .firewallId,
    ).toBe(firewallId);
    const toHost = await t.read(
      t
        .api(as.admin)
        .spaces[':spaceId'].assets[':id'].$patch({ param: { spaceId, id: asset.id }, json: { kind: 'host' } }),
    );
    expect(toHost.status).toBe(400);
    expect(toHost.json.error.fields.firewallId).toMatch(/host/);
  });

  test('a new SBOM replaces the inventory and keeps the previous one in the history; audited', async () => {
    const asset = await create({
      components: [{ purl: 'pkg:npm/lodash@4.17.20' }, { ecosystem: 'PyPI', name: 'django', version: '3.2.12' }],
    });
    const res = await t.read(
      t.api(as.admin).spaces[':spaceId'].assets[':id'].$patch({
        param: { spaceId, id: asset.id },
        json: { sbom: webShop, sbomFileName: 'v2.cdx.json', environment: 'staging' },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      inventoryVersion: 2,
      inventorySource: 'sbom',
      components: 21,
      environment: 'staging',
    });
    const detail = (
      await t.read(t.api(as.viewer).spaces[':spaceId'].assets[':id'].$get({ param: { spaceId, id: asset.id } }))
    ).json;
    expect(detail.history).toEqual([
      expect.objectContaining({
        version: 1,
        source: 'manual',
        sbom: null,
        components: 2,
        replacedBy: expect.objectContaining({ name: 'admin' }),
      }),
    ]);
    const old = await t.read(
      t.api(as.viewer).spaces[':spaceId'].assets[':id'].inventories[':version'].$get({
        param: { spaceId, id: asset.id, version: '1' },
      }),
    );
    expect(old.status).toBe(200);
    expect(old.json).toMatchObject({ version: 1, current: false, source: 'manual' });
    expect(old.json.components.map((c: { key: string }) => c.key).sort()).toEqual([
      'PyPI:django@3.2.12',
      'npm:lodash@4.17.20',
    ]);
    const current = await t.read(
      t.api(as.viewer).spaces[':spaceId'].assets[':id'].inventories[':version'].$get({
        param: { spaceId, id: asset.id, version: '2' },
      }),
    );
    expect(current.json).toMatchObject({ version: 2, current: true, source: 'sbom', replacedAt: null });
    expect(current.json.components).toHaveLength(21);
    expect(
      (
        await t.read(
          t.api(as.viewer).spaces[':spaceId'].assets[':id'].inventories[':version'].$get({
            param: { spaceId, id: asset.id, version: '3' },
          }),
        )
      ).status,
    ).toBe(404);
    // Typed components replace the SBOM's in turn: version 3, the SBOM's inventory in the history.
    const typed = await t.read(
      t
        .api(as.admin)
        .spaces[':spaceId'].assets[':id'].$patch({ param: { spaceId, id: asset.id }, json: { components: [] } }),
    );
    expect(typed.json).toMatchObject({ inventoryVersion: 3, inventorySource: 'manual', components: 0, sbom: null });
    const history = (
      await t.read(t.api(as.viewer).spaces[':spaceId'].assets[':id'].$get({ param: { spaceId, id: asset.id } }))
    ).json.history;
    expect(
      history.map((h: { version: number; source: string; components: number }) => [h.version, h.source, h.components]),
    ).toEqual([
      [2, 'sbom', 21],
      [1, 'manual', 2],
    ]);
    expect(history[0].sbom).toMatchObject({ fileName: 'v2.cdx.json', specVersion: '1.5' });
    // A change without an inventory leaves it alone.
    const renamed = await t.read(
      t
        .api(as.admin)
        .spaces[':spaceId'].assets[':id'].$patch({ param: { spaceId, id: asset.id }, json: { name: 'Renamed' } }),
    );
    expect(renamed.json.inventoryVersion).toBe(3);
    const audit = await t.db.select().from(activity).where(eq(activity.objectId, asset.id));
    expect(audit.map((a) => a.action).sort()).toEqual(['asset.create', 'asset.update', 'asset.update', 'asset.update']);
    expect(
      audit.find((a) => (a.change as { inventory?: unknown })?.inventory && a.action === 'asset.update')?.change,
    ).toMatchObject({
      inventory: { from: { version: 1, components: 2 }, to: { version: 2, source: 'sbom', components: 21 } },
    });
  });

  test('each component counts its findings that are not fixed; the asset counts open ones by severity', async () => {
    const asset = await create({ components: [{ purl: 'pkg:npm/lodash@4.17.20' }, { purl: 'pkg:npm/qs@6.7.0' }] });
    const now = new Date();
    const finding = (vulnId: string, componentKey: string, severity: string, status: string) => ({
      spaceId,
      assetId: asset.id,
      componentKey,
      ecosystem: 'npm',
      packageName: componentKey.split(':')[1]?.split('@')[0] ?? '',
      version: componentKey.split('@').pop() ?? '',
      vulnId,
      severity,
      status,
      firstSeen: now,
      lastSeen: now,
      updatedAt: now,
    });
    await t.db
      .insert(findings)
      .values([
        finding('GHSA-1', 'npm:lodash@4.17.20', 'high', 'open'),
        finding('GHSA-2', 'npm:lodash@4.17.20', 'critical', 'open'),
        finding('GHSA-3', 'npm:lodash@4.17.20', 'medium', 'fixed'),
        finding('GHSA-4', 'npm:qs@6.7.0', 'high', 'accepted'),
      ]);
    const detail = (
      await t.read(t.api(as.viewer).spaces[':spaceId'].assets[':id'].$get({ param: { spaceId, id: asset.id } }))
    ).json;
    expect(detail.findings.open).toMatchObject({ critical: 1, high: 1, medium: 0 });
    expect(detail.findings.byStatus).toMatchObject({ open: 2, fixed: 1, accepted: 1 });
    expect(
      Object.fromEntries(detail.inventory.map((c: { key: string; findings: number }) => [c.key, c.findings])),
    ).toEqual({
      'npm:lodash@4.17.20': 2,
      'npm:qs@6.7.0': 1,
    });
    const listed = (
      await t.read(t.api(as.viewer).spaces[':spaceId'].assets.$get({ param: { spaceId } }))
    ).json.items.find((a: { id: string }) => a.id === asset.id);
    expect(listed.findings.open.critical).toBe(1);

    // Delete cascades: components, history and findings go with the asset.
    await t.read(
      t
        .api(as.admin)
        .spaces[':spaceId'].assets[':id'].$patch({ param: { spaceId, id: asset.id }, json: { components: [] } }),
    );
    expect(
      (await t.read(t.api(as.admin).spaces[':spaceId'].assets[':id'].$delete({ param: { spaceId, id: asset.id } })))
        .status,
    ).toBe(200);
    expect(await t.db.select().from(findings).where(eq(findings.assetId, asset.id))).toEqual([]);
    expect(await t.db.select().from(assetComponents).where(eq(assetComponents.assetId, asset.id))).toEqual([]);
    expect(await t.db.select().from(assetInventories).where(eq(assetInventories.assetId, asset.id))).toEqual([]);
    expect(
      (await t.read(t.api(as.viewer).spaces[':spaceId'].assets[':id'].$get({ param: { spaceId, id: asset.id } })))
        .status,
    ).toBe(404);
  });

  test('the Free plan allows 5 assets, naming the plan that lifts it', async () => {
    const free = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Free shop' } }))).json.id;
    for (let i = 0; i < 5; i += 1) {
      const res = await t.read(
        t
          .api(as.owner)
          .spaces[':spaceId'].assets.$post({ param: { spaceId: free }, json: { name: `a${i}`, kind: 'host' } }),
      );
      expect(res.status).toBe(201);
    }
    const sixth = await t.read(
      t.api(as.owner).spaces[':spaceId'].assets.$post({ param: { spaceId: free }, json: { name: 'a5', kind: 'host' } }),
    );
    expect(sixth.status).toBe(402);
    expect(sixth.json.error).toEqual({
      code: 'plan_limit',
      message: 'Assets on Free: 5 of 5 used; Pro allows 50',
      limit: 'assets',
      plan: 'free',
      upgradeTo: 'pro',
    });
  });

  test('another space’s asset is not found; an SBOM above 1 MB passes the body limit', async () => {
    const other = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Other' } }))).json.id;
    const asset = await create({});
    expect(
      (await t.read(t.api(as.owner).spaces[':spaceId'].assets[':id'].$get({ param: { spaceId: other, id: asset.id } })))
        .status,
    ).toBe(404);
    const many = Array.from({ length: 12_000 }, (_, i) => ({
      type: 'library',
      name: `package-${i}`,
      version: '1.0.0',
      purl: `pkg:npm/package-${i}@1.0.0`,
      description: 'x'.repeat(40),
    }));
    const big = { ...webShop, components: many };
    expect(JSON.stringify(big).length).toBeGreaterThan(1024 * 1024);
    const res = await t.read(
      t
        .api(as.admin)
        .spaces[':spaceId'].assets[':id'].$patch({ param: { spaceId, id: asset.id }, json: { sbom: big } }),
    );
    expect(res.status, res.text.slice(0, 200)).toBe(200);
    expect(res.json.components).toBe(12_000);
  });
});
