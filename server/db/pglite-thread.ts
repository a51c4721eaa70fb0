/**
 * PGlite on a worker thread. PGlite runs each query synchronously on the thread that owns it, so on the
 * HTTP server's thread one long search would freeze every request of the process. Here the database lives in
 * `pglite-worker.ts` and this client speaks to it by messages, offering what Drizzle's PGlite driver and its
 * migrator call: `query`, `exec` and `transaction` (whose queries carry the transaction's id, so nothing
 * outside it runs inside it; PGlite queues other queries until it ends).
 */
import { Worker } from 'node:worker_threads';
import type { PGlite, QueryOptions, Results } from '@electric-sql/pglite';

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: Record<string, unknown> };
type Pending = { resolve(value: unknown): void; reject(error: Error): void };

/** The part of PGlite's interface a query runs through: the database itself, or one of its transactions. */
export type PgliteQueries = Pick<PGlite, 'query' | 'exec'>;

/** An error from the worker as an Error again, with PostgreSQL's fields (`code`, `detail`…) on it. */
function revive(fields: Record<string, unknown>): Error {
  const error = new Error(String(fields.message ?? 'database error'));
  Object.assign(error, fields);
  return error;
}

/** The type ids whose values Drizzle wants as the database's text (its parsers for them are the identity). */
function rawTypes(options: QueryOptions | undefined): number[] {
  return Object.keys(options?.parsers ?? {}).map(Number);
}

export class PgliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #next = 1;
  #stopped: Error | null = null;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.unref();
    worker.on('message', (reply: Reply) => this.#settle(reply));
    worker.on('error', (error) => this.#stop(error));
    worker.on('exit', (code) => this.#stop(new Error(`The database worker stopped (exit code ${code}).`)));
  }

  /** Starts the worker and waits for PGlite to open `dataDir` there ('memory://' for a throwaway database). */
  static async open(dataDir: string): Promise<PgliteThread> {
    const worker = new Worker(new URL('./pglite-worker.ts', import.meta.url), { workerData: { dataDir } });
    await new Promise<void>((ready, failed) => {
      const onMessage = (message: { ready?: boolean }) => {
        if (!message.ready) return;
        worker.off('error', failed);
        ready();
      };
      worker.once('message', onMessage);
      worker.once('error', failed);
    });
    return new PgliteThread(worker);
  }

  #settle(reply: Reply): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(revive(reply.error));
  }

  #stop(error: Error): void {
    this.#stopped ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  #send<T>(message: Record<string, unknown>): Promise<T> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#next++;
    // Referenced while an answer is awaited, so a script waiting on a query does not exit under it.
    if (this.#pending.size === 0) this.#worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker.postMessage({ ...message, id });
    });
  }

  #queries(tx?: number): PgliteQueries {
    const query = (<T>(sql: string, params: unknown[] = [], options?: QueryOptions) =>
      this.#send<Results<T>>({
        op: 'query',
        sql,
        params,
        ...(options?.rowMode ? { rowMode: options.rowMode } : {}),
        rawTypes: rawTypes(options),
        ...(tx === undefined ? {} : { tx }),
      })) as PGlite['query'];
    const exec = ((sql: string) =>
      this.#send<Results[]>({ op: 'exec', sql, ...(tx === undefined ? {} : { tx }) })) as PGlite['exec'];
    return { query, exec };
  }

  query: PGlite['query'] = (...args) => this.#queries().query(...args);
  exec: PGlite['exec'] = (...args) => this.#queries().exec(...args);

  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(work: (tx: PgliteQueries) => Promise<T>): Promise<T> {
    const tx = await this.#send<number>({ op: 'begin' });
    let result: T;
    try {
      result = await work(this.#queries(tx));
    } catch (error) {
      await this.#send({ op: 'end', tx, commit: false }).catch(() => undefined);
      throw error;
    }
    await this.#send({ op: 'end', tx, commit: true });
    return result;
  }

  /** Closes PGlite (its data safely on disk) and stops the worker. */
  async close(): Promise<void> {
    if (!this.#stopped) await this.#send({ op: 'close' });
    await this.#worker.terminate();
  }
}
