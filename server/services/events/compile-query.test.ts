import { randomBytes } from 'node:crypto';
import { asc } from 'drizzle-orm';
import { char, inet, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { matchesEvent } from '../../../contract/query/match.ts';
import { parseQuery } from '../../../contract/query/parse.ts';
import { matchCases, sampleEvents } from '../../../contract/query/test-cases.ts';
import { type Database, openDatabase } from '../../db/database.ts';
import { compileQuery } from './compile-query.ts';
import { ipNetExpression } from './expressions.ts';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 120_000 });

// A table of its own with the events columns (ip as text, and ip_net generated from it, as in the events table), so
// this test depends on no migration; a random name keeps parallel runs on one PostgreSQL server apart.
const name = `query_events_${randomBytes(4).toString('hex')}`;
const table = pgTable(name, {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  ip: text('ip'),
  ipNet: inet('ip_net'),
  country: char('country', { length: 2 }),
  method: text('method'),
  host: text('host'),
  path: text('path'),
  status: integer('status'),
  action: text('action').notNull(),
  severity: text('severity').notNull(),
  ruleIds: integer('rule_ids').array().notNull(),
  tags: text('tags').array().notNull(),
  message: text('message'),
  userAgent: text('user_agent'),
  firewallId: uuid('firewall_id'),
});

let database: Database;

beforeAll(async () => {
  // In-memory PGlite, or the PostgreSQL server of `npm run test:api:pg`.
  const url = process.env.TEST_DATABASE_URL;
  database = await openDatabase(url ? { url } : { dataDir: 'memory://' });
  await database.db.execute(`create table ${name} (
    id integer primary key, name text not null, ip text, ip_net inet generated always as (${ipNetExpression}) stored,
    country char(2), method text, host text, path text,
    status integer, action text not null, severity text not null, rule_ids integer[] not null, tags text[] not null,
    message text, user_agent text, firewall_id uuid)`);
  await database.db.insert(table).values(
    sampleEvents.map((e, id) => ({
      id,
      name: e.name,
      ip: e.ip ?? null,
      country: e.country ?? null,
      method: e.method ?? null,
      host: e.host ?? null,
      path: e.path ?? null,
      status: e.status ?? null,
      action: e.action ?? 'logged',
      severity: e.severity ?? 'info',
      ruleIds: [...(e.ruleIds ?? [])],
      tags: [...(e.tags ?? [])],
      message: e.message ?? null,
      userAgent: e.userAgent ?? null,
      firewallId: e.firewallId ?? null,
    })),
  );
});

afterAll(async () => {
  await database.db.execute(`drop table if exists ${name}`);
  await database.close();
});

test.each(matchCases)('$query selects $expected in SQL as in memory', async ({ query, expected }) => {
  const parsed = parseQuery(query);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const rows = await database.db
    .select({ name: table.name })
    .from(table)
    .where(compileQuery(parsed.ast, table))
    .orderBy(asc(table.id));
  const inMemory = sampleEvents.filter((e) => matchesEvent(parsed.ast, e)).map((e) => e.name);
  expect(rows.map((r) => r.name)).toEqual(inMemory);
  expect(inMemory.join(' ') || '(none)').toBe(expected);
});

test('values travel as parameters, never inside the SQL text', () => {
  const parsed = parseQuery(`message:"x'; drop table events; --" ip:10.0.0.0/8 tag:attack-* status:>=400`);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const { sql, params } = database.db.select().from(table).where(compileQuery(parsed.ast, table)).toSQL();
  expect(sql).not.toContain('drop table');
  expect(sql).not.toContain('10.0.0.0');
  expect(params).toEqual(expect.arrayContaining(["%x'; drop table events; --%", '10.0.0.0/8', 'attack-%', 400]));
});
