/** The audit log tailer against a real file: batches, offsets saved only after success, rotation, truncation, restarts. */
import { appendFileSync, copyFileSync, mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { AuditTailer, type SendBatch, type SendResult } from './audit-tailer.ts';
import { readTailState } from './tail-state.ts';

let dir = '';
let log = '';
let stateFile = '';

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sg-tailer-'));
  log = join(dir, 'audit.log');
  stateFile = join(dir, 'audit-offset.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in for the API: keeps each batch once per Idempotency-Key, as the events endpoint does. */
function fakeApi() {
  const byKey = new Map<string, string[]>();
  const calls: string[] = [];
  let answer: SendResult | 'crash' = 'done';
  const send: SendBatch = async (body, key) => {
    calls.push(key);
    if (answer === 'retry') return 'retry';
    if (!byKey.has(key)) byKey.set(key, body.trimEnd().split('\n'));
    if (answer === 'crash') throw new Error('killed after the API stored the batch');
    return 'done';
  };
  return {
    send,
    calls,
    answer: (next: SendResult | 'crash') => {
      answer = next;
    },
    /** Every line the API stored, in order of first arrival. */
    lines: () => [...byKey.values()].flat(),
  };
}

function records(from: number, count: number): string {
  return Array.from(
    { length: count },
    (_, i) => `${JSON.stringify({ transaction: { unique_id: `r${from + i}` } })}\n`,
  ).join('');
}

function ids(lines: string[]): string[] {
  return lines.map((line) => (JSON.parse(line) as { transaction: { unique_id: string } }).transaction.unique_id);
}

function expected(from: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `r${from + i}`);
}

async function drain(tailer: AuditTailer): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    if ((await tailer.step({ flush: true })) === 'idle') return;
  }
  throw new Error('the tailer never went idle');
}

test('ships complete lines in batches of at most maxLines, each under its own key, and saves the offset', async () => {
  writeFileSync(log, records(0, 2500));
  const api = fakeApi();
  const tailer = new AuditTailer({ path: log, stateFile, send: api.send, maxLines: 1000 });
  await drain(tailer);
  expect(api.calls).toHaveLength(3);
  expect(new Set(api.calls).size).toBe(3);
  expect(ids(api.lines())).toEqual(expected(0, 2500));
  expect(readTailState(stateFile)).toMatchObject({ offset: records(0, 2500).length });
  expect(readTailState(stateFile)?.pendingEnd).toBeUndefined();
  await tailer.close();
});

test('a line still being written waits until its newline arrives', async () => {
  const whole = records(0, 2);
  writeFileSync(log, whole.slice(0, whole.length - 5));
  const api = fakeApi();
  const tailer = new AuditTailer({ path: log, stateFile, send: api.send });
  await drain(tailer);
  expect(ids(api.lines())).toEqual(['r0']);
  appendFileSync(log, whole.slice(whole.length - 5));
  await drain(tailer);
  expect(ids(api.lines())).toEqual(['r0', 'r1']);
  await tailer.close();
});

test('without flush, a small batch waits for the batch window', async () => {
  writeFileSync(log, records(0, 3));
  const api = fakeApi();
  const tailer = new AuditTailer({ path: log, stateFile, send: api.send, batchMs: 200 });
  expect(await tailer.step()).toBe('idle');
  await new Promise((resolve) => setTimeout(resolve, 250));
  expect(await tailer.step()).toBe('progress');
  expect(ids(api.lines())).toEqual(expected(0, 3));
  await tailer.close();
});

test('a refused batch keeps the offset; the retry, even after a restart and more lines, sends the same range and key', async () => {
  writeFileSync(log, records(0, 10));
  const api = fakeApi();
  api.answer('retry');
  const first = new AuditTailer({ path: log, stateFile, send: api.send });
  expect(await first.step({ flush: true })).toBe('failed');
  expect(readTailState(stateFile)).toMatchObject({ offset: 0, pendingEnd: records(0, 10).length });
  await first.close();

  appendFileSync(log, records(10, 5));
  api.answer('done');
  const second = new AuditTailer({ path: log, stateFile, send: api.send });
  await drain(second);
  expect(api.calls[1]).toBe(api.calls[0]);
  expect(ids(api.lines())).toEqual(expected(0, 15));
  await second.close();
});

test('killed after the API stored a batch but before the offset was saved: the resend is a no-op', async () => {
  writeFileSync(log, records(0, 10));
  const api = fakeApi();
  api.answer('crash');
  const first = new AuditTailer({ path: log, stateFile, send: api.send });
  await expect(first.step({ flush: true })).rejects.toThrow('killed');
  await first.close();

  appendFileSync(log, records(10, 10));
  api.answer('done');
  const second = new AuditTailer({ path: log, stateFile, send: api.send });
  await drain(second);
  expect(ids(api.lines())).toEqual(expected(0, 20));
  await second.close();
});

