/**
 * Follows ModSecurity's JSON audit log (one record per line) and hands complete lines to `send` in batches, each
 * with an Idempotency-Key made of the file's identity and the batch's byte range. The offset is saved only after
 * `send` says the API took the batch, and the range being sent is saved before, so a kill -9 at any moment neither
 * loses a line nor stores one twice. Follows rotation (a new inode at the path, the old file drained first) and
 * truncation (the file shrank, or its first line changed).
 */
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { type FileHandle, open, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { messageOf } from './message-of.ts';
import { readTailState, type TailState, writeTailState } from './tail-state.ts';

/** What the API made of a batch: taken (advance past it) or not (send the same range again later). */
export type SendResult = 'done' | 'retry';
/** Ships one batch of NDJSON; the key is the same every time the same range is sent. */
export type SendBatch = (body: string, key: string, lines: number) => Promise<SendResult>;

/** How the tailer reads and batches; the defaults suit a production WAF. */
export type TailerOptions = {
  /** The audit log. */
  path: string;
  /** Where the offset is kept. */
  stateFile: string;
  send: SendBatch;
  /** A batch holds at most this many lines… */
  maxLines?: number;
  /** …and this many bytes (below the API's 10 MB); a longer single line is skipped with a warning. */
  maxBytes?: number;
  /** A batch smaller than maxLines waits at most this long for more lines. */
  batchMs?: number;
  /** How often the file is looked at when nothing is new. */
  pollMs?: number;
  /** After a rotation, the old file is read until it stays unchanged this long (ModSecurity writes to it until reload). */
  quietMs?: number;
  log?: (line: string) => void;
};

/** What one step did: moved on (shipped a batch, followed a rotation: step again at once), found nothing (yet) to ship, or failed to ship (retry after a pause). */
export type StepResult = 'progress' | 'idle' | 'failed';

const headBytes = 1024;
const newline = 0x0a;

type Open = { handle: FileHandle; stats: Stats };

/** The tailer: `step()` does one unit of work (tests drive it), `run()` loops until aborted. */
export class AuditTailer {
  readonly #o: Required<TailerOptions>;
  #state: TailState | null;
  #file: Open | null = null;
  /** When unsent complete lines were first seen (the batch window starts there). */
  #waitingSince: number | null = null;
  /** When the path was first seen pointing at another file than the one being read. */
  #rotatedSince: number | null = null;

  constructor(options: TailerOptions) {
    this.#o = {
      maxLines: 1000,
      maxBytes: 4 * 1024 * 1024,
      batchMs: 1000,
      pollMs: 250,
      quietMs: 2000,
      log: (line) => console.error(line),
      ...options,
    };
    this.#state = readTailState(this.#o.stateFile);
  }

  /** Loops until the signal aborts: a step, then a pause when there was nothing to do, a growing one after failures. */
  async run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      let result: StepResult;
      try {
        result = await this.step();
      } catch (error) {
        this.#o.log(`audit log: ${messageOf(error)}`);
        result = 'failed';
      }
      failures = result === 'failed' ? failures + 1 : 0;
      if (result === 'progress') continue;
      const pause = result === 'failed' ? Math.min(30_000, 500 * 2 ** Math.min(failures, 6)) : this.#o.pollMs;
      await sleep(pause, signal);
    }
    await this.close();
  }

  /** Closes the file being read. */
  async close(): Promise<void> {
    await this.#file?.handle.close();
    this.#file = null;
  }

  /** One unit of work. With `flush`, ships what is there without waiting for the batch window or the quiet time. */
  async step(options: { flush?: boolean } = {}): Promise<StepResult> {
    const now = Date.now();
    const file = await this.#current();
    if (!file || !this.#state) return 'idle';
    const state = this.#state;

    // Truncated (shorter than what was read) or replaced in place (another first line). After a copytruncate
    // rotation the copy beside the log starts with the same line: finish it first (keys keep the original's
    // identity, so a batch in flight is the same batch); then, or without a copy, read the log again from 0.
    const size = (await file.handle.stat()).size;
    const end = state.pendingEnd ?? state.offset;
    if (size < end || (state.head !== '' && (await headOf(file.handle)) !== state.head)) {
      const copy = state.head === '' ? null : await this.#findCopy(state.head, end);
      this.#waitingSince = null;
      if (copy) {
        this.#o.log(`audit log: ${this.#o.path} was truncated; finishing its copy ${copy.path} first`);
        await file.handle.close();
        this.#file = copy.file;
        return 'progress';
      }
      this.#o.log(`audit log: ${this.#o.path} was truncated or replaced; reading it from the start`);
      this.#save({ dev: state.dev, ino: state.ino, head: '', offset: 0 });
      return 'progress';
    }

    // A batch that was being sent when the process stopped: the same range again, with the same key.
    if (state.pendingEnd !== undefined) {
      return this.#ship(
        state,
        await readAt(file.handle, state.offset, state.pendingEnd - state.offset),
        state.pendingEnd,
      );
    }

    const chunk = await readAt(file.handle, state.offset, Math.min(this.#o.maxBytes, size - state.offset));
    const { end: last, lines } = completeLines(chunk, this.#o.maxLines);
    if (lines === 0) {
      if (chunk.length === this.#o.maxBytes) return this.#skipLongLine(file.handle, state);
      return this.#followRotation(now, options.flush === true);
    }
    this.#rotatedSince = null;

    // The batch window: wait for more lines unless the batch is full.
    this.#waitingSince ??= now;
    const full = lines >= this.#o.maxLines || chunk.length === this.#o.maxBytes;
    if (!options.flush && !full && now - this.#waitingSince < this.#o.batchMs) return 'idle';

    if (state.head === '') state.head = (await headOf(file.handle)) ?? '';
    const body = chunk.subarray(0, last);
    this.#save({ ...state, pendingEnd: state.offset + last });
    return this.#ship(state, body, state.offset + last);
  }

  /** Sends `[state.offset, end)`; on success the offset moves to `end`, otherwise the pending range stays for a retry. */
  async #ship(state: TailState, body: Buffer, end: number): Promise<StepResult> {
    const text = body
      .toString('utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
    const key = `audit-${state.dev}.${state.ino}-${state.head.slice(0, 16)}-${state.offset}-${end}`;
    const result = text.length === 0 ? 'done' : await this.#o.send(`${text.join('\n')}\n`, key, text.length);
    if (result === 'retry') return 'failed';
    this.#save({ dev: state.dev, ino: state.ino, head: state.head, offset: end });
    this.#waitingSince = null;
    return 'progress';
  }

  /** A line longer than a whole batch cannot be sent: skip to the next newline and say so. */
  async #skipLongLine(handle: FileHandle, state: TailState): Promise<StepResult> {
    let position = state.offset + this.#o.maxBytes;
    for (;;) {
      const chunk = await readAt(handle, position, 64 * 1024);
      if (chunk.length === 0) return 'idle';
      const at = chunk.indexOf(newline);
      if (at >= 0) {
        position += at + 1;
        break;
      }
      position += chunk.length;
    }
    this.#o.log(`audit log: skipped a record of ${position - state.offset} bytes (over ${this.#o.maxBytes})`);
    if (state.head === '') state.head = (await headOf(handle)) ?? '';
    this.#save({ ...state, offset: position });
    return 'progress';
  }

  /** Nothing new in the file being read: if the path now names another file, switch once the old one is quiet. */
  async #followRotation(now: number, flush: boolean): Promise<StepResult> {
    const atPath = await statOrNull(this.#o.path);
    const file = this.#file;
    if (!atPath || !file || (atPath.ino === file.stats.ino && atPath.dev === file.stats.dev)) {
      this.#rotatedSince = null;
      return 'idle';
    }
    this.#rotatedSince ??= now;
    if (!flush && now - this.#rotatedSince < this.#o.quietMs) return 'idle';
    this.#o.log(`audit log: ${this.#o.path} was rotated; following the new file`);
    await this.close();
    this.#rotatedSince = null;
    this.#state = null;
    return (await this.#current()) ? 'progress' : 'idle';
  }

  /** The file the state names: open already, at the path, or (after a rotation while stopped) renamed beside it. */
  async #current(): Promise<Open | null> {
    if (this.#file) return this.#file;
    const state = this.#state;
    if (!state) {
      // First run, or a rotation was just followed: the file at the path, from its start.
      const opened = await openOrNull(this.#o.path);
      if (!opened) return null;
      this.#file = opened;
      this.#save({ dev: opened.stats.dev, ino: opened.stats.ino, head: '', offset: 0 });
      return opened;
    }
    const atPath = await openOrNull(this.#o.path);
    if (atPath && atPath.stats.ino === state.ino && atPath.stats.dev === state.dev) {
      this.#file = atPath;
      return atPath;
    }
    await atPath?.handle.close();
    const renamed = await this.#findRenamed(state);
    if (renamed) {
      this.#o.log(`audit log: finishing the rotated file ${renamed.path}`);
      this.#file = renamed.file;
      return renamed.file;
    }
    this.#o.log(`audit log: the file last read (inode ${state.ino}) is gone; reading ${this.#o.path} from the start`);
    this.#state = null;
    return this.#current();
  }

  /** A file beside the log (audit.log.1, …) with the inode the state names (renamed by a rotation). */
  #findRenamed(state: TailState): Promise<{ path: string; file: Open } | null> {
    return this.#findBeside(async (file) => file.stats.ino === state.ino && file.stats.dev === state.dev);
  }

  /** A file beside the log that starts with the same first line and reaches `end` (a copytruncate copy). */
  #findCopy(head: string, end: number): Promise<{ path: string; file: Open } | null> {
    return this.#findBeside(async (file) => file.stats.size >= end && (await headOf(file.handle)) === head);
  }

  /** The first file beside the log whose name starts with the log's and that `fits`, opened. */
  async #findBeside(fits: (file: Open) => Promise<boolean>): Promise<{ path: string; file: Open } | null> {
    const folder = dirname(this.#o.path);
    const base = basename(this.#o.path);
    let names: string[] = [];
    try {
      names = (await readdir(folder)).filter((name) => name.startsWith(base) && name !== base).sort();
    } catch {
      return null;
    }
    for (const name of names) {
      const opened = await openOrNull(join(folder, name));
      if (!opened) continue;
      if (await fits(opened)) return { path: join(folder, name), file: opened };
      await opened.handle.close();
    }
    return null;
  }

  #save(state: TailState): void {
    this.#state = state;
    writeTailState(this.#o.stateFile, state);
  }
}

/** The end (exclusive, relative to the chunk) of the last complete line among the first `maxLines`, and their count. */
function completeLines(chunk: Buffer, maxLines: number): { end: number; lines: number } {
  let end = 0;
  let lines = 0;
  while (lines < maxLines) {
    const at = chunk.indexOf(newline, end);
    if (at < 0) break;
    end = at + 1;
    lines += 1;
  }
  return { end, lines };
}

/** Identifies the file's content: a hash of its first line (at most 1 KB), or null while that line is incomplete. */
async function headOf(handle: FileHandle): Promise<string | null> {
  const start = await readAt(handle, 0, headBytes);
  const at = start.indexOf(newline);
  if (at < 0 && start.length < headBytes) return null;
  return createHash('sha256')
    .update(at < 0 ? start : start.subarray(0, at + 1))
    .digest('hex');
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  if (length <= 0) return Buffer.alloc(0);
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

async function openOrNull(path: string): Promise<Open | null> {
  try {
    const handle = await open(path, 'r');
    return { handle, stats: await handle.stat() };
  } catch {
    return null;
  }
}

async function statOrNull(path: string): Promise<Stats | null> {
  try {
    return await stat(path);
  } catch {
    return null;
  }
}

/** Resolves after `ms`, or at once when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
