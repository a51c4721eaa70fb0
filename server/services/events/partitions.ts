/**
 * The monthly partitions of `events` and `event_raw` (migration 0008 partitions both by range of `time`, with a
 * default partition for any time no month covers). `ensurePartitions` creates the current and the next month ahead
 * of ingest, and a month for any rows that reached the default partition (a backfill, or the rows the migration
 * moved), moving those rows into it; retention drops a month whole once every row in it has expired.
 */
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.ts';

/** The partitioned tables, each with the columns a move copies (never the generated `ip_net`). */
export const partitionedTables = {
  events: [
    'space_id',
    'time',
    'id',
    'source_id',
    'received_at',
    'dedup_key',
    'ip',
    'country',
    'method',
    'host',
    'path',
    'status',
    'action',
    'severity',
    'rule_ids',
    'tags',
    'message',
    'user_agent',
    'firewall_id',
  ],
  event_raw: ['space_id', 'time', 'id', 'source_id', 'raw'],
} as const;
type Table = keyof typeof partitionedTables;

/** Serialises partition changes across API instances (PostgreSQL; PGlite has one connection anyway). */
const lockId = 7_061_532_014;

/** The first instant of the UTC month holding `date`. */
export function monthStart(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
}

function nextMonth(start: Date): Date {
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

/** The partition of `table` for the month starting at `start`: events_p2026_11. */
export function partitionName(table: Table, start: Date): string {
  return `${table}_p${start.getUTCFullYear()}_${String(start.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** A monthly partition as the database has it: its table, name and range [from, to). */
export type Partition = { table: Table; name: string; from: Date; to: Date };

/** The monthly partitions of both tables, oldest first (the default partitions are not listed). */
export async function listPartitions(db: Db): Promise<Partition[]> {
  const result = await db.execute(sql`
    select parent.relname as parent, child.relname as name
    from pg_inherits i
    join pg_class child on child.oid = i.inhrelid
    join pg_class parent on parent.oid = i.inhparent
    where parent.relname in ('events', 'event_raw') and child.relname ~ '_p[0-9]{4}_[0-9]{2}$'
    order by child.relname`);
  return rowsOf<{ parent: Table; name: string }>(result).map(({ parent, name }) => {
    const [year, month] = name.slice(-7).split('_').map(Number);
    const from = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, 1));
    return { table: parent, name, from, to: nextMonth(from) };
  });
}

/**
 * Creates the monthly partitions of both tables for the month of `now`, the next one, and every month that rows of
 * the default partitions fall in, moving those rows into their month (in one transaction per month, so a reader sees
 * them in one place or the other, never in neither). Answers the partitions it created.
 */
export async function ensurePartitions(db: Db, now: Date): Promise<string[]> {
  const current = monthStart(now);
  const wanted = new Map<number, Date>([
    [current.getTime(), current],
    [nextMonth(current).getTime(), nextMonth(current)],
  ]);
  // Months of rows in the default partition (the migration put every earlier event there).
  const stray = rowsOf<{ month: string }>(
    await db.execute(sql`select distinct to_char(time at time zone 'UTC', 'YYYY-MM') as month from events_default`),
  );
  for (const { month } of stray) {
    const start = new Date(`${month}-01T00:00:00Z`);
    wanted.set(start.getTime(), start);
  }
  const existing = new Set((await listPartitions(db)).map((p) => p.name));
  const created: string[] = [];
  for (const start of [...wanted.values()].sort((a, b) => a.getTime() - b.getTime())) {
    if (existing.has(partitionName('events', start)) && existing.has(partitionName('event_raw', start))) continue;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${lockId})`);
      for (const table of Object.keys(partitionedTables) as Table[]) {
        const name = partitionName(table, start);
        const found = rowsOf<{ found: string | null }>(
          await tx.execute(sql`select to_regclass(${name})::text as found`),
        );
        if (found[0]?.found) continue;
        const columns = partitionedTables[table].map((c) => `"${c}"`).join(', ');
        const from = start.toISOString();
        const to = nextMonth(start).toISOString();
        const moving = `${table}_moving`;
        // Rows of this month in the default partition would make the new partition's range overlap: out first.
        await tx.execute(
          sql.raw(`create temporary table ${moving} on commit drop as
            with gone as (delete from ${table}_default where time >= '${from}' and time < '${to}' returning ${columns})
            select * from gone`),
        );
        await tx.execute(
          sql.raw(`create table ${name} partition of ${table} for values from ('${from}') to ('${to}')`),
        );
        await tx.execute(sql.raw(`insert into ${table} (${columns}) select ${columns} from ${moving}`));
        await tx.execute(sql.raw(`drop table ${moving}`));
        created.push(name);
      }
    });
  }
  return created;
}
