/**
 * The FTW (Framework for Testing WAFs) YAML test files of the OWASP CRS, read and turned into the bytes FTW 1.3 sends:
 * `METHOD URI VERSION`, the headers in their order, and the data with FTW's magic (form data re-encoded, a default
 * Content-Type and a Content-Length counted in characters, unless `stop_magic`); `raw_request` with its backslash
 * escapes read as Python's `unicode_escape` does, `encoded_request` as base64, both sent verbatim.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';

/** What a stage expects; every field is optional, as in FTW. */
export type StageOutput = {
  /** Allowed response statuses. */
  status?: number[];
  /** A regex that must match one of the request's log lines. */
  logContains?: string;
  /** A regex that must match none of the request's log lines. */
  noLogContains?: string;
  /** A regex that must match the response. */
  responseContains?: string;
  /** True when the request is expected to fail (no answer). */
  expectError?: boolean;
};

/** One request of a test and what it expects. */
export type FtwStage = { request: Buffer; output: StageOutput };

/** One test of a file (`test_title`), its stages in order. */
export type FtwTest = { file: string; title: string; stages: FtwStage[] };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Python's `str()` of a YAML scalar (FTW writes header values with it). */
function pyStr(value: Json | undefined): string {
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null || value === undefined) return 'None';
  return String(value);
}

/** Python's `urllib.parse.quote_plus` with `safe=''`: UTF-8 bytes, unreserved kept, space as `+`. */
function quotePlus(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9_.~-]/.test(char)) out += char;
    else if (byte === 0x20) out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Python's `urllib.parse.unquote` (invalid UTF-8 replaced). */
function unquote(text: string): string {
  if (!text.includes('%')) return text;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '%' && /^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i] as string, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** FTW's re-encoding of form data: `urlencode(parse_qsl(data))` (blank values and names without `=` dropped). */
function reencodeForm(data: string): string {
  const pairs: [string, string][] = [];
  for (const part of data.split('&')) {
    if (part === '') continue;
    const at = part.indexOf('=');
    if (at < 0) continue;
    const value = part.slice(at + 1);
    if (value === '') continue;
    pairs.push([unquote(part.slice(0, at).replaceAll('+', ' ')), unquote(value.replaceAll('+', ' '))]);
  }
  if (pairs.length === 0) return data;
  return pairs.map(([name, value]) => `${quotePlus(name)}=${quotePlus(value)}`).join('&');
}

/** Python's `bytes.decode('unicode_escape')`, then `.encode('utf-8')`: what FTW sends for a `raw_request`. */
export function unicodeEscape(raw: string): Buffer {
  const bytes = Buffer.from(raw, 'utf8');
  let text = '';
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    if (byte !== 0x5c || i + 1 >= bytes.length) {
      text += String.fromCharCode(byte);
      continue;
    }
    const next = String.fromCharCode(bytes[i + 1] as number);
    const simple: Record<string, string> = {
      '\\': '\\',
      "'": "'",
      '"': '"',
      a: '\x07',
      b: '\b',
      f: '\f',
      n: '\n',
      r: '\r',
      t: '\t',
      v: '\v',
      '\n': '',
    };
    const ascii = (from: number, length: number) =>
      String.fromCharCode(...bytes.subarray(from, Math.min(bytes.length, from + length)));
    if (next in simple) {
      text += simple[next];
      i += 1;
    } else if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(ascii(i + 2, 2))) {
      text += String.fromCharCode(Number.parseInt(ascii(i + 2, 2), 16));
      i += 3;
    } else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(ascii(i + 2, 4))) {
      text += String.fromCharCode(Number.parseInt(ascii(i + 2, 4), 16));
      i += 5;
    } else if (/[0-7]/.test(next)) {
      const octal = /^[0-7]{1,3}/.exec(ascii(i + 1, 3))?.[0] ?? '0';
      text += String.fromCharCode(Number.parseInt(octal, 8) & 0xff);
      i += octal.length;
    } else {
      text += '\\';
    }
  }
  return Buffer.from(text, 'utf8');
}

/** The bytes FTW 1.3 sends for one stage input. */
export function buildRequest(input: JsonObject): Buffer {
  if (typeof input.encoded_request === 'string') return Buffer.from(input.encoded_request, 'base64');
  if (typeof input.raw_request === 'string') return unicodeEscape(input.raw_request);
  const method = input.method === undefined ? 'GET' : pyStr(input.method);
  const uri = input.uri === undefined ? '/' : pyStr(input.uri);
  const version = input.version === undefined ? 'HTTP/1.1' : pyStr(input.version);
  const stopMagic = input.stop_magic === true;
  const headers: [string, string][] = isObject(input.headers)
    ? Object.entries(input.headers).map(([name, value]) => [name, pyStr(value)])
    : [];
  let data = '';
  if (Array.isArray(input.data)) data = input.data.map(pyStr).join('\r\n');
  else if (input.data !== undefined && input.data !== null) data = pyStr(input.data);
  const header = (name: string) => headers.find(([key]) => key === name);
  if (data !== '') {
    if (!header('Content-Type') && !stopMagic) headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
    if (header('Content-Type')?.[1] === 'application/x-www-form-urlencoded' && !stopMagic && unquote(data) === data) {
      data = reencodeForm(data);
    }
    // Python's len(): characters (code points), not bytes.
    if (!header('Content-Length') && !stopMagic) headers.push(['Content-Length', String([...data].length)]);
  }
  const text = `${method} ${uri} ${version}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${data}`;
  return Buffer.from(text, 'utf8');
}

function outputOf(output: Json | undefined): StageOutput {
  const result: StageOutput = {};
  if (!isObject(output)) return result;
  if (typeof output.status === 'number') result.status = [output.status];
  if (Array.isArray(output.status)) result.status = output.status.map(Number);
  if (typeof output.log_contains === 'string') result.logContains = output.log_contains;
  if (typeof output.no_log_contains === 'string') result.noLogContains = output.no_log_contains;
  if (typeof output.response_contains === 'string') result.responseContains = output.response_contains;
  if (output.expect_error) result.expectError = true;
  return result;
}

/** The tests of one YAML file (none when its `meta.enabled` is false, as FTW does); `file` is named relative to `root`. */
export function parseTestFile(text: string, file: string): FtwTest[] {
  const doc = parse(text, { version: '1.1', uniqueKeys: false }) as Json;
  if (!isObject(doc) || !isObject(doc.meta) || doc.meta.enabled === false || !Array.isArray(doc.tests)) return [];
  const tests: FtwTest[] = [];
  for (const test of doc.tests) {
    if (!isObject(test) || test.enabled === false || !Array.isArray(test.stages)) continue;
    const stages = test.stages.map((entry) => {
      const stage = isObject(entry) && isObject(entry.stage) ? entry.stage : entry;
      const input = isObject(stage) && isObject(stage.input) ? stage.input : {};
      return { request: buildRequest(input), output: outputOf(isObject(stage) ? stage.output : undefined) };
    });
    tests.push({ file, title: pyStr(test.test_title), stages });
  }
  return tests;
}

/** Every `*.yaml` under `dir` (or only those named in `only`, relative to `dir`), sorted, parsed. */
export function loadTests(dir: string, only?: readonly string[]): FtwTest[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ya?ml$/.test(name)) files.push(path);
    }
  };
  if (only) files.push(...[...only].sort().map((name) => join(dir, name)));
  else walk(dir);
  return files.flatMap((path) => parseTestFile(readFileSync(path, 'utf8'), relative(dir, path)));
}
