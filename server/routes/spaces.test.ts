import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { activity } from '../db/schema/activity.ts';
import { invitations } from '../db/schema/invitations.ts';
import { memberships } from '../db/schema/memberships.ts';
import { spaces } from '../db/schema/spaces.ts';
import { createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
let owner: { cookie: string; user: { id: string } };
let spaceId: string;
beforeAll(async () => {
  t = await createTestApi();
  owner = await t.signUp('owner@example.com', 'Olivia Owner');
});
afterAll(async () => {
  await t.close();
});

describe('spaces', () => {
  test('create, list as cards, read remembers the last space', async () => {
    const created = await t.read(
      t.api(owner.cookie).spaces.$post({ json: { name: 'Acme', description: '# Hello', timeZone: 'Europe/Paris' } }),
    );
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      name: 'Acme',
      plan: 'free',
      role: 'owner',
      retentionDays: 7,
      timeZone: 'Europe/Paris',
    });
    spaceId = created.json.id;
    const list = await t.read(t.api(owner.cookie).spaces.$get());
    expect(list.json.items).toEqual([
      {
        id: spaceId,
        name: 'Acme',
        plan: 'free',
        role: 'owner',
        memberCount: 1,
        firewallCount: 0,
        openAlerts: { critical: 0, high: 0, medium: 0, low: 0 },
      },
    ]);
    const other = await t.read(t.api(owner.cookie).spaces.$post({ json: { name: 'Beta' } }));
    expect((await t.read(t.api(owner.cookie).me.$get())).json.lastSpaceId).toBe(other.json.id);
    expect((await t.read(t.api(owner.cookie).spaces[':spaceId'].$get({ param: { spaceId } }))).status).toBe(200);
    expect((await t.read(t.api(owner.cookie).me.$get())).json.lastSpaceId).toBe(spaceId);
  });

  test.each([
    [{ timeZone: 'Mars/Olympus' }, 'timeZone', 400],
    [{ retentionDays: 30 }, 'retentionDays', 402],
    [{ retentionDays: 0 }, 'retentionDays', 400],
    [{ name: '' }, 'name', 400],
    [{ name: 'x'.repeat(81) }, 'name', 400],
    [{ description: 'x'.repeat(10001) }, 'description', 400],
    [{ plan: 'business' }, 'plan', 400],
    [{ retentionDays: '5' }, 'retentionDays', 400],
  ])('PATCH %j answers $2 naming %s, and changes nothing', async (patch, field, status) => {
    const before = await t.db.select().from(spaces).where(eq(spaces.id, spaceId));
    const res = await t.raw('PATCH', `/api/spaces/${spaceId}`, { cookie: owner.cookie, body: patch });
    expect(res.status).toBe(status);
    expect(res.json.error.fields[field]).toBeTruthy();
    expect(await t.db.select().from(spaces).where(eq(spaces.id, spaceId))).toEqual(before);
  });

  test('PATCH records the change in the activity log', async () => {
    const res = await t.read(
      t.api(owner.cookie).spaces[':spaceId'].$patch({
        param: { spaceId },
        json: { name: 'Acme Corp', retentionDays: 5, timeZone: 'America/New_York' },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: 'Acme Corp', retentionDays: 5, timeZone: 'America/New_York' });
    const [row] = await t.db.select().from(activity).where(eq(activity.action, 'space.update'));
    expect(row?.change).toEqual({
      name: { from: 'Acme', to: 'Acme Corp' },
      retentionDays: { from: 7, to: 5 },
      timeZone: { from: 'Europe/Paris', to: 'America/New_York' },
    });
    expect(row?.actorId).toBe(owner.user.id);
  });

  test('DELETE needs the exact name', async () => {
    const doomed = await t.read(t.api(owner.cookie).spaces.$post({ json: { name: 'Doomed' } }));
    const wrong = await t.read(
      t
        .api(owner.cookie)
        .spaces[':spaceId'].$delete({ param: { spaceId: doomed.json.id }, json: { confirmName: 'doomed' } }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.fields.confirmName).toBeTruthy();
    const missing = await t.raw('DELETE', `/api/spaces/${doomed.json.id}`, { cookie: owner.cookie });
    expect(missing.status).toBe(400);
    const ok = await t.read(
      t
        .api(owner.cookie)
        .spaces[':spaceId'].$delete({ param: { spaceId: doomed.json.id }, json: { confirmName: 'Doomed' } }),
    );
    expect(ok.status).toBe(200);
    expect(
      (await t.read(t.api(owner.cookie).spaces[':spaceId'].$get({ param: { spaceId: doomed.json.id } }))).status,
    ).toBe(404);
    const audit = await t.db.select().from(activity).where(eq(activity.action, 'space.delete'));
    expect(audit).toHaveLength(1);
  });
});

describe('members and invitations', () => {
  let bob: { cookie: string; user: { id: string } };
  test('invite → register → accept lands in the space with the role', async () => {
    const inv = await t.read(
      t.api(owner.cookie).spaces[':spaceId'].invitations.$post({
        param: { spaceId },
        json: { email: 'Bob@Example.com', role: 'analyst' },
      }),
    );
    expect(inv.status).toBe(201);
    expect(inv.json).toMatchObject({ email: 'bob@example.com', role: 'analyst', invitedBy: 'Olivia Owner' });
    const token = await t.lastToken('bob@example.com', '/spaces\\?invitation=');
    const preview = await t.read(t.api().invitations[':token'].$get({ param: { token } }));
    expect(preview.json).toMatchObject({ spaceName: 'Acme Corp', role: 'analyst', email: 'bob@example.com' });
    expect((await t.read(t.api().invitations[':token'].accept.$post({ param: { token } }))).status).toBe(401);
    bob = await t.signUp('bob@example.com', 'Bob');
    const pending = await t.read(t.api(bob.cookie).me.invitations.$get());
    expect(pending.json.items).toHaveLength(1);
    const accepted = await t.read(t.api(bob.cookie).invitations[':token'].accept.$post({ param: { token } }));
    expect(accepted.status).toBe(200);
    expect(accepted.json).toEqual({ spaceId, role: 'analyst' });
    expect((await t.read(t.api(bob.cookie).me.$get())).json.lastSpaceId).toBe(spaceId);
    const reused = await t.read(t.api(bob.cookie).invitations[':token'].accept.$post({ param: { token } }));
    expect(reused.status).toBe(409);
    const members = await t.read(t.api(bob.cookie).spaces[':spaceId'].members.$get({ param: { spaceId } }));
    expect(members.json.items.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ['owner@example.com', 'owner'],
      ['bob@example.com', 'analyst'],
    ]);
  });

  test('an invitation for another address, an expired one, and a member invited twice', async () => {
    await t.read(
      t.api(owner.cookie).spaces[':spaceId'].invitations.$post({
        param: { spaceId },
        json: { email: 'carol@example.com', role: 'viewer' },
      }),
    );
    const token = await t.lastToken('carol@example.com', '/spaces\\?invitation=');
    const wrongUser = await t.read(t.api(bob.cookie).invitations[':token'].accept.$post({ param: { token } }));
    expect(wrongUser.status).toBe(403);
    await t.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.email, 'carol@example.com'));
    const carol = await t.signUp('carol@example.com', 'Carol');
    const expired = await t.read(t.api(carol.cookie).invitations[':token'].accept.$post({ param: { token } }));
    expect(expired.status).toBe(422);
    expect(expired.json.error.code).toBe('token_expired');
    const dup = await t.read(
      t.api(owner.cookie).spaces[':spaceId'].invitations.$post({
        param: { spaceId },
        json: { email: 'bob@example.com', role: 'viewer' },
      }),
    );
    expect(dup.status).toBe(409);
    expect(dup.json.error.fields.email).toBeTruthy();
  });

  test('the free plan allows 3 members, pending invitations included, and says so', async () => {
    const third = await t.read(
      t.api(owner.cookie).spaces[':spaceId'].invitations.$post({
        param: { spaceId },
        json: { email: 'dan@example.com', role: 'viewer' },
      }),
    );
    expect(third.status).toBe(201);
    const fourth = await t.read(
      t.api(owner.cookie).spaces[':spaceId'].invitations.$post({
        param: { spaceId },
        json: { email: 'erin@example.com', role: 'viewer' },
      }),
    );
    expect(fourth.status).toBe(402);
    const message = 'Members (pending invitations included) on Free: 3 of 3 used; Pro allows 10';
    expect(fourth.json.error).toEqual({
      code: 'plan_limit',
      message,
      fields: { email: message },
      limit: 'members',
      plan: 'free',
      upgradeTo: 'pro',
    });
    const list = await t.read(t.api(owner.cookie).spaces[':spaceId'].invitations.$get({ param: { spaceId } }));
    expect(list.json.items.map((i: { email: string }) => i.email)).toEqual(['dan@example.com']);
    const revoke = await t.read(
      t.api(owner.cookie).spaces[':spaceId'].invitations[':invitationId'].$delete({
        param: { spaceId, invitationId: list.json.items[0].id },
      }),
    );
    expect(revoke.status).toBe(200);
    expect(
      (await t.read(t.api(owner.cookie).spaces[':spaceId'].invitations.$get({ param: { spaceId } }))).json.items,
    ).toEqual([]);
  });

  test('roles: admin cannot touch owners; the last owner stays; transfer; leave; remove', async () => {
    const promote = await t.read(
      t.api(owner.cookie).spaces[':spaceId'].members[':userId'].$patch({
        param: { spaceId, userId: bob.user.id },
        json: { role: 'admin' },
      }),
    );
    expect(promote.status).toBe(200);
    expect(promote.json.role).toBe('admin');
    const grab = await t.read(
      t.api(bob.cookie).spaces[':spaceId'].members[':userId'].$patch({
        param: { spaceId, userId: bob.user.id },
        json: { role: 'owner' },
      }),
    );
    expect(grab.status).toBe(403);
    const demoteOwner = await t.read(
      t.api(bob.cookie).spaces[':spaceId'].members[':userId'].$patch({
        param: { spaceId, userId: owner.user.id },
        json: { role: 'viewer' },
      }),
    );
    expect(demoteOwner.status).toBe(403);
    const lastOwner = await t.read(
      t.api(owner.cookie).spaces[':spaceId'].members[':userId'].$patch({
        param: { spaceId, userId: owner.user.id },
        json: { role: 'admin' },
      }),
    );
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.json.error.code).toBe('last_owner');
    expect((await t.read(t.api(owner.cookie).spaces[':spaceId'].leave.$post({ param: { spaceId } }))).status).toBe(409);
    const badRole = await t.raw('PATCH', `/api/spaces/${spaceId}/members/${bob.user.id}`, {
      cookie: owner.cookie,
      body: { role: 'god' },
    });
    expect(badRole.status).toBe(400);
    expect(badRole.json.error.fields.role).toBeTruthy();
    const unknown = await t.read(
      t.api(owner.cookie).spaces[':spaceId'].members[':userId'].$patch({
        param: { spaceId, userId: '00000000-0000-4000-8000-000000000000' },
        json: { role: 'viewer' },
      }),
    );
    expect(unknown.status).toBe(404);
    const transfer = await t.read(
      t.api(owner.cookie).spaces[':spaceId'].transfer.$post({ param: { spaceId }, json: { userId: bob.user.id } }),
    );
    expect(transfer.status).toBe(200);
    const roles = await t.db.select().from(memberships).where(eq(memberships.spaceId, spaceId));
    expect(Object.fromEntries(roles.map((r) => [r.userId, r.role]))).toEqual({
      [owner.user.id]: 'admin',
      [bob.user.id]: 'owner',
    });
    expect(
      (
        await t.read(
          t.api(owner.cookie).spaces[':spaceId'].transfer.$post({ param: { spaceId }, json: { userId: bob.user.id } }),
        )
      ).status,
    ).toBe(403);
    expect((await t.read(t.api(owner.cookie).spaces[':spaceId'].leave.$post({ param: { spaceId } }))).status).toBe(200);
    expect((await t.read(t.api(owner.cookie).spaces[':spaceId'].$get({ param: { spaceId } }))).status).toBe(404);
    expect((await t.read(t.api(owner.cookie).me.$get())).json.lastSpaceId).toBeNull();
  });
});

