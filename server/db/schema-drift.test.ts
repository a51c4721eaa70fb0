/**
 * Migrations that cannot drift: the database the hand-written migrations make is exactly what the Drizzle schema
 * (`schema/index.ts`) declares, plus what is listed below as SQL-only with its reason. The schema is built in a
 * scratch schema of the same database (the probe), so PostgreSQL itself spells both sides' types, defaults, checks
 * and indexes, and the two catalogs are compared. Runs on PGlite and, in `npm run test:api:pg`, on PostgreSQL.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { is, SQL, sql } from 'drizzle-orm';
import { getTableConfig, type IndexedColumn, PgDialect, PgTable, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freeTextExpression, ipNetExpression } from '../services/events/expressions.ts';
import { freshDatabase } from '../test/harness.ts';
import { type Database, rowsOf } from './database.ts';
import * as schema from './schema/index.ts';

/** What the migrations hold that the schema does not say, on purpose. Everything else must match exactly. */
const sqlOnly = {
  /** Partitioned tables: their key, and their partitions (one per UTC month and a default) are not compared. */
  partitioned: {
    events: { key: 'RANGE ("time")', reason: 'drizzle cannot declare partitions; partitions.ts makes one a month' },
    event_raw: { key: 'RANGE ("time")', reason: 'partitioned like events, read by the detail and the export' },
  } as Record<string, { key: string; reason: string }>,
  /** Generation expressions the schema leaves as a placeholder (it says only that inserts leave the column out). */
  generated: {
    'events.ip_net': { sql: ipNetExpression, reason: 'the query compiler writes it (services/events/expressions.ts)' },
  } as Record<string, { sql: string; reason: string }>,
  /** Whole indexes the schema does not declare: compared with `sql` where it is given, else only found by name. */
  indexes: {
    events: {
      events_text_idx: {
        sql: `using gin (${freeTextExpression} gin_trgm_ops)`,
        reason: 'an operator class on an expression, which the free-text search (expressions.ts) must write exactly',
      },
    },
    ...Object.fromEntries(
      ['event_rollup_day', 'event_rollup_hour'].map((table) => [
        table,
        Object.fromEntries(
          [`${table}_heavy_ip_idx`, `${table}_ip_value_idx`].map((name) => [
            name,
            { reason: 'INCLUDE, which drizzle cannot declare (migration 0009; the ip facet, heavy-values.ts)' },
          ]),
        ),
      ]),
    ),
  } as Record<string, Record<string, { sql?: string; reason: string }>>,
  /** Unique indexes declared in the schema whose NULLS NOT DISTINCT drizzle's index builder cannot say. */
  nullsNotDistinct: Object.fromEntries(
    ['event_rollup_minute_key', 'event_rollup_hour_key', 'event_rollup_day_key'].map((name) => [
      name,
      'an event without a firewall counts under one key, not under one key per row',
    ]),
  ) as Record<string, string>,
};

const probe = 'schema_drift_probe';
const dialect = new PgDialect();
const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** A schema SQL fragment as DDL, its columns unqualified (as drizzle writes index expressions). */
function fragment(value: SQL): string {
  const query = dialect.sqlToQuery(value, 'indexes');
  if (query.params.length > 0) throw new Error(`a schema SQL fragment with parameters: ${query.sql}`);
  return query.sql;
}

/** A column's default as drizzle declares it, in SQL. */
function defaultSql(value: unknown, type: string): string {
  if (is(value, SQL)) return fragment(value);
  if (type === 'json' || type === 'jsonb') return `'${JSON.stringify(value).replaceAll("'", "''")}'::${type}`;
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  throw new Error(`a default this test cannot write in SQL: ${JSON.stringify(value)}`);
}

