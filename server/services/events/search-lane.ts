/**
 * Where the event log's searches run: a few at a time, each with a time budget, so that no search (or flood of
 * searches) can take the database from sign-in, ingest and the health check.
 *
 * - On PostgreSQL searches use their own small pool (`Database.searchDb`) and run in a transaction with
 *   `SET LOCAL statement_timeout`, so the server stops a search that runs past its class's budget.
 * - On PGlite (one connection, on a worker thread) one search runs at a time; a search past its budget
 *   answers at its deadline, and its slot stays taken until PGlite is done with it, so searches cannot pile up
 *   in the worker in front of other requests.
 * - Searches past the running ones wait in a queue per space, and a freed slot goes to the waiting space served
 *   longest ago (a space that had none running or waiting counts as never served): a space's searches queue behind
 *   each other, not in front of other spaces', so one analyst's slow searches cannot hold another space's page.
 *   When a space's queue (or the lane's) is full the answer is 503 with `Retry-After`.
 */
import { sql } from 'drizzle-orm';
import { type Database, type Db, driverOf, type Executor, SEARCH_POOL_SIZE } from '../../db/database.ts';
import { ApiError, fieldError } from '../../errors.ts';

/** The kinds of search, each with its own time budget. */
export type SearchKind = 'page' | 'histogram' | 'facets' | 'export' | 'preview';

/** Milliseconds a search of each kind may run (an export: each of its chunks; a preview: each of its statements). */
export const searchBudgets: Readonly<Record<SearchKind, number>> = {
  page: 5_000,
  histogram: 10_000,
  facets: 15_000,
  export: 30_000,
  preview: 15_000,
};

/** Past its budget: the field a search answers on, and how to narrow it. */
const eventSearch = { field: 'q', what: 'search', narrow: 'Narrow the time range or make the query more specific.' };
const pastBudget: Readonly<Record<SearchKind, typeof eventSearch>> = {
  page: eventSearch,
  histogram: eventSearch,
  facets: eventSearch,
  export: eventSearch,
  // An alert rule's preview (POST …/alert-rules/preview): its query and how many hours it looks back.
  preview: { field: 'query', what: 'preview', narrow: 'Look back fewer hours or make the query more specific.' },
};

/** Seconds a client is asked to wait when the queue is full. */
export const SEARCH_RETRY_AFTER = 5;

export type SearchLaneOptions = {
  db: Db;
  /** `statement` on PostgreSQL (the server cancels), `deadline` on PGlite (the answer stops waiting). */
  bound: 'statement' | 'deadline';
  /** Searches that run at once. */
  slots: number;
  /** Searches of one space that may wait for a slot; one more is refused with 503. */
  queue: number;
  /** Searches of all spaces that may wait (default 4 × `queue`); one more is refused with 503. */
  queueTotal?: number;
  budgets?: Partial<Record<SearchKind, number>>;
};