describe('activity', () => {
  test('lists every step with actor, ip and change; filters; paginates; exports', async () => {
    const cookie = (await t.signIn('bob@example.com')).cookie;
    const all = await t.read(
      t.api(cookie).spaces[':spaceId'].activity.$get({ param: { spaceId }, query: { limit: '200' } }),
    );
    expect(all.status).toBe(200);
    const actions = all.json.items.map((a: { action: string }) => a.action).reverse();
    expect(actions).toEqual([
      'space.create',
      'space.update',
      'invitation.create',
      'member.join',
      'invitation.create',
      'invitation.create',
      'invitation.revoke',
      'member.role_change',
      'space.transfer',
      'member.leave',
    ]);
    const roleChange = all.json.items.find((a: { action: string }) => a.action === 'member.role_change');
    expect(roleChange).toMatchObject({
      objectType: 'member',
      ip: '203.0.113.7',
      change: { from: 'analyst', to: 'admin' },
    });

    const filtered = await t.read(
      t.api(cookie).spaces[':spaceId'].activity.$get({ param: { spaceId }, query: { action: 'invitation.create' } }),
    );
    expect(filtered.json.items).toHaveLength(3);
    const byActor = await t.read(
      t
        .api(cookie)
        .spaces[':spaceId'].activity.$get({ param: { spaceId }, query: { actor: owner.user.id, objectType: 'space' } }),
    );
    expect(byActor.json.items.map((a: { action: string }) => a.action)).toEqual([
      'space.transfer',
      'space.update',
      'space.create',
    ]);
    const future = await t.read(
      t.api(cookie).spaces[':spaceId'].activity.$get({ param: { spaceId }, query: { from: '2200-01-01T00:00:00Z' } }),
    );
    expect(future.json).toEqual({ items: [], nextCursor: null });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${cursor}` : '';
      const pageRes = await t.raw('GET', `/api/spaces/${spaceId}/activity?limit=3${query}`, { cookie });
      seen.push(...pageRes.json.items.map((a: { id: string }) => a.id));
      cursor = pageRes.json.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.json.items.map((a: { id: string }) => a.id));

    const badCursor = await t.read(
      t.api(cookie).spaces[':spaceId'].activity.$get({ param: { spaceId }, query: { cursor: 'nonsense' } }),
    );
    expect(badCursor.status).toBe(400);
    expect(badCursor.json.error.fields.cursor).toBeTruthy();
    const badDate = await t.read(
      t.api(cookie).spaces[':spaceId'].activity.$get({ param: { spaceId }, query: { from: 'yesterday' } }),
    );
    expect(badDate.json.error.fields.from).toBeTruthy();

    const ndjson = await t.raw('GET', `/api/spaces/${spaceId}/activity/export`, { cookie });
    expect(ndjson.headers.get('content-type')).toMatch(/ndjson/);
    const lines = ndjson.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(10);
    const csv = await t.read(
      t.api(cookie).spaces[':spaceId'].activity.export.$get({
        param: { spaceId },
        query: { format: 'csv', action: 'member.join' },
      }),
    );
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    const rows = csv.text.trim().split('\n');
    expect(rows[0]).toBe('createdAt,actorId,actorName,action,objectType,objectId,ip,userAgent,change');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain('"member.join"');
  });
});
