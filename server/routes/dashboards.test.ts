/** The dashboards API: the default every space starts with, saves by version, roles, the plan's limit, the audit. */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Role } from '../../contract/common.ts';
import { dashboardTemplates } from '../../contract/constants/dashboard-templates.ts';
import { modelOf } from '../../contract/dashboard-rules.ts';
import type { Dashboard, DashboardModel } from '../../contract/dashboards.ts';
import { activity } from '../db/schema/activity.ts';
import { dashboards } from '../db/schema/dashboards.ts';
import { memberships } from '../db/schema/memberships.ts';
import { spaces } from '../db/schema/spaces.ts';
import { createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
const as = {} as Record<Role | 'stranger', string>;
let spaceId: string;

beforeAll(async () => {
  t = await createTestApi();
  as.owner = (await t.signUp('owner@example.com', 'Olive Owner')).cookie;
  spaceId = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Shop' } }))).json.id;
  await t.db.update(spaces).set({ plan: 'business' }).where(eq(spaces.id, spaceId));
  for (const role of ['admin', 'analyst', 'viewer'] as const) {
    const { cookie, user } = await t.signUp(`${role}@example.com`, `Ana ${role}`);
    await t.db.insert(memberships).values({ spaceId, userId: user.id, role, createdAt: t.deps.now() });
    as[role] = cookie;
  }
  as.stranger = (await t.signUp('stranger@example.com', 'Stranger')).cookie;
});
afterAll(async () => {
  await t.close();
});

const path = (space = spaceId) => `/api/spaces/${space}/dashboards`;

/** The attacks template under another title: a model with a variable, a stock chart and optional fields left out. */
function model(title = 'Attacks'): DashboardModel {
  return { ...structuredClone(dashboardTemplates.attacks.model), title };
}

async function create(body: unknown = model(), cookie = as.analyst, space = spaceId): Promise<Dashboard> {
  const res = await t.raw('POST', path(space), { cookie, body });
  if (res.status !== 201) throw new Error(`create ${res.status} ${res.text}`);
  return res.json;
}

describe('dashboards', () => {
  test('a new space has exactly one dashboard: the overview, its default', async () => {
    const fresh = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Fresh' } }))).json.id;
    const list = await t.read(t.api(as.owner).spaces[':spaceId'].dashboards.$get({ param: { spaceId: fresh } }));
    expect(list.status).toBe(200);
    expect(list.json.limit).toBe(3);
    expect(list.json.items).toHaveLength(1);
    const [only] = list.json.items;
    expect(only).toMatchObject({
      title: 'Overview',
      isDefault: true,
      version: 1,
      widgets: dashboardTemplates.overview.model.widgets.length,
      updatedBy: { name: 'Olive Owner' },
    });
    const got = await t.read(
      t.api(as.owner).spaces[':spaceId'].dashboards[':id'].$get({ param: { spaceId: fresh, id: only.id } }),
    );
    expect(modelOf(got.json)).toEqual(dashboardTemplates.overview.model);
  });

  test('create answers version 1 and the model round-trips; the list puts the default first, then by title', async () => {
    const posted = model('attacks round trip');
    const created = await create(posted);
    expect(created).toMatchObject({ version: 1, isDefault: false, createdBy: { name: 'Ana analyst' } });
    const got = await t.read(
      t.api(as.viewer).spaces[':spaceId'].dashboards[':id'].$get({ param: { spaceId, id: created.id } }),
    );
    expect(got.status).toBe(200);
    expect(modelOf(got.json)).toEqual(posted);
    await create(model('Zulu'));
    await create(model('alpha'));
    const titles = (
      await t.read(t.api(as.viewer).spaces[':spaceId'].dashboards.$get({ param: { spaceId } }))
    ).json.items.map((item: { title: string }) => item.title);
    expect(titles[0]).toBe('Overview');
    const rest = titles.slice(1);
    expect(rest).toEqual([...rest].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(
      (await t.read(t.api(as.viewer).spaces[':spaceId'].dashboards.$get({ param: { spaceId } }))).json.limit,
    ).toBeNull();
  });

  test('a field error names its path with the rule’s message', async () => {
    const bad = model('bad');
    const first = bad.widgets[0];
    if (!first) throw new Error('no widget');
    first.gridPos = { x: 20, y: 0, w: 10, h: 4 };
    const res = await t.read(t.api(as.analyst).spaces[':spaceId'].dashboards.$post({ param: { spaceId }, json: bad }));
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('validation');
    expect(res.json.error.fields['widgets.0.gridPos.w']).toBe(
      'The grid has 24 columns: x + w must be at most 24 (it is 30).',
    );
    const filter = model('bad filter');
    if (filter.widgets[1]) filter.widgets[1].query.filter = 'action:blocked $nope';
    const res2 = await t.read(
      t.api(as.analyst).spaces[':spaceId'].dashboards.$post({ param: { spaceId }, json: filter }),
    );
    expect(res2.status).toBe(400);
    expect(res2.json.error.fields['widgets.1.query.filter']).toMatch(/\$nope is not a variable/);
  });

  test('a save with the current version raises it by one; a save from an older one answers 409', async () => {
    const created = await create(model('versions'));
    const saved = await t.read(
      t.api(as.admin).spaces[':spaceId'].dashboards[':id'].$put({
        param: { spaceId, id: created.id },
        json: { ...model('versions renamed'), version: 1 },
      }),
    );
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ version: 2, title: 'versions renamed', updatedBy: { name: 'Ana admin' } });
    const stale = await t.read(
      t.api(as.analyst).spaces[':spaceId'].dashboards[':id'].$put({
        param: { spaceId, id: created.id },
        json: { ...model('mine'), version: 1 },
      }),
    );
    expect(stale.status).toBe(409);
    expect(stale.json.error.code).toBe('version_conflict');
    expect(stale.json.error.message).toMatch(
      /^Ana admin changed this dashboard at \d{4}-\d\d-\d\d \d\d:\d\d UTC \(version 2\) after you opened version 1\. Reload it to see their change, or save yours again to replace it\.$/,
    );
    expect(stale.json.error.current).toMatchObject({ version: 2, title: 'versions renamed' });
    const unknown = await t.read(
      t.api(as.analyst).spaces[':spaceId'].dashboards[':id'].$put({
        param: { spaceId, id: crypto.randomUUID() },
        json: { ...model(), version: 1 },
      }),
    );
    expect(unknown.status).toBe(404);
  });

  test('two saves based on the same version: one is saved, the other answers 409', async () => {
    const created = await create(model('race'));
    const [a, b] = await Promise.all([
      t.read(
        t.api(as.analyst).spaces[':spaceId'].dashboards[':id'].$put({
          param: { spaceId, id: created.id },
          json: { ...model('race A'), version: 1 },
        }),
      ),
      t.read(
        t.api(as.admin).spaces[':spaceId'].dashboards[':id'].$put({
          param: { spaceId, id: created.id },
          json: { ...model('race B'), version: 1 },
        }),
      ),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((a.status === 409 ? a : b).json.error.code).toBe('version_conflict');
    const [row] = await t.db.select().from(dashboards).where(eq(dashboards.id, created.id));
    expect(row?.version).toBe(2);
  });

  test('viewers read; they may not create, save, duplicate, make default or delete', async () => {
    const created = await create(model('read only'));
    expect((await t.read(t.api(as.viewer).spaces[':spaceId'].dashboards.$get({ param: { spaceId } }))).status).toBe(
      200,
    );
    expect(
      (await t.read(t.api(as.viewer).spaces[':spaceId'].dashboards[':id'].$get({ param: { spaceId, id: created.id } })))
        .status,
    ).toBe(200);
    const refused = [
      await t.read(t.api(as.viewer).spaces[':spaceId'].dashboards.$post({ param: { spaceId }, json: model() })),
      await t.read(
        t.api(as.viewer).spaces[':spaceId'].dashboards[':id'].$put({
          param: { spaceId, id: created.id },
          json: { ...model(), version: 1 },
        }),
      ),
      await t.read(
        t
          .api(as.viewer)
          .spaces[':spaceId'].dashboards[':id'].duplicate.$post({ param: { spaceId, id: created.id }, json: {} }),
      ),
      await t.read(
        t.api(as.viewer).spaces[':spaceId'].dashboards[':id'].default.$post({ param: { spaceId, id: created.id } }),
      ),
      await t.read(
        t.api(as.viewer).spaces[':spaceId'].dashboards[':id'].$delete({ param: { spaceId, id: created.id } }),
      ),
    ];
    expect(refused.map((res) => res.status)).toEqual([403, 403, 403, 403, 403]);
    expect(refused[0]?.json.error.code).toBe('forbidden');
  });

  test('a non-member finds neither the list nor a dashboard; another space’s id is not found', async () => {
    const created = await create(model('private'));
    expect((await t.read(t.api(as.stranger).spaces[':spaceId'].dashboards.$get({ param: { spaceId } }))).status).toBe(
      404,
    );
    expect(
      (
        await t.read(
          t.api(as.stranger).spaces[':spaceId'].dashboards[':id'].$get({ param: { spaceId, id: created.id } }),
        )
      ).status,
    ).toBe(404);
    expect(
      (await t.read(t.api(as.stranger).spaces[':spaceId'].dashboards.$post({ param: { spaceId }, json: model() })))
        .status,
    ).toBe(404);
    const theirs = (await t.read(t.api(as.stranger).spaces.$post({ json: { name: 'Theirs' } }))).json.id;
    expect(
      (
        await t.read(
          t.api(as.stranger).spaces[':spaceId'].dashboards[':id'].$get({ param: { spaceId: theirs, id: created.id } }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await t.read(
          t
            .api(as.stranger)
            .spaces[':spaceId'].dashboards[':id'].$delete({ param: { spaceId: theirs, id: created.id } }),
        )
      ).status,
    ).toBe(404);
  });

  test('the Free plan allows 3 dashboards, the default included; a duplicate counts too', async () => {
    const free = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Free' } }))).json.id;
    const second = await create(model('two'), as.owner, free);
    await create(model('three'), as.owner, free);
    const fourth = await t.read(
      t.api(as.owner).spaces[':spaceId'].dashboards.$post({ param: { spaceId: free }, json: model('four') }),
    );
    expect(fourth.status).toBe(402);
    expect(fourth.json.error).toEqual({
      code: 'plan_limit',
      message: 'Dashboards on Free: 3 of 3 used; Pro allows 20',
      limit: 'dashboards',
      plan: 'free',
      upgradeTo: 'pro',
    });
    const copy = await t.read(
      t
        .api(as.owner)
        .spaces[':spaceId'].dashboards[':id'].duplicate.$post({ param: { spaceId: free, id: second.id }, json: {} }),
    );
    expect(copy.status).toBe(402);
    expect(copy.json.error.code).toBe('plan_limit');
    await t.db.update(spaces).set({ plan: 'pro' }).where(eq(spaces.id, free));
    expect(
      (await t.read(t.api(as.owner).spaces[':spaceId'].dashboards.$get({ param: { spaceId: free } }))).json.limit,
    ).toBe(20);
  });

  test('concurrent creates cannot pass the limit', async () => {
    const free = (await t.read(t.api(as.owner).spaces.$post({ json: { name: 'Race' } }))).json.id;
    const answers = await Promise.all(
      ['a', 'b', 'c', 'd'].map((title) =>
        t.read(t.api(as.owner).spaces[':spaceId'].dashboards.$post({ param: { spaceId: free }, json: model(title) })),
      ),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([201, 201, 402, 402]);
    expect(
      (await t.read(t.api(as.owner).spaces[':spaceId'].dashboards.$get({ param: { spaceId: free } }))).json.items,
    ).toHaveLength(3);
  });

  test('duplicate: "Copy of …" at version 1, not the default; a given title; cut to 120 characters', async () => {
    const source = await create(model('source'));
    await t.read(
      t.api(as.analyst).spaces[':spaceId'].dashboards[':id'].$put({
        param: { spaceId, id: source.id },
        json: { ...model('source'), version: 1 },
      }),
    );
    const copy = await t.read(
      t
        .api(as.analyst)
        .spaces[':spaceId'].dashboards[':id'].duplicate.$post({ param: { spaceId, id: source.id }, json: {} }),
    );
    expect(copy.status).toBe(201);
    expect(copy.json).toMatchObject({ title: 'Copy of source', version: 1, isDefault: false });
    expect(copy.json.id).not.toBe(source.id);
    expect(copy.json.widgets).toEqual(source.widgets);
    const named = await t.read(
      t.api(as.analyst).spaces[':spaceId'].dashboards[':id'].duplicate.$post({
        param: { spaceId, id: source.id },
        json: { title: '  Mine  ' },
      }),
    );
    expect(named.json.title).toBe('Mine');
    const long = await create(model('x'.repeat(120)));
    const cut = await t.read(
      t
        .api(as.analyst)
        .spaces[':spaceId'].dashboards[':id'].duplicate.$post({ param: { spaceId, id: long.id }, json: {} }),
    );
    expect(cut.json.title).toBe(`Copy of ${'x'.repeat(112)}`);
    expect(
      (
        await t.read(
          t.api(as.analyst).spaces[':spaceId'].dashboards[':id'].duplicate.$post({
            param: { spaceId, id: crypto.randomUUID() },
            json: {},
          }),
        )
      ).status,
    ).toBe(404);
  });

  test('the default cannot be deleted; after another is made the default it can, and one default remains', async () => {
    const list = (await t.read(t.api(as.analyst).spaces[':spaceId'].dashboards.$get({ param: { spaceId } }))).json
      .items;
    const overview = list.find((item: { isDefault: boolean }) => item.isDefault);
    const refused = await t.read(
      t.api(as.analyst).spaces[':spaceId'].dashboards[':id'].$delete({ param: { spaceId, id: overview.id } }),
    );
    expect(refused.status).toBe(409);
    expect(refused.json.error).toEqual({
      code: 'default_dashboard',
      message: "This is the space's default dashboard; make another dashboard the default first.",
    });
    const next = await create(model('next default'));
    const made = await t.read(
      t.api(as.analyst).spaces[':spaceId'].dashboards[':id'].default.$post({ param: { spaceId, id: next.id } }),
    );
    expect(made.status).toBe(200);
    expect(made.json).toMatchObject({ id: next.id, isDefault: true, version: 1 });
    const again = await t.read(
      t.api(as.analyst).spaces[':spaceId'].dashboards[':id'].default.$post({ param: { spaceId, id: next.id } }),
    );
    expect(again.status).toBe(200);
    expect(
      (
        await t.read(
          t.api(as.analyst).spaces[':spaceId'].dashboards[':id'].$delete({ param: { spaceId, id: overview.id } }),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await t.read(
          t.api(as.analyst).spaces[':spaceId'].dashboards[':id'].$get({ param: { spaceId, id: overview.id } }),
        )
      ).status,
    ).toBe(404);
    const defaults = await t.db
      .select()
      .from(dashboards)
      .where(and(eq(dashboards.spaceId, spaceId), eq(dashboards.isDefault, true)));
    expect(defaults.map((row) => row.id)).toEqual([next.id]);
    const after = (await t.read(t.api(as.viewer).spaces[':spaceId'].dashboards.$get({ param: { spaceId } }))).json
      .items;
    expect(after[0]).toMatchObject({ id: next.id, isDefault: true });
  });

  test('every change is audited', async () => {
    const created = await create(model('audited'));
    await t.read(
      t.api(as.analyst).spaces[':spaceId'].dashboards[':id'].$put({
        param: { spaceId, id: created.id },
        json: { ...model('audited 2'), version: 1 },
      }),
    );
    const copy = (
      await t.read(
        t
          .api(as.analyst)
          .spaces[':spaceId'].dashboards[':id'].duplicate.$post({ param: { spaceId, id: created.id }, json: {} }),
      )
    ).json;
    await t.read(
      t.api(as.analyst).spaces[':spaceId'].dashboards[':id'].default.$post({ param: { spaceId, id: copy.id } }),
    );
    await t.read(
      t.api(as.analyst).spaces[':spaceId'].dashboards[':id'].$delete({ param: { spaceId, id: created.id } }),
    );
    const rows = await t.db.select().from(activity).where(eq(activity.objectType, 'dashboard'));
    const of = (id: string) =>
      rows
        .filter((row) => row.objectId === id)
        .map((row) => row.action)
        .sort();
    expect(of(created.id)).toEqual(['dashboard.create', 'dashboard.delete', 'dashboard.update']);
    expect(of(copy.id)).toEqual(['dashboard.create', 'dashboard.default']);
    const update = rows.find((row) => row.action === 'dashboard.update' && row.objectId === created.id);
    expect(update?.change).toMatchObject({ fromVersion: 1, toVersion: 2, title: 'audited 2' });
    expect(update?.actorName).toBe('Ana analyst');
    const duplicate = rows.find((row) => row.action === 'dashboard.create' && row.objectId === copy.id);
    expect(duplicate?.change).toMatchObject({ duplicateOf: created.id, title: 'Copy of audited 2' });
  });
});
