import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { Role } from '../../contract/constants/roles.ts';
import { invitations } from '../db/schema/invitations.ts';
import { createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
let cookies: Record<'owner' | 'admin', string>;
let spaceId: string;
beforeAll(async () => {
  t = await createTestApi();
  const owner = await t.signUp('owner@example.com', 'Olivia Owner');
  const space = await t.read(t.api(owner.cookie).spaces.$post({ json: { name: 'Acme' } }));
  spaceId = space.json.id;
  await t.read(
    t.api(owner.cookie).spaces[':spaceId'].invitations.$post({
      param: { spaceId },
      json: { email: 'admin@example.com', role: 'admin' },
    }),
  );
  const token = await t.lastToken('admin@example.com', '/spaces\\?invitation=');
  const admin = await t.signUp('admin@example.com', 'Adam Admin');
  expect((await t.read(t.api(admin.cookie).invitations[':token'].accept.$post({ param: { token } }))).status).toBe(200);
  cookies = { owner: owner.cookie, admin: admin.cookie };
});
afterAll(async () => {
  await t.close();
});

const invitee = 'invitee@example.com';

/** The role of the pending invitation to the invitee, if there is one. */
async function pendingRole(): Promise<Role | undefined> {
  const [row] = await t.db
    .select({ role: invitations.role })
    .from(invitations)
    .where(and(eq(invitations.spaceId, spaceId), eq(invitations.email, invitee)));
  return row?.role;
}

test.each<[Role, 'pending' | 'expired', 'owner' | 'admin', Role, number, Role]>([
  ['owner', 'pending', 'admin', 'viewer', 409, 'owner'],
  ['owner', 'pending', 'admin', 'admin', 409, 'owner'],
  ['owner', 'pending', 'owner', 'viewer', 201, 'viewer'],
  ['owner', 'expired', 'admin', 'viewer', 201, 'viewer'],
  ['admin', 'pending', 'admin', 'viewer', 201, 'viewer'],
  ['viewer', 'pending', 'admin', 'admin', 201, 'admin'],
])(
  're-inviting over a %s invitation (%s) as %s with role %s answers %i and leaves $5',
  async (first, state, caller, role, status, left) => {
    await t.db.delete(invitations).where(eq(invitations.email, invitee));
    const sent = await t.read(
      t
        .api(cookies.owner)
        .spaces[':spaceId'].invitations.$post({ param: { spaceId }, json: { email: invitee, role: first } }),
    );
    expect(sent.status).toBe(201);
    if (state === 'expired') {
      await t.db
        .update(invitations)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(invitations.email, invitee));
    }
    const again = await t.read(
      t
        .api(cookies[caller])
        .spaces[':spaceId'].invitations.$post({ param: { spaceId }, json: { email: invitee, role } }),
    );
    expect(again.status).toBe(status);
    if (status === 409) {
      expect(again.json.error.code).toBe('invitation_role_pending');
      expect(again.json.error.message).toBe(
        'This address has a pending invitation as Owner; only an owner may replace or revoke it.',
      );
      expect(again.json.error.fields.email).toBe('Already invited as Owner.');
    }
    expect(await pendingRole()).toBe(left);
  },
);
