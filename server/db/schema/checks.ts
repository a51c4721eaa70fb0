import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * A check's condition that a text column holds one of the values the contract lists, written from that list: a value
 * added to the contract without a migration of the check then fails `schema-drift.test.ts`, not an insert.
 */
export function oneOf(column: AnyPgColumn, values: readonly string[]): SQL {
  return sql`${column} in (${sql.raw(values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', '))})`;
}