export type SearchLane = {
  /** Runs one search of `kind` for the space `spaceId`: queued for a slot, bounded by the kind's budget. */
  run<T>(kind: SearchKind, spaceId: string, work: (db: Executor) => Promise<T>): Promise<T>;
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
function tooSlow(kind: SearchKind, ms: number): ApiError {
  const { field, what, narrow } = pastBudget[kind];
  return fieldError(field, `This ${what} ran for more than ${ms / 1000} s and was stopped. ${narrow}`, 'query_timeout');
}

const busy = () =>
  new ApiError(
    503,
    'search_busy',
    `The event log is answering too many searches right now. Try again in ${SEARCH_RETRY_AFTER} seconds.`,
    { retryAfter: SEARCH_RETRY_AFTER },
  );

/**
 * Who runs next: searches wait per space, and a freed slot goes to the waiting space whose last slot was granted
 * longest ago. A space is forgotten when it has nothing running or waiting, so one that comes back goes first.
 */
function createFairQueue(options: Pick<SearchLaneOptions, 'slots' | 'queue' | 'queueTotal'>) {
  const queueTotal = options.queueTotal ?? 4 * options.queue;
  /** Per space with searches running or waiting: how many run, who waits (in order), when it was last served. */
  const spaces = new Map<string, { running: number; waiting: (() => void)[]; served: number }>();
  let running = 0;
  let waiting = 0;
  let turn = 0;

  function entry(spaceId: string) {
    let space = spaces.get(spaceId);
    if (!space) {
      space = { running: 0, waiting: [], served: 0 };
      spaces.set(spaceId, space);
    }
    return space;
  }

  function grant(space: { running: number; served: number }): void {
    running++;
    space.running++;
    space.served = ++turn;
  }

  return {
    /** Resolves when `spaceId` holds a slot; throws 503 when its queue or the lane's is full. */
    async acquire(spaceId: string): Promise<void> {
      const space = entry(spaceId);
      if (running < options.slots) return grant(space);
      if (space.waiting.length >= options.queue || waiting >= queueTotal) {
        if (space.running === 0 && space.waiting.length === 0) spaces.delete(spaceId);
        throw busy();
      }
      waiting++;
      // The slot is handed over by `release`, already counted for the waiter.
      await new Promise<void>((granted) => space.waiting.push(granted));
    },
    /** Frees `spaceId`'s slot: to the waiting space served longest ago, if any. */
    release(spaceId: string): void {
      const done = spaces.get(spaceId);
      running--;
      if (done) {
        done.running--;
        if (done.running === 0 && done.waiting.length === 0) spaces.delete(spaceId);
      }
      let next: { running: number; waiting: (() => void)[]; served: number } | undefined;
      for (const space of spaces.values())
        if (space.waiting.length > 0 && (!next || space.served < next.served)) next = space;
      const granted = next?.waiting.shift();
      if (!next || !granted) return;
      waiting--;
      grant(next);
      granted();
    },
    load: () => ({ running, waiting }),
  };
}

export function createSearchLane(options: SearchLaneOptions): SearchLane {
  const budgets = { ...searchBudgets, ...options.budgets };
  const queue = createFairQueue(options);

  /** PostgreSQL: the server cancels the statement past the budget. */
  async function withStatementTimeout<T>(
    kind: SearchKind,
    release: () => void,
    work: (db: Executor) => Promise<T>,
  ): Promise<T> {
    const ms = budgets[kind];
    try {
      return await options.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local statement_timeout = ${Math.round(ms)}`));
        return work(tx);
      });
    } catch (error) {
      if (cancelled(error)) throw tooSlow(kind, ms);
      throw error;
    } finally {
      release();
    }
  }

  /** PGlite: the answer stops waiting at the deadline; the slot is free only when the database is done. */
  async function withDeadline<T>(
    kind: SearchKind,
    release: () => void,
    work: (db: Executor) => Promise<T>,
  ): Promise<T> {
    const ms = budgets[kind];
    const search = Promise.resolve().then(() => work(options.db));
    search.then(release, release);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(tooSlow(kind, ms)), ms);
    });
    try {
      return await Promise.race([search, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async run(kind, spaceId, work) {
      await queue.acquire(spaceId);
      const release = () => queue.release(spaceId);
      return options.bound === 'statement'
        ? withStatementTimeout(kind, release, work)
        : withDeadline(kind, release, work);
    },
    load: queue.load,
  };
}

/** The lane for a database: its search pool's size on PostgreSQL, one at a time on PGlite; queues per space. */
export function searchLaneFor(database: Pick<Database, 'searchDb'>): SearchLane {
  const postgres = driverOf(database.searchDb) === 'postgres';
  return createSearchLane({
    db: database.searchDb,
    bound: postgres ? 'statement' : 'deadline',
    slots: postgres ? SEARCH_POOL_SIZE : 1,
    queue: postgres ? 4 * SEARCH_POOL_SIZE : 6,
  });
}
