/** API processes of their own (`server/start.js`, as `npm start` runs it) for the specs that need more than the shared server. */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { expect } from '@playwright/test';
import pg from 'pg';

/** The PostgreSQL server these specs make their databases on: E2E_PG_URL, else the local `test` database's server. */
export const ADMIN_URL = process.env.E2E_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Runs `use` with the URL of a database of its own, created first and dropped after (stop its processes in `use`). */
export async function withScratchDatabase(use: (url: string) => Promise<void>): Promise<void> {
  const name = `sg_e2e_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    await use(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/**
 * Starts one API process on `port` against `databaseUrl` and waits until it answers. `origins` are the ports whose
 * origins its CSRF check and CORS accept; `env` adds to the environment (e.g. `DEV_CLOCK_OFFSET_DAYS`).
 */
export async function startApiProcess(
  port: number,
  databaseUrl: string,
  origins: readonly number[],
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['server/start.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ALLOWED_ORIGINS: origins.map((p) => `http://127.0.0.1:${p}`).join(','),
      ...env,
    },
    stdio: 'ignore',
  });
  await expect
    .poll(
      async () => {
        try {
          return (await fetch(`http://127.0.0.1:${port}/api/health`)).status;
        } catch {
          return 0;
        }
      },
      { timeout: 60_000, intervals: [250, 500] },
    )
    .toBe(200);
  return child;
}

/** Stops a process by its PID and waits for it to exit. */
export async function stopApiProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  await exited;
}
