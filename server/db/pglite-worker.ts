/**
 * The worker side of `pglite-thread.ts`: owns the PGlite instance, so a long query runs here and the HTTP
 * server's thread keeps answering. Loaded by plain Node (type stripping): no imports from the rest of the code.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

type Request =
  | {
      id: number;
      op: 'query';
      sql: string;
      params: unknown[];
      rowMode?: 'array' | 'object';
      rawTypes: number[];
      tx?: number;
    }
  | { id: number; op: 'exec'; sql: string; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'close' };

type PgTransaction = Parameters<Parameters<PGlite['transaction']>[0]>[0];

const port = parentPort;
if (!port) throw new Error('pglite-worker.ts runs as a worker thread');

/** A transaction held open for the main thread: its queries, and how to end it. */
type Open = { tx: PgTransaction; end(commit: boolean): void };
const open = new Map<number, Open>();
let nextTx = 1;

/** Rolls back the transaction: thrown out of the transaction callback, never sent to the main thread. */
class Rollback extends Error {}

/** An error as plain data: the message and PostgreSQL's fields (code, detail…), never the query's parameters. */
function plain(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = { message: error.message, name: error.name };
  for (const [key, value] of Object.entries(error)) {
    if (key === 'params' || key === 'query') continue;
    if (value === undefined || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return fields;
}

const { dataDir } = workerData as { dataDir: string };
// The same extensions as server/db/pglite-options.ts (the migrations create pg_trgm).
const db = await PGlite.create({ dataDir, extensions: { pg_trgm } });

/** Drizzle passes identity parsers for dates and intervals (it parses them itself): the same, by type id. */
function parsersFor(types: number[]): Record<number, (value: string) => string> {
  return Object.fromEntries(types.map((type) => [type, (value: string) => value]));
}

function executor(tx: number | undefined): Pick<PGlite, 'query' | 'exec'> {
  if (tx === undefined) return db;
  const held = open.get(tx);
  if (!held) throw new Error(`Transaction ${tx} is not open`);
  return held.tx;
}

async function handle(request: Request): Promise<unknown> {
  switch (request.op) {
    case 'query': {
      const result = await executor(request.tx).query(request.sql, request.params, {
        ...(request.rowMode ? { rowMode: request.rowMode } : {}),
        parsers: parsersFor(request.rawTypes),
      });
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
    }
    case 'exec':
      return (await executor(request.tx).exec(request.sql)).map((result) => ({
        rows: result.rows,
        fields: result.fields,
        affectedRows: result.affectedRows,
      }));
    case 'begin':
      return await new Promise<number>((opened, failed) => {
        const id = nextTx++;
        let began = false;
        db.transaction(
          (tx) =>
            new Promise<void>((done, rollback) => {
              open.set(id, { tx, end: (commit) => (commit ? done() : rollback(new Rollback())) });
              began = true;
              opened(id);
            }),
        )
          .catch((error: unknown) => {
            if (!began) failed(error);
            else if (!(error instanceof Rollback)) ended.get(id)?.(error);
          })
          .finally(() => {
            open.delete(id);
            ended.get(id)?.(null);
            ended.delete(id);
          });
      });
    case 'end': {
      const held = open.get(request.tx);
      if (!held) throw new Error(`Transaction ${request.tx} is not open`);
      const outcome = new Promise<unknown>((settle) => ended.set(request.tx, settle));
      held.end(request.commit);
      const error = await outcome;
      if (error) throw error;
      return null;
    }
    case 'close':
      await db.close();
      return null;
  }
}

/** Settles an `end` request when its transaction has committed or rolled back: the error, or null. */
const ended = new Map<number, (error: unknown) => void>();

port.on('message', (request: Request) => {
  handle(request).then(
    (value) => port.postMessage({ id: request.id, ok: true, value }),
    (error: unknown) => port.postMessage({ id: request.id, ok: false, error: plain(error) }),
  );
});
port.postMessage({ ready: true });
