import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count } from 'drizzle-orm';
import { expect, test, vi } from 'vitest';
import { createApp } from '../app.ts';
import { openDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { events } from '../db/schema/events.ts';
import { sources } from '../db/schema/sources.ts';
import { spaces } from '../db/schema/spaces.ts';
import { silentLogger } from '../services/shared/logger.ts';
import { hashToken } from '../services/shared/tokens.ts';

vi.setConfig({ testTimeout: 120_000 });

/** A 2xx means durable: what was answered is there after the process closes and opens its data directory again. */
test('accepted events survive a restart (PGlite on disk)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sg-ingest-'));
  try {
    const first = await openDatabase({ dataDir: dir });
    await migrate(first);
    // The fixture's rows are made at the time of the events the client sends.
    const at = new Date('2026-11-21T10:00:00Z');
    const [space] = await first.db.insert(spaces).values({ name: 'durable', createdAt: at, updatedAt: at }).returning();
    if (!space) throw new Error('no space');
    await first.db.insert(sources).values({
      spaceId: space.id,
      name: 'edge',
      kind: 'json',
      tokenHash: hashToken('sgi_durable'),
      tokenPrefix: 'sgi_du',
      createdAt: at,
      updatedAt: at,
    });
    const app = createApp({ db: first.db, log: silentLogger, config: { production: false } });
    const body = Array.from({ length: 50 }, (_, i) =>
      JSON.stringify({ time: '2026-11-21T10:00:00Z', id: `e${i}` }),
    ).join('\n');
    const res = await app.request('http://localhost/api/ingest/sgi_durable', {
      method: 'POST',
      body,
      headers: { 'idempotency-key': 'k1' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: 50, errors: [] });
    await first.close();

    const second = await openDatabase({ dataDir: dir });
    await migrate(second);
    expect(await second.db.select({ n: count() }).from(events)).toEqual([{ n: 50 }]);
    // The client, unsure whether its batch landed, retries with its key: same answer, nothing doubled.
    const again = createApp({ db: second.db, log: silentLogger, config: { production: false } });
    const retry = await again.request('http://localhost/api/ingest/sgi_durable', {
      method: 'POST',
      body,
      headers: { 'idempotency-key': 'k1' },
    });
    expect(await retry.json()).toEqual({ accepted: 50, errors: [] });
    expect(await second.db.select({ n: count() }).from(events)).toEqual([{ n: 50 }]);
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
