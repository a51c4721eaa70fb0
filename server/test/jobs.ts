/** Helpers of the jobs tests: their database, a clock moved by hand, the rows of one kind. */
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, vi } from 'vitest';
import type { Database, Db } from '../db/database.ts';
import { type JobRow, jobs } from '../db/schema/jobs.ts';
import { freshDatabase } from './harness.ts';

/** One fresh database for a test file, opened before its tests and dropped after; read it inside a test. */
export function databaseOfFile(): { database: Database; db: Db } {
  vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });
  let fresh: Awaited<ReturnType<typeof freshDatabase>> | undefined;
  beforeAll(async () => {
    fresh = await freshDatabase();
  });
  afterAll(async () => {
    await fresh?.drop();
  });
  const opened = () => {
    if (!fresh) throw new Error('the test database is opened in beforeAll: read it inside a test');
    return fresh.database;
  };
  return {
    get database() {
      return opened();
    },
    get db() {
      return opened().db;
    },
  };
}

/** A clock the tests move by hand, so backoff, leases and windows are tested without waiting. */
export function testClock(start: string | Date) {
  let at = new Date(start).getTime();
  return {
    now: () => new Date(at),
    /** Moves the clock forward by `ms`. */
    advance(ms: number) {
      at += ms;
    },
    set(to: string | Date) {
      at = new Date(to).getTime();
    },
  };
}

/** The jobs of one kind, oldest first. */
export function jobsOf(db: Db, kind: string): Promise<JobRow[]> {
  return db.select().from(jobs).where(eq(jobs.kind, kind)).orderBy(asc(jobs.id));
}