/** The DDL of one schema table, made in the probe schema (foreign keys aside: they are compared as declared). */
function probeDdl(table: PgTable): string[] {
  const config = getTableConfig(table);
  const name = `${probe}.${q(config.name)}`;
  const items = config.columns.map((column) => {
    const type = column.getSQLType();
    const generated = column.generated
      ? ` generated always as (${sqlOnly.generated[`${config.name}.${column.name}`]?.sql ?? fragment(column.generated.as as SQL)}) stored`
      : '';
    const identity = column.generatedIdentity
      ? ` generated ${column.generatedIdentity.type === 'always' ? 'always' : 'by default'} as identity`
      : '';
    const fallback = column.default !== undefined ? ` default ${defaultSql(column.default, type)}` : '';
    const unique = column.isUnique
      ? `, constraint ${q(column.uniqueName ?? '')} unique${column.uniqueType === 'not distinct' ? ' nulls not distinct' : ''} (${q(column.name)})`
      : '';
    return `${q(column.name)} ${type}${generated}${identity}${fallback}${column.notNull ? ' not null' : ''}${column.primary ? ' primary key' : ''}${unique}`;
  });
  for (const key of config.primaryKeys) items.push(`primary key (${key.columns.map((c) => q(c.name)).join(', ')})`);
  for (const unique of config.uniqueConstraints) {
    const distinct = unique.nullsNotDistinct ? ' nulls not distinct' : '';
    items.push(
      `constraint ${q(unique.getName() ?? '')} unique${distinct} (${unique.columns.map((c) => q(c.name)).join(', ')})`,
    );
  }
  for (const check of config.checks) items.push(`constraint ${q(check.name)} check (${fragment(check.value)})`);
  const partitioned = sqlOnly.partitioned[config.name];
  const statements = [
    `create table ${name} (${items.join(', ')})${partitioned ? ` partition by ${partitioned.key}` : ''}`,
  ];
  for (const index of config.indexes) {
    const { name: indexName, columns, unique, method = 'btree', where } = index.config;
    const keys = columns.map((column) => {
      if (is(column, SQL)) return fragment(column);
      const { name: columnName = '', indexConfig } = column as IndexedColumn;
      const { order, nulls, opClass } = indexConfig ?? {};
      return `${q(columnName)}${opClass ? ` ${opClass}` : ''}${method === 'btree' ? ` ${order} nulls ${nulls}` : ''}`;
    });
    const distinct = sqlOnly.nullsNotDistinct[indexName ?? ''] ? ' nulls not distinct' : '';
    statements.push(
      `create ${unique ? 'unique ' : ''}index ${q(indexName ?? '')} on ${name} using ${method} (${keys.join(', ')})` +
        `${distinct}${where ? ` where ${fragment(where)}` : ''}`,
    );
  }
  for (const [indexName, index] of Object.entries(sqlOnly.indexes[config.name] ?? {}))
    if (index.sql) statements.push(`create index ${q(indexName)} on ${name} ${index.sql}`);
  return statements;
}

const actions: Record<string, string> = {
  a: 'no action',
  r: 'restrict',
  c: 'cascade',
  n: 'set null',
  d: 'set default',
};

/** A schema table's foreign keys, as the lines `catalog` writes for the database's. */
function declaredForeignKeys(table: PgTable): string[] {
  const config = getTableConfig(table);
  return config.foreignKeys.map((key) => {
    const reference = key.reference();
    const columns = reference.columns.map((c) => c.name).join(', ');
    const target = `${getTableConfig(reference.foreignTable).name} (${reference.foreignColumns.map((c) => c.name).join(', ')})`;
    return `foreign key ${config.name} (${columns}) → ${target} on delete ${key.onDelete ?? 'no action'} on update ${key.onUpdate ?? 'no action'}`;
  });
}

/**
 * The tables of a schema of the database as lines, one per fact: each table, column (PostgreSQL's spelling of the
 * type and the default), primary key, unique, foreign key, check and index (its definition as PostgreSQL writes it).
 * Partitions are left out: their parent stands for them (with its partition key, which only a listed table has).
 */
async function catalog(database: Database, namespace: string): Promise<string[]> {
  const db = database.db;
  const tables = sql`select c.oid from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = ${namespace} and c.relkind in ('r', 'p') and not c.relispartition`;
  const facts: string[] = [];
  type Row = Record<string, string | boolean | null>;
  const rows = async (query: SQL) => rowsOf<Row>(await db.execute(query));
  for (const t of await rows(sql`select c.relname, pg_get_partkeydef(c.oid) as key from pg_class c
      where c.oid in (${tables})`))
    facts.push(`table ${t.relname}${t.key ? ` partitioned by ${t.key}` : ''}`);
  for (const c of await rows(sql`select r.relname, a.attname, format_type(a.atttypid, a.atttypmod) as type,
      a.attnotnull, a.attidentity::text as identity, a.attgenerated::text as generated,
      pg_get_expr(d.adbin, d.adrelid) as expression
      from pg_attribute a join pg_class r on r.oid = a.attrelid
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attrelid in (${tables}) and a.attnum > 0 and not a.attisdropped`)) {
    const identity =
      c.identity === 'a'
        ? ' generated always as identity'
        : c.identity === 'd'
          ? ' generated by default as identity'
          : '';
    const expression =
      c.expression === null
        ? ''
        : c.generated === 's'
          ? ` generated always as (${c.expression})`
          : ` default ${c.expression}`;
    facts.push(`column ${c.relname}.${c.attname} ${c.type}${identity}${expression}${c.attnotnull ? ' not null' : ''}`);
  }
  const columnsOf = (keys: string, relation: string) =>
    sql.raw(`(select string_agg(a.attname::text, ', ' order by u.i)
      from unnest(${keys}) with ordinality u(n, i) join pg_attribute a on a.attrelid = ${relation} and a.attnum = u.n)`);
  for (const k of await rows(sql`select r.relname, k.conname, k.contype::text as kind, pg_get_constraintdef(k.oid) as definition,
      ${columnsOf('k.conkey', 'k.conrelid')} as columns, f.relname as target, ${columnsOf('k.confkey', 'k.confrelid')} as target_columns,
      k.confdeltype::text as on_delete, k.confupdtype::text as on_update
      from pg_constraint k join pg_class r on r.oid = k.conrelid left join pg_class f on f.oid = k.confrelid
      where k.conrelid in (${tables}) and k.contype in ('p', 'u', 'f', 'c')`)) {
    if (k.kind === 'p') facts.push(`primary key ${k.relname} (${k.columns})`);
    else if (k.kind === 'f')
      facts.push(
        `foreign key ${k.relname} (${k.columns}) → ${k.target} (${k.target_columns}) on delete ${actions[String(k.on_delete)]} on update ${actions[String(k.on_update)]}`,
      );
    else facts.push(`${k.kind === 'u' ? 'unique' : 'check'} ${k.relname} ${k.conname} ${k.definition}`);
  }
  for (const i of await rows(sql`select r.relname, i.relname as name, pg_get_indexdef(i.oid) as definition
      from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class r on r.oid = x.indrelid
      where x.indrelid in (${tables}) and not exists (select 1 from pg_constraint k
        where k.conrelid = x.indrelid and k.conindid = x.indexrelid and k.contype in ('p', 'u', 'x'))`)) {
    const definition = String(i.definition).replace(/^CREATE (UNIQUE )?INDEX \S+ ON (ONLY )?\S+ /, (_, u) =>
      u ? 'unique ' : '',
    );
    // An index listed as SQL-only without its SQL is only looked for by name.
    const listed = sqlOnly.indexes[String(i.relname)]?.[String(i.name)];
    const shown = namespace === 'public' && listed && listed.sql === undefined ? '(SQL-only)' : definition;
    facts.push(`index ${i.relname} ${i.name} ${shown}`);
  }
  return facts.sort();
}

