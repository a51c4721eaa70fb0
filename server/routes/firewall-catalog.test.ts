import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { memberships } from '../db/schema/memberships.ts';
import { createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
let owner: string;
let viewer: string;
let stranger: string;
let spaceId: string;

beforeAll(async () => {
  t = await createTestApi();
  owner = (await t.signUp('owner@example.com', 'Olive')).cookie;
  spaceId = (await t.read(t.api(owner).spaces.$post({ json: { name: 'Edge' } }))).json.id;
  const v = await t.signUp('viewer@example.com', 'Vera');
  await t.db.insert(memberships).values({ spaceId, userId: v.user.id, role: 'viewer', createdAt: t.deps.now() });
  viewer = v.cookie;
  stranger = (await t.signUp('stranger@example.com', 'Sam')).cookie;
});
afterAll(async () => {
  await t.close();
});

describe('firewall catalog', () => {
  test('a viewer reads the installed CRS groups with their names; required groups are marked', async () => {
    const res = await t.read(t.api(viewer).spaces[':spaceId']['firewall-catalog'].$get({ param: { spaceId } }));
    expect(res.status).toBe(200);
    expect(res.json.version).toMatch(/^3\.\d+\.\d+$/);
    const sqli = res.json.groups.find((g: { name: string }) => g.name === 'REQUEST-942-APPLICATION-ATTACK-SQLI');
    expect(sqli).toMatchObject({ title: 'SQL injection', kind: 'request', optional: true });
    expect(sqli.ruleCount).toBeGreaterThan(10);
    const init = res.json.groups.find((g: { name: string }) => g.name === 'REQUEST-901-INITIALIZATION');
    expect(init).toMatchObject({ optional: false });
    expect(res.json.applications).toContain('wordpress');
  });

  test('a non-member gets the same 404 as for a missing space', async () => {
    const res = await t.read(t.api(stranger).spaces[':spaceId']['firewall-catalog'].$get({ param: { spaceId } }));
    expect(res.status).toBe(404);
  });
});
