import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { expect, test, vi } from 'vitest';
import { readConfig } from '../config.ts';
import { openDatabase } from './database.ts';
import { migrate } from './migrate.ts';
import { users } from './schema/users.ts';

vi.setConfig({ testTimeout: 120_000 });

const journal = JSON.parse(readFileSync(new URL('./migrations/meta/_journal.json', import.meta.url), 'utf8')) as {
  entries: unknown[];
};

test('PGlite on disk: migrations apply once, data survives a reopen', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sg-db-'));
  try {
    const first = await openDatabase({ dataDir: dir });
    expect(first.driver).toBe('pglite');
    await migrate(first);
    await migrate(first);
    const at = new Date('2026-11-23T10:00:00Z');
    await first.db
      .insert(users)
      .values({ email: 'a@example.com', name: 'A', passwordHash: 'x', createdAt: at, updatedAt: at });
    await first.close();
    const second = await openDatabase({ dataDir: dir });
    await migrate(second);
    expect(await second.db.select({ email: users.email }).from(users)).toEqual([{ email: 'a@example.com' }]);
    const applied = (await second.db.execute(
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    )) as unknown as {
      rows: unknown[];
    };
    // One row per migration of the journal, each applied once.
    expect(applied.rows[0]).toEqual({ n: journal.entries.length });
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('configuration from the environment, with defaults', () => {
  const defaults = readConfig({});
  expect(defaults).toMatchObject({
    production: false,
    publicUrl: 'http://127.0.0.1:4321',
    allowedOrigins: ['http://127.0.0.1:4321'],
    cookieSecure: 'auto',
    captchaSecret: undefined,
    smtpUrl: undefined,
  });
  const set = readConfig({
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://guard.example.com/',
    ALLOWED_ORIGINS: 'https://a.example.com, https://b.example.com/',
    COOKIE_SECURE: 'false',
    SMTP_URL: 'smtp://mail:25',
    MAIL_FROM: 'x@example.com',
    CAPTCHA_SECRET: 's',
  });
  expect(set).toMatchObject({
    production: true,
    publicUrl: 'https://guard.example.com',
    allowedOrigins: ['https://guard.example.com', 'https://a.example.com', 'https://b.example.com'],
    cookieSecure: false,
    smtpUrl: 'smtp://mail:25',
    mailFrom: 'x@example.com',
    captchaSecret: 's',
  });
});
