/** Throwaway storage for the benches: a PostgreSQL database created and dropped, a PGlite directory removed. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * The maintenance database of the PostgreSQL server the benches use, from which bench databases are created: the
 * benches' own server (bench/lib/postgres-server.ts sets BENCH_PG_URL when it starts), else the local one.
 */
export const pgAdminUrl = (): string => process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgAdminUrl() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh PostgreSQL database `name` on the local server (dropped first if a run left it); `drop()` removes it. */
export async function postgresDatabase(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const url = new URL(pgAdminUrl());
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** A new directory under the OS temp dir (what DATA_DIR would be); `remove()` deletes it with its content. */
export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** True when psql is on the PATH (the raw COPY baselines need it). */
export function hasPsql(): boolean {
  return spawnSync('psql', ['--version']).status === 0;
}
