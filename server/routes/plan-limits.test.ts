import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { dashboardTemplates } from '../../contract/constants/dashboard-templates.ts';
import type { limitNames } from '../../contract/constants/limits.ts';
import { spaces } from '../db/schema/spaces.ts';
import { planLimitError, usageOf } from '../services/limits/limits.ts';
import { BASE, createTestApi, type TestApi } from '../test/harness.ts';
import { testClock } from '../test/jobs.ts';

/**
 * Plan limits: every limited object of a Free space, filled to the brim through the API, refuses the next create with
 * the one 402 `plan_limit`; on Pro the same create passes; `usageOf` counts what the checks count.
 */
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
let owner: string;
let spaceId: string;
const clock = testClock('2026-11-23T08:00:00Z');

beforeAll(async () => {
  t = await createTestApi({ now: clock.now });
  owner = (await t.signUp('owner@example.com', 'Olive')).cookie;
  spaceId = (await t.read(t.api(owner).spaces.$post({ json: { name: 'Free walk' } }))).json.id;
});
afterAll(async () => {
  await t.close();
});

const spacePath = (rest: string) => `/api/spaces/${spaceId}${rest}`;
let invited = 0;

/** One create of each limited object, as the console's forms send it. */
const creates: Record<
  Exclude<(typeof limitNames)[number], 'eventsThisMonth'>,
  () => { method: string; path: string; body: unknown }
> = {
  firewalls: () => ({
    method: 'POST',
    path: spacePath('/firewalls'),
    body: {
      name: `fw${invited++}`,
      hostnames: [`fw${invited}.example.com`],
      upstream: 'http://127.0.0.1:3000',
      mode: 'detect',
    },
  }),
  members: () => ({
    method: 'POST',
    path: spacePath('/invitations'),
    body: { email: `invitee${invited++}@example.com`, role: 'viewer' },
  }),
  dashboards: () => ({
    method: 'POST',
    path: spacePath('/dashboards'),
    body: { ...structuredClone(dashboardTemplates.attacks.model), title: `Board ${invited++}` },
  }),
  alertRules: () => ({
    method: 'POST',
    path: spacePath('/alert-rules'),
    body: { name: `rule ${invited++}`, severity: 'low', kind: 'match' },
  }),
  assets: () => ({ method: 'POST', path: spacePath('/assets'), body: { name: `asset${invited++}`, kind: 'host' } }),
  retentionDays: () => ({ method: 'PATCH', path: spacePath(''), body: { retentionDays: 30 } }),
};

async function send(name: keyof typeof creates) {
  const { method, path, body } = creates[name]();
  return t.raw(method, path, { cookie: owner, body });
}

async function usage() {
  const [space] = await t.db.select().from(spaces).where(eq(spaces.id, spaceId));
  if (!space) throw new Error('no space');
  return usageOf(t.db, space, clock.now());
}

const full: [keyof typeof creates, number, string][] = [
  ['firewalls', 1, 'Firewalls on Free: 1 of 1 used; Pro allows 5'],
  ['members', 3, 'Members (pending invitations included) on Free: 3 of 3 used; Pro allows 10'],
  ['dashboards', 3, 'Dashboards on Free: 3 of 3 used; Pro allows 20'],
  ['alertRules', 5, 'Alert rules on Free: 5 of 5 used; Pro allows 50'],
  ['assets', 5, 'Assets on Free: 5 of 5 used; Pro allows 50'],
];

