/** The cast of a role test: a space with a member of each role, and a stranger who owns another space. */
import type { Role } from '../../contract/common.ts';
import { memberships } from '../db/schema/memberships.ts';
import type { TestApi } from './harness.ts';

/** Signs up an owner who creates `name`, an admin, an analyst and a viewer of it, and a stranger with a space of theirs. */
export async function spaceWithRoles(t: TestApi, name: string) {
  const as = {} as Record<Role | 'stranger', string>;
  as.owner = (await t.signUp('owner@example.com', 'Olga Owner')).cookie;
  const spaceId: string = (await t.read(t.api(as.owner).spaces.$post({ json: { name } }))).json.id;
  for (const role of ['admin', 'analyst', 'viewer'] as const) {
    const { cookie, user } = await t.signUp(`${role}@example.com`, `${role} person`);
    await t.db.insert(memberships).values({ spaceId, userId: user.id, role, createdAt: t.deps.now() });
    as[role] = cookie;
  }
  as.stranger = (await t.signUp('stranger@example.com')).cookie;
  const other = await t.read(t.api(as.stranger).spaces.$post({ json: { name: 'Elsewhere' } }));
  return { spaceId, otherSpaceId: other.json.id as string, as };
}
