/** Where the audit log tailer stands, kept on disk so a restart (even after kill -9) resumes without loss or duplicates. */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The file being read (device, inode and a hash of its first line, so a truncated or replaced file is told apart),
 * the byte offset up to which its lines were accepted by the API, and the end of the batch being sent, if any: a
 * restart resends exactly that range with the same Idempotency-Key.
 */
export type TailState = { dev: number; ino: number; head: string; offset: number; pendingEnd?: number };

function isTailState(value: unknown): value is TailState {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const whole = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  return (
    whole(v.dev) &&
    whole(v.ino) &&
    typeof v.head === 'string' &&
    whole(v.offset) &&
    (v.pendingEnd === undefined || whole(v.pendingEnd))
  );
}

/** The saved state, or null when there is none (first run) or it cannot be read. */
export function readTailState(file: string): TailState | null {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isTailState(value) ? value : null;
  } catch {
    return null;
  }
}

/** Writes the state durably: a temporary file, fsync, rename over the old one, fsync of the folder. */
export function writeTailState(file: string, state: TailState): void {
  const temporary = `${file}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(state)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  const folder = openSync(dirname(file), 'r');
  try {
    fsyncSync(folder);
  } finally {
    closeSync(folder);
  }
}
