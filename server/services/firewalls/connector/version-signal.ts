/**
 * Wakes the connectors' long polls when a firewall gets a new version. In this process `firewallTransaction`
 * (change.ts) calls `announceVersion` after its commit; other API processes on the same PostgreSQL server hear it
 * through LISTEN/NOTIFY (`notifyVersion` runs inside the saving transaction, so the notice leaves on commit).
 * PGlite has one process, so the in-process signal is all it needs.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db, Executor } from '../../../db/database.ts';

const channel = 'sg_firewall_version';
/** How long the LISTEN connection stays open after its last waiter left, so back-to-back polls share it. */
const lingerMs = 5_000;

const waiters = new Map<string, Set<() => void>>();
/** Set on shutdown: every held poll answers (304) at once, so a graceful stop does not wait out the long polls. */
let ending = false;

/** Wakes every request of this process waiting on the firewall. */
export function announceVersion(firewallId: string): void {
  for (const wake of waiters.get(firewallId) ?? []) wake();
}

/** Tells the other API processes, on commit of `tx`, that the firewall has a new version. */
export async function notifyVersion(tx: Executor, firewallId: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${channel}, ${firewallId})`);
}

type Listener = { ready: Promise<void>; users: number; timer: NodeJS.Timeout | null; client: pg.Client };
const listeners = new WeakMap<pg.Pool, Listener>();

/** The LISTEN connection of a PostgreSQL pool, opened on first use; null for PGlite. */
function listen(db: Db): Listener | null {
  const pool = (db as unknown as { $client?: unknown }).$client;
  if (!(pool instanceof pg.Pool)) return null;
  let listener = listeners.get(pool);
  if (!listener) {
    const client = new pg.Client(pool.options);
    client.on('notification', (message) => {
      if (message.payload) announceVersion(message.payload);
    });
    // A lost connection is replaced by the next waiter.
    client.on('error', () => listeners.delete(pool));
    const opened: Listener = {
      client,
      users: 0,
      timer: null,
      ready: client
        .connect()
        .then(() => client.query(`listen ${channel}`))
        .then(() => undefined),
    };
    opened.ready.catch(() => listeners.delete(pool));
    listeners.set(pool, opened);
    listener = opened;
  }
  const held = listener;
  if (held.timer) clearTimeout(held.timer);
  held.timer = null;
  held.users++;
  return held;
}

/** Lets go of a LISTEN connection; it closes a little after its last user. */
function release(db: Db, listener: Listener): void {
  listener.users--;
  if (listener.users > 0) return;
  listener.timer = setTimeout(() => {
    const pool = (db as unknown as { $client?: pg.Pool }).$client;
    if (pool && listeners.get(pool) === listener) listeners.delete(pool);
    void listener.client.end().catch(() => undefined);
  }, lingerMs);
  listener.timer.unref();
}

/**
 * Waits for a new version of the firewall: `changed()` is asked at once (after listening, so no save falls
 * between) and at each signal; answers true as soon as it says so, false when `ms` passed or `abort` fired.
 */
export async function waitForVersion(
  db: Db,
  firewallId: string,
  ms: number,
  changed: () => Promise<boolean>,
  abort?: AbortSignal,
): Promise<boolean> {
  let wake: () => void = () => undefined;
  let pending = true;
  const set = waiters.get(firewallId) ?? new Set();
  waiters.set(firewallId, set);
  const onSignal = () => {
    pending = true;
    wake();
  };
  set.add(onSignal);
  const listener = listen(db);
  const deadline = performance.now() + ms;
  try {
    // Without a LISTEN connection other processes' saves are not heard; the wait still ends at its deadline.
    if (listener) await listener.ready.catch(() => undefined);
    while (!abort?.aborted && !ending) {
      if (pending) {
        pending = false;
        if (await changed()) return true;
      }
      const left = deadline - performance.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        const done = () => {
          clearTimeout(timer);
          abort?.removeEventListener('abort', done);
          resolve();
        };
        wake = done;
        abort?.addEventListener('abort', done, { once: true });
        if (pending) done();
      });
    }
    return false;
  } finally {
    set.delete(onSignal);
    if (set.size === 0) waiters.delete(firewallId);
    if (listener) release(db, listener);
  }
}

/** Ends every held long poll of this process now and any later one at once (their connectors ask again elsewhere). */
export function endAllWaits(): void {
  ending = true;
  for (const set of waiters.values()) for (const wake of set) wake();
}

/** How many requests of this process wait on the firewall (tests use it to save only once a poll is held). */
export function waitingOn(firewallId: string): number {
  return waiters.get(firewallId)?.size ?? 0;
}