/** Every table the schema declares. */
const declaredTables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));

/** The facts of the declared tables: the probe schema as the database describes it, and the declared foreign keys. */
async function declared(database: Database, tables: PgTable[]): Promise<string[]> {
  await database.db.execute(sql.raw(`drop schema if exists ${probe} cascade`));
  await database.db.execute(sql.raw(`create schema ${probe}`));
  for (const statement of tables.flatMap(probeDdl)) await database.db.execute(sql.raw(statement));
  const nameOnly = Object.entries(sqlOnly.indexes).flatMap(([table, indexes]) =>
    Object.entries(indexes)
      .filter(([, index]) => index.sql === undefined)
      .map(([name]) => `index ${table} ${name} (SQL-only)`),
  );
  return [...(await catalog(database, probe)), ...tables.flatMap(declaredForeignKeys), ...nameOnly].sort();
}

/** What one side has and the other has not, both ways. */
function drift(schemaFacts: string[], databaseFacts: string[]) {
  return {
    'declared (schema or SQL-only list), not in the migrated database': schemaFacts.filter(
      (f) => !databaseFacts.includes(f),
    ),
    'in the migrated database, not declared': databaseFacts.filter((f) => !schemaFacts.includes(f)),
  };
}
const none = drift([], []);

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  fresh = await freshDatabase();
}, 120_000);
afterAll(() => fresh?.drop());

test('the migrated database is exactly the Drizzle schema, plus what is listed as SQL-only', async () => {
  const migrated = await catalog(fresh.database, 'public');
  expect(drift(await declared(fresh.database, declaredTables), migrated)).toEqual(none);
}, 60_000);

test('a table declared without its migration, or a column made by SQL alone, is drift', async () => {
  const savedViews = pgTable('saved_views', { id: uuid('id').primaryKey(), name: text('name').notNull() });
  await fresh.database.db.execute(sql`alter table users add column nickname text`);
  const found = drift(
    await declared(fresh.database, [...declaredTables, savedViews]),
    await catalog(fresh.database, 'public'),
  );
  expect(found).toEqual({
    'declared (schema or SQL-only list), not in the migrated database': [
      'column saved_views.id uuid not null',
      'column saved_views.name text not null',
      'primary key saved_views (id)',
      'table saved_views',
    ],
    'in the migrated database, not declared': ['column users.nickname text'],
  });
}, 60_000);

test('every migration file has its journal entry, in order, each newer than the one before', () => {
  const folder = new URL('./migrations/', import.meta.url);
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.sql'))
    .sort();
  const journal = JSON.parse(readFileSync(new URL('meta/_journal.json', folder), 'utf8')) as {
    entries: { idx: number; when: number; tag: string; breakpoints: boolean }[];
  };
  expect(journal.entries.map((entry) => `${entry.tag}.sql`)).toEqual(files);
  journal.entries.forEach((entry, idx) => {
    expect(entry.tag).toMatch(new RegExp(`^${String(idx).padStart(4, '0')}_[a-z0-9_]+$`));
    expect({ idx: entry.idx, breakpoints: entry.breakpoints }).toEqual({ idx, breakpoints: true });
    if (idx > 0) expect(entry.when).toBeGreaterThan(journal.entries[idx - 1]?.when ?? 0);
  });
});
