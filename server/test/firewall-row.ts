/** For tests that need a firewall of a space without the firewall API (its config check): one row, version 1. */
import { randomUUID } from 'node:crypto';
import { defaultFirewallSettings } from '../../contract/firewalls.ts';
import type { Executor } from '../db/database.ts';
import { firewalls } from '../db/schema/firewalls.ts';

/** Inserts a firewall named `name` in detect mode for `hostname`, made at `at`; answers its id. */
export async function insertFirewall(
  db: Executor,
  spaceId: string,
  at: Date,
  name = 'edge',
  hostname = 'shop.example.com',
) {
  const settings = {
    ...defaultFirewallSettings,
    name,
    hostnames: [hostname],
    upstream: 'http://127.0.0.1:3000',
    mode: 'detect' as const,
  };
  const [row] = await db
    .insert(firewalls)
    .values({
      spaceId,
      name,
      settings,
      version: 1,
      tokenHash: randomUUID(),
      tokenPrefix: 'sgf_x',
      createdAt: at,
      updatedAt: at,
    })
    .returning({ id: firewalls.id });
  if (!row) throw new Error('no firewall');
  return row.id;
}
