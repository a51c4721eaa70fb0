/**
 * Runs FTW tests against one WAF: each stage's bytes over a raw TCP socket, a marker request before the first stage
 * and after every stage, and the stage judged on its response and on the error-log lines between its markers.
 */
import { randomUUID } from 'node:crypto';
import { open } from 'node:fs/promises';
import { connect } from 'node:net';
import type { FtwStage, FtwTest, StageOutput } from './ftw.ts';
import { markerPrefix, type Waf } from './wafs.ts';

/** What one request got back: the status and bytes, or the error FTW would raise. */
export type Answer = { status: number | null; text: string; error: string | null };

/** A test's result: passed, or why not (the first failing stage). */
export type TestResult = { file: string; title: string; passed: boolean; reason: string | null };

/** Whether a response in `data` is complete (headers, then Content-Length bytes or the last chunk). */
function complete(data: Buffer, head: boolean): boolean {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const headers = data.subarray(0, end).toString('latin1');
  const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(headers)?.[1] ?? 0);
  if (status >= 100 && status < 200) return complete(data.subarray(end + 4), head);
  if (head || status === 204 || status === 304) return true;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(headers)?.[1];
  if (length !== undefined) return data.length >= end + 4 + Number(length);
  if (/\r\ntransfer-encoding:\s*chunked/i.test(headers)) return data.subarray(end + 4).includes('\r\n0\r\n\r\n');
  return false;
}

/** Sends `request` as it is and reads the answer until it is complete, the server closes, or `timeoutMs`. */
export function send(port: number, request: Buffer, timeoutMs = 3000): Promise<Answer> {
  const head = /^HEAD /.test(request.subarray(0, 5).toString('latin1'));
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let data = Buffer.alloc(0);
    let settled = false;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      // The final status: interim 1xx answers skipped.
      const statuses = [...data.toString('latin1').matchAll(/(?:^|\r\n\r\n)HTTP\/\d\.\d (\d{3})/g)].map((m) =>
        Number(m[1]),
      );
      const status = statuses.find((code) => code >= 200) ?? statuses[0] ?? null;
      if (data.length === 0) resolve({ status: null, text: '', error: error ?? 'no response' });
      else if (status === null) resolve({ status: null, text: data.toString('latin1'), error: 'no status line' });
      else resolve({ status, text: data.toString('latin1'), error: null });
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (complete(data, head)) finish(null);
    });
    socket.on('end', () => finish(null));
    socket.on('error', (error) => finish(error.message));
  });
}

/** Reads what the error log gained since the last call. */
export function logReader(path: string): () => Promise<string> {
  let offset = 0;
  return async () => {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      if (size < offset) offset = 0;
      const buffer = Buffer.alloc(size - offset);
      await file.read(buffer, 0, buffer.length, offset);
      offset = size;
      return buffer.toString('latin1');
    } finally {
      await file.close();
    }
  };
}

/** A Python regex (as the tests write them) in JavaScript; null when JavaScript cannot read it. */
function pattern(source: string): RegExp | null {
  try {
    return new RegExp(source.replace(/\(\?P</g, '(?<').replace(/\\Z/g, '$'));
  } catch {
    return null;
  }
}

/** Why a stage failed, or null when it passed. */
export function judge(output: StageOutput, answer: Answer, logLines: string[]): string | null {
  if (output.expectError) return answer.error === null ? `expected an error, got status ${answer.status}` : null;
  if (answer.error !== null) return `request failed: ${answer.error}`;
  if (output.status && !output.status.includes(answer.status ?? -1)) {
    return `status ${answer.status}, expected ${output.status.join(' or ')}`;
  }
  if (output.responseContains !== undefined) {
    const regex = pattern(output.responseContains);
    if (!regex?.test(answer.text)) return `response lacks /${output.responseContains}/`;
  }
  if (output.logContains !== undefined) {
    const regex = pattern(output.logContains);
    if (!logLines.some((line) => regex?.test(line))) return `log lacks /${output.logContains}/`;
  }
  if (output.noLogContains !== undefined) {
    const regex = pattern(output.noLogContains);
    const line = logLines.find((entry) => regex?.test(entry));
    if (line !== undefined) return `log has /${output.noLogContains}/`;
  }
  return null;
}

function markerRequest(id: string): Buffer {
  return Buffer.from(`GET ${markerPrefix}${id} HTTP/1.1\r\nHost: localhost\r\nUser-Agent: crs-regression\r\n\r\n`);
}

/** Sends a marker and waits until its log line is there; returns the log text up to and including that line. */
async function mark(waf: Waf, read: () => Promise<string>, pending: { text: string }): Promise<string> {
  const id = randomUUID();
  await send(waf.port, markerRequest(id));
  const needle = `${markerPrefix}${id}`;
  for (let waited = 0; waited < 5000; waited += 10) {
    pending.text += await read();
    const at = pending.text.indexOf(needle);
    if (at >= 0) {
      const lineEnd = pending.text.indexOf('\n', at);
      const cut = lineEnd < 0 ? pending.text.length : lineEnd + 1;
      const before = pending.text.slice(0, cut);
      pending.text = pending.text.slice(cut);
      return before;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`marker ${id} never reached ${waf.errorLog}`);
}

/** The log lines of one stage: the text before the end marker's line, without marker lines. */
function stageLines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '' && !line.includes(markerPrefix));
}

async function runStage(waf: Waf, stage: FtwStage, read: () => Promise<string>, pending: { text: string }) {
  const answer = await send(waf.port, stage.request);
  const lines = stageLines(await mark(waf, read, pending));
  return judge(stage.output, answer, lines);
}

/** Runs `tests` one after another against `waf`; `onResult` hears each result as it comes. */
export async function runTests(
  waf: Waf,
  tests: readonly FtwTest[],
  onResult: (result: TestResult) => void = () => {},
): Promise<TestResult[]> {
  const read = logReader(waf.errorLog);
  const pending = { text: '' };
  await mark(waf, read, pending);
  const results: TestResult[] = [];
  for (const test of tests) {
    let reason: string | null = null;
    for (const [index, stage] of test.stages.entries()) {
      const failed = await runStage(waf, stage, read, pending);
      if (failed !== null && reason === null)
        reason = test.stages.length > 1 ? `stage ${index + 1}: ${failed}` : failed;
    }
    const result = { file: test.file, title: test.title, passed: reason === null, reason };
    results.push(result);
    onResult(result);
  }
  return results;
}