test('a restart resumes at the saved offset: no line lost, none sent twice', async () => {
  writeFileSync(log, records(0, 7));
  const api = fakeApi();
  const first = new AuditTailer({ path: log, stateFile, send: api.send });
  await drain(first);
  await first.close();
  appendFileSync(log, records(7, 6));
  const second = new AuditTailer({ path: log, stateFile, send: api.send });
  await drain(second);
  expect(ids(api.lines())).toEqual(expected(0, 13));
  expect(api.calls).toHaveLength(2);
  await second.close();
});

test('rotation by rename: the old file is finished (with what was still written to it), then the new one', async () => {
  writeFileSync(log, records(0, 5));
  const api = fakeApi();
  const tailer = new AuditTailer({ path: log, stateFile, send: api.send });
  await drain(tailer);
  renameSync(log, `${log}.1`);
  appendFileSync(`${log}.1`, records(5, 3)); // ModSecurity writes to the renamed file until nginx reloads
  writeFileSync(log, records(8, 4));
  await drain(tailer);
  expect(ids(api.lines())).toEqual(expected(0, 12));
  expect(readTailState(stateFile)).toMatchObject({ offset: records(8, 4).length });
  await tailer.close();
});

test('rotated while stopped: a restart finds the renamed file by its inode, finishes it, then reads the new one', async () => {
  writeFileSync(log, records(0, 5));
  const api = fakeApi();
  const first = new AuditTailer({ path: log, stateFile, send: api.send });
  await drain(first);
  await first.close();
  appendFileSync(log, records(5, 2));
  renameSync(log, `${log}.1`);
  writeFileSync(log, records(7, 3));
  const second = new AuditTailer({ path: log, stateFile, send: api.send, log: () => {} });
  await drain(second);
  expect(ids(api.lines())).toEqual(expected(0, 10));
  await second.close();
});

test('truncation (copytruncate): reads the file again from the start, under new keys', async () => {
  writeFileSync(log, records(0, 6));
  const api = fakeApi();
  const tailer = new AuditTailer({ path: log, stateFile, send: api.send, log: () => {} });
  await drain(tailer);
  truncateSync(log, 0);
  appendFileSync(log, records(6, 2));
  await drain(tailer);
  expect(ids(api.lines())).toEqual(expected(0, 8));

  // Truncated and grown back past the old offset before the tailer looked: told apart by its first line.
  truncateSync(log, 0);
  appendFileSync(log, records(100, 10));
  await drain(tailer);
  expect(ids(api.lines())).toEqual([...expected(0, 8), ...expected(100, 10)]);
  await tailer.close();
});

test('copytruncate: the lines not yet shipped are read from the copy, then the log again from its start', async () => {
  writeFileSync(log, records(0, 5));
  const api = fakeApi();
  const tailer = new AuditTailer({ path: log, stateFile, send: api.send, log: () => {} });
  await drain(tailer);
  appendFileSync(log, records(5, 3)); // written, not shipped yet…
  copyFileSync(log, `${log}.1`); // …when logrotate copies
  truncateSync(log, 0); // and truncates
  appendFileSync(log, records(8, 2));
  await drain(tailer);
  expect(ids(api.lines())).toEqual(expected(0, 10));
  await tailer.close();
});

test('copytruncate while a batch was in flight: the same range and key from the copy after a restart', async () => {
  writeFileSync(log, records(0, 4));
  const api = fakeApi();
  api.answer('crash');
  const first = new AuditTailer({ path: log, stateFile, send: api.send, log: () => {} });
  await expect(first.step({ flush: true })).rejects.toThrow('killed');
  await first.close();
  copyFileSync(log, `${log}.1`);
  truncateSync(log, 0);
  appendFileSync(log, records(4, 2));
  api.answer('done');
  const second = new AuditTailer({ path: log, stateFile, send: api.send, log: () => {} });
  await drain(second);
  expect(api.calls[1]).toBe(api.calls[0]);
  expect(ids(api.lines())).toEqual(expected(0, 6));
  await second.close();
});

test('no file yet: idle until ModSecurity creates it', async () => {
  const api = fakeApi();
  const tailer = new AuditTailer({ path: log, stateFile, send: api.send });
  expect(await tailer.step({ flush: true })).toBe('idle');
  writeFileSync(log, records(0, 1));
  await drain(tailer);
  expect(ids(api.lines())).toEqual(['r0']);
  await tailer.close();
});

test('run() ships as lines arrive and stops when aborted', async () => {
  const api = fakeApi();
  const tailer = new AuditTailer({ path: log, stateFile, send: api.send, batchMs: 50, pollMs: 20 });
  const stop = new AbortController();
  const running = tailer.run(stop.signal);
  writeFileSync(log, records(0, 3));
  for (let i = 0; i < 100 && api.lines().length < 3; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  appendFileSync(log, records(3, 2));
  for (let i = 0; i < 100 && api.lines().length < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  stop.abort();
  await running;
  expect(ids(api.lines())).toEqual(expected(0, 5));
});
