/**
 * Where the event log's searches run: a few at a time, each with a time budget, so that no search (or flood of
 * searches) can take the database from sign-in, ingest and the health check.
 *
 * - On PostgreSQL searches use their own small pool (`Database.searchDb`) and run in a transaction with
 *   `SET LOCAL statement_timeout`, so the server stops a search that runs past its class's budget.
 * - On PGlite (one connection, on a worker thread) one search runs at a time; a search past its budget
 *   answers at its deadline, and its slot stays taken until PGlite is done with it, so searches cannot pile up
 *   in the worker in front of other requests.
 * - Searches past the running ones wait in a short queue; when it is full the answer is 503 with `Retry-After`.
 */
import { sql } from 'drizzle-orm';
import { type Database, type Db, driverOf, type Executor, SEARCH_POOL_SIZE } from '../../db/database.ts';
import { ApiError, fieldError } from '../../errors.ts';

/** The kinds of search, each with its own time budget. */
export type SearchKind = 'page' | 'histogram' | 'facets' | 'export';

/** Milliseconds a search of each kind may run (an export: each of its chunks). */
export const searchBudgets: Readonly<Record<SearchKind, number>> = {
  page: 5_000,
  histogram: 10_000,
  facets: 15_000,
  export: 30_000,
};

/** Seconds a client is asked to wait when the queue is full. */
export const SEARCH_RETRY_AFTER = 5;

export type SearchLaneOptions = {
  db: Db;
  /** `statement` on PostgreSQL (the server cancels), `deadline` on PGlite (the answer stops waiting). */
  bound: 'statement' | 'deadline';
  /** Searches that run at once. */
  slots: number;
  /** Searches that may wait for a slot; one more is refused with 503. */
  queue: number;
  budgets?: Partial<Record<SearchKind, number>>;
};

export type SearchLane = {
  /** Runs one search of `kind`: queued for a slot, bounded by the kind's budget. */
  run<T>(kind: SearchKind, work: (db: Executor) => Promise<T>): Promise<T>;
  /** Searches running and waiting now. */
  load(): { running: number; waiting: number };
};

/** PostgreSQL's code for a statement cancelled by statement_timeout. */
const QUERY_CANCELED = '57014';

function cancelled(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === QUERY_CANCELED) return true;
  }
  return false;
}

/** 400 on the query: the search ran past its budget. */
function tooSlow(ms: number): ApiError {
  return fieldError(
    'q',
    `This search ran for more than ${ms / 1000} s and was stopped. Narrow the time range or make the query more specific.`,
    'query_timeout',
  );
}

const busy = () =>
  new ApiError(
    503,
    'search_busy',
    `The event log is answering too many searches right now. Try again in ${SEARCH_RETRY_AFTER} seconds.`,
    { retryAfter: SEARCH_RETRY_AFTER },
  );

export function createSearchLane(options: SearchLaneOptions): SearchLane {
  const budgets = { ...searchBudgets, ...options.budgets };
  let running = 0;
  const waiting: (() => void)[] = [];

  async function slot(): Promise<void> {
    if (running < options.slots) {
      running++;
      return;
    }
    if (waiting.length >= options.queue) throw busy();
    // The slot is handed over by `release`, so `running` stays counted for the waiter.
    await new Promise<void>((granted) => waiting.push(granted));
  }

  function release(): void {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }

  /** PostgreSQL: the server cancels the statement past the budget. */
  async function withStatementTimeout<T>(ms: number, work: (db: Executor) => Promise<T>): Promise<T> {
    try {
      return await options.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local statement_timeout = ${Math.round(ms)}`));
        return work(tx);
      });
    } catch (error) {
      if (cancelled(error)) throw tooSlow(ms);
      throw error;
    } finally {
      release();
    }
  }

  /** PGlite: the answer stops waiting at the deadline; the slot is free only when the database is done. */
  async function withDeadline<T>(ms: number, work: (db: Executor) => Promise<T>): Promise<T> {
    const search = Promise.resolve().then(() => work(options.db));
    search.then(release, release);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(tooSlow(ms)), ms);
    });
    try {
      return await Promise.race([search, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async run(kind, work) {
      await slot();
      const ms = budgets[kind];
      return options.bound === 'statement' ? withStatementTimeout(ms, work) : withDeadline(ms, work);
    },
    load: () => ({ running, waiting: waiting.length }),
  };
}

/** The lane for a database: its search pool's size on PostgreSQL, one at a time on PGlite. */
export function searchLaneFor(database: Pick<Database, 'searchDb'>): SearchLane {
  const postgres = driverOf(database.searchDb) === 'postgres';
  return createSearchLane({
    db: database.searchDb,
    bound: postgres ? 'statement' : 'deadline',
    slots: postgres ? SEARCH_POOL_SIZE : 1,
    queue: postgres ? 4 * SEARCH_POOL_SIZE : 6,
  });
}