describe('every limit of a Free space', () => {
  test('a fresh Free space: the owner and the default dashboard are counted, the rest is empty', async () => {
    expect(await usage()).toEqual({
      firewalls: { used: 0, limit: 1 },
      members: { used: 1, limit: 3 },
      eventsThisMonth: { used: 0, limit: 100_000 },
      retentionDays: { used: 7, limit: 7 },
      dashboards: { used: 1, limit: 3 },
      alertRules: { used: 0, limit: 5 },
      assets: { used: 0, limit: 5 },
    });
  });

  test.each(full)('%s: filled to %i, the next create answers 402 plan_limit', async (name, brim, message) => {
    const before = (await usage())[name].used;
    for (let used = before; used < brim; used += 1) {
      const res = await send(name);
      if (res.status !== 201) throw new Error(`${name} ${res.status} ${res.text}`);
    }
    expect((await usage())[name]).toEqual({ used: brim, limit: brim });
    const refused = await send(name);
    expect(refused.status).toBe(402);
    expect(refused.json.error).toMatchObject({
      code: 'plan_limit',
      message,
      limit: name,
      plan: 'free',
      upgradeTo: 'pro',
    });
    expect((await usage())[name].used).toBe(brim);
  });

  test('retention past 7 days answers 402 plan_limit naming the field', async () => {
    const refused = await send('retentionDays');
    expect(refused.status).toBe(402);
    const message = 'Retention on Free: 30 days asked; Free allows 7; Pro allows 30';
    expect(refused.json.error).toEqual({
      code: 'plan_limit',
      message,
      fields: { retentionDays: message },
      limit: 'retentionDays',
      plan: 'free',
      upgradeTo: 'pro',
    });
    const further = await t.read(
      t.api(owner).spaces[':spaceId'].$patch({ param: { spaceId }, json: { retentionDays: 90 } }),
    );
    expect(further.json.error).toMatchObject({ limit: 'retentionDays', upgradeTo: 'business' });
    expect(further.json.error.message).toBe('Retention on Free: 90 days asked; Free allows 7; Business allows 365');
  });

  test('events this month: what ingest counted', async () => {
    const source = await t.read(
      t.api(owner).spaces[':spaceId'].sources.$post({ param: { spaceId }, json: { name: 'edge', kind: 'json' } }),
    );
    const lines = ['192.0.2.1', '192.0.2.2', '192.0.2.3'].map((ip) =>
      JSON.stringify({ time: clock.now().toISOString(), ip, action: 'blocked', severity: 'high' }),
    );
    const res = await t.app.request(`${BASE}/api/ingest/${source.json.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: lines.join('\n'),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { accepted: number }).accepted).toBe(3);
    const counted = (await t.read(t.api(owner).spaces[':spaceId'].events.usage.$get({ param: { spaceId } }))).json;
    expect(counted.accepted).toBe(3);
    expect((await usage()).eventsThisMonth).toEqual({ used: counted.accepted, limit: 100_000 });
  });

  test('on Pro, every create refused above passes', async () => {
    await t.db.update(spaces).set({ plan: 'pro' }).where(eq(spaces.id, spaceId));
    for (const [name] of full) {
      const res = await send(name);
      expect([name, res.status]).toEqual([name, 201]);
    }
    expect((await send('retentionDays')).status).toBe(200);
    expect(await usage()).toEqual({
      firewalls: { used: 2, limit: 5 },
      members: { used: 4, limit: 10 },
      eventsThisMonth: { used: 3, limit: 5_000_000 },
      retentionDays: { used: 30, limit: 30 },
      dashboards: { used: 4, limit: 20 },
      alertRules: { used: 6, limit: 50 },
      assets: { used: 6, limit: 50 },
    });
  });

  test('back on Free (a downgrade, or a renewal that failed), objects past the limit stay but are read-only', async () => {
    await t.db.update(spaces).set({ plan: 'free', retentionDays: 7 }).where(eq(spaces.id, spaceId));
    const boards = (await t.read(t.api(owner).spaces[':spaceId'].dashboards.$get({ param: { spaceId } }))).json
      .items as {
      id: string;
      isDefault: boolean;
    }[];
    // Four dashboards of Free's three: the oldest three stay writable, the newest is read-only.
    const stored = await Promise.all(
      boards.map(
        async (board) =>
          (await t.read(t.api(owner).spaces[':spaceId'].dashboards[':id'].$get({ param: { spaceId, id: board.id } })))
            .json,
      ),
    );
    stored.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    const put = (board: (typeof stored)[number], title: string) => {
      const { id, version, isDefault, createdAt, createdBy, updatedAt, updatedBy, ...model } = board;
      return t.read(
        t
          .api(owner)
          .spaces[':spaceId'].dashboards[':id'].$put({ param: { spaceId, id }, json: { ...model, title, version } }),
      );
    };
    const newest = stored.at(-1);
    const refused = await put(newest, 'Renamed');
    expect(refused.status).toBe(402);
    expect(refused.json.error).toMatchObject({
      code: 'plan_limit',
      limit: 'dashboards',
      plan: 'free',
      upgradeTo: 'pro',
    });
    expect(refused.json.error.message).toBe(
      'Dashboards on Free: 4 of 3 used; Pro allows 20. This one is read-only until the space is back within the plan: delete 1 of the dashboards or change the plan.',
    );
    expect((await put(stored[0], 'Still mine')).status).toBe(200);
    // Nothing was deleted. Deleting one (the default cannot be) brings the space back within the plan: all are
    // writable again, the one that was read-only too.
    expect(
      (await t.read(t.api(owner).spaces[':spaceId'].dashboards.$get({ param: { spaceId } }))).json.items,
    ).toHaveLength(4);
    const removable = stored.find((board) => !board.isDefault && board.id !== newest.id) ?? stored[1];
    expect(
      (
        await t.read(
          t.api(owner).spaces[':spaceId'].dashboards[':id'].$delete({ param: { spaceId, id: removable.id } }),
        )
      ).status,
    ).toBe(200);
    expect((await put(newest, 'Writable again')).status).toBe(200);
    // The second firewall of Free's one is read-only too.
    const firewalls = (await t.read(t.api(owner).spaces[':spaceId'].firewalls.$get({ param: { spaceId } }))).json
      .items as {
      id: string;
      name: string;
    }[];
    const answers = await Promise.all(
      firewalls.map((firewall) =>
        t.read(
          t.api(owner).spaces[':spaceId'].firewalls[':id'].$patch({
            param: { spaceId, id: firewall.id },
            json: { mode: 'block' },
          }),
        ),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 402]);
    // Every other way of making a new version of it is refused the same: a rollback here (remedies and virtual
    // patches go through the same check).
    const readOnly = firewalls[answers.findIndex((answer) => answer.status === 402)] as { id: string };
    const rollback = await t.read(
      t.api(owner).spaces[':spaceId'].firewalls[':id'].rollback.$post({
        param: { spaceId, id: readOnly.id },
        json: { version: 1 },
      }),
    );
    expect(rollback.status).toBe(402);
    expect(rollback.json.error).toMatchObject({ code: 'plan_limit', limit: 'firewalls', plan: 'free' });
  });

  test('the top plan: no plan allows more, upgradeTo null; an unlimited next plan says so', () => {
    expect(planLimitError('business', 'assets', { used: 1000, adding: 1 }).body()).toEqual({
      error: {
        code: 'plan_limit',
        message: 'Assets on Business: 1000 of 1000 used; no plan allows more',
        limit: 'assets',
        plan: 'business',
        upgradeTo: null,
      },
    });
    expect(planLimitError('pro', 'dashboards', { used: 20, adding: 1 }).message).toBe(
      'Dashboards on Pro: 20 of 20 used; Business allows unlimited',
    );
    expect(planLimitError('pro', 'dashboards', { used: 20, adding: 1 }).status).toBe(402);
  });
});
