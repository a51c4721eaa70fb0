/**
 * Migration 0013 gives every existing space the overview template as its default dashboard, from a JSON literal
 * written out of `dashboardTemplates.overview.model`: the two must never drift.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, test, vi } from 'vitest';
import { dashboardTemplates, defaultDashboardTemplate } from '../../../contract/constants/dashboard-templates.ts';
import { DashboardModel } from '../../../contract/dashboards.ts';
import { migrate } from '../../db/migrate.ts';
import { dashboards } from '../../db/schema/dashboards.ts';
import { spaces } from '../../db/schema/spaces.ts';
import { freshDatabase } from '../../test/harness.ts';

vi.setConfig({ testTimeout: 120_000 });

const migrations = resolve('server/db/migrations');
const sql = readFileSync(join(migrations, '0013_dashboards.sql'), 'utf8');
const template = dashboardTemplates[defaultDashboardTemplate].model;

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

test('the migration’s JSON is the default template’s model, and a valid one', () => {
  const literal = /'(\{.*\})'::jsonb/.exec(sql)?.[1];
  expect(literal).toBeDefined();
  const seeded = JSON.parse(literal ?? '');
  expect(seeded).toEqual(template);
  expect(DashboardModel.parse(seeded)).toEqual(template);
  expect(sql).toContain(`'${template.title}'`);
});

test('a space made before the migration gets the overview as its only, default dashboard', async () => {
  // The migrations up to 0012, then a space, then 0013 and the rest.
  const before = mkdtempSync(join(tmpdir(), 'sg-migrations-'));
  folders.push(before);
  cpSync(migrations, before, { recursive: true });
  // 0013 and every later one: drizzle skips a migration older than the last one applied.
  const journalFile = join(before, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  for (const entry of journal.entries) if (entry.tag >= '0013_dashboards') rmSync(join(before, `${entry.tag}.sql`));
  journal.entries = journal.entries.filter((entry) => entry.tag < '0013_dashboards');
  writeFileSync(journalFile, JSON.stringify(journal));

  const { database, drop } = await freshDatabase({ migrated: false });
  try {
    await migrate(database, { migrationsFolder: before });
    const madeAt = new Date('2026-11-23T10:00:00Z');
    const [space] = await database.db
      .insert(spaces)
      .values({ name: 'Old', createdAt: madeAt, updatedAt: madeAt })
      .returning();
    await migrate(database, { migrationsFolder: migrations });
    const rows = await database.db.select().from(dashboards);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      spaceId: space?.id,
      title: template.title,
      version: 1,
      isDefault: true,
      createdBy: null,
      updatedBy: null,
    });
    expect(rows[0]?.model).toEqual(template);
  } finally {
    await drop();
  }
});
