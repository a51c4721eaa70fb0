import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { BatchFormatError, parseBatch, splitBatch } from './parse-batch.ts';
import { parseGeneric } from './parse-generic.ts';
import { parseAsctime, parseModSecurity } from './parse-modsecurity.ts';
import { parseSyslog } from './parse-syslog.ts';

/** Records written by nginx 1.22 + libmodsecurity 3.0.9 + OWASP CRS 3.3.4 (Debian 12), see fixtures/generate.sh. */
function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));
}
const now = new Date('2026-11-22T00:00:00Z');

describe('ModSecurity v3 JSON audit records from a real nginx', () => {
  test.each([
    {
      name: 'sqli',
      rule: 942100,
      message: 'SQL Injection Attack Detected via libinjection',
      path: '/products?id=1%27%20or%201=1--',
    },
    {
      name: 'xss',
      rule: 941100,
      message: 'XSS Attack Detected via libinjection',
      path: '/search?q=%3Cscript%3Ealert(1)%3C/script%3E',
    },
    {
      name: 'traversal',
      rule: 930100,
      message: 'Path Traversal Attack (/../)',
      path: '/download?file=../../../../etc/passwd',
    },
    { name: 'rce', rule: 932160, message: null, path: '/ping?host=127.0.0.1;cat%20/etc/passwd' },
    {
      name: 'scanner',
      rule: 913100,
      message: 'Found User-Agent associated with security scanner',
      path: '/index.php?id=1',
    },
  ])('$name is blocked with rule $rule', ({ name, rule, message, path }) => {
    const result = parseModSecurity(fixture(name));
    if (!result.ok) throw new Error(result.message);
    const e = result.event;
    expect(e).toMatchObject({
      action: 'blocked',
      severity: 'critical',
      status: 403,
      method: 'GET',
      host: 'shop.example.com',
      path,
      ip: '127.0.0.1',
      country: null,
    });
    expect(e.ruleIds).toContain(rule);
    expect(e.ruleIds).toContain(949110);
    expect(e.ruleIds.every(Number.isInteger)).toBe(true);
    // The first attack message, never the anomaly score summary.
    expect(e.message).not.toMatch(/Anomaly Score Exceeded/);
    if (message) expect(e.message).toBe(message);
    expect(e.userAgent).toBeTruthy();
    expect(e.dedupKey).toMatch(/\d/);
    expect(Number.isNaN(Date.parse(e.time))).toBe(false);
    expect(e.raw).toEqual(fixture(name));
  });

  test('CRS tags are kept', () => {
    const xss = parseModSecurity(fixture('xss'));
    const rce = parseModSecurity(fixture('rce'));
    expect(xss.ok && xss.event.tags).toContain('attack-xss');
    expect(rce.ok && rce.event.tags).toContain('attack-rce');
  });

  test("the anomaly verdict's attack-generic tag is not an attack category of its own", () => {
    for (const name of ['sqli', 'xss', 'traversal', 'scanner']) {
      const result = parseModSecurity(fixture(name));
      if (!result.ok) throw new Error(result.message);
      expect(result.event.ruleIds).toContain(949110);
      expect(result.event.tags).not.toContain('attack-generic');
    }
  });

  test('a clean request is allowed with severity info', () => {
    const result = parseModSecurity(fixture('clean'));
    expect(result.ok && result.event).toMatchObject({
      action: 'allowed',
      severity: 'info',
      status: 200,
      ruleIds: [],
      message: null,
    });
  });

  test('the engine in detection only: rules matched, 200, logged', () => {
    const result = parseModSecurity(fixture('sqli-detect'));
    expect(result.ok && result.event).toMatchObject({
      action: 'logged',
      status: 200,
      severity: 'critical',
      ruleIds: [942100, 949110],
      message: 'SQL Injection Attack Detected via libinjection',
    });
  });

  test('a firewall id added by the connector is kept', () => {
    const record = { ...(fixture('sqli') as object), firewallId: '7b0c6c55-7a7e-4f59-9d9e-2c8c2b7b0c11' };
    const result = parseModSecurity(record);
    expect(result.ok && result.event.firewallId).toBe('7b0c6c55-7a7e-4f59-9d9e-2c8c2b7b0c11');
    const bad = parseModSecurity({ ...(fixture('sqli') as object), firewallId: 'fw-1' });
    expect(bad.ok).toBe(false);
  });

  test('rules matched without blocking are logged; severity is the highest', () => {
    const record = fixture('xss') as {
      transaction: { response: { http_code: number }; messages: { details: { severity: string; ruleId: string } }[] };
    };
    record.transaction.response.http_code = 200;
    for (const m of record.transaction.messages) m.details.severity = m.details.ruleId === '941110' ? '3' : '4';
    const result = parseModSecurity(record);
    expect(result.ok && result.event).toMatchObject({ action: 'logged', severity: 'high' });
  });

  test('anomaly rule with another 4xx still blocks', () => {
    const record = fixture('sqli') as { transaction: { response: { http_code: number } } };
    record.transaction.response.http_code = 406;
    const result = parseModSecurity(record);
    expect(result.ok && result.event.action).toBe('blocked');
  });

  test.each([
    ['Sat Nov 21 22:39:27 2026', '2026-11-21T22:39:27.000Z'],
    ['Sun Nov  1 02:03:04 2026', '2026-11-01T02:03:04.000Z'],
    ['Sat Feb 31 22:39:27 2026', null],
    ['2026-11-21T22:39:27Z', null],
  ])('asctime %s → %s', (input, expected) => {
    expect(parseAsctime(input)?.toISOString() ?? null).toBe(expected);
  });

  test.each([
    [[], 'Expected a JSON object.'],
    [{ foo: 1 }, 'no "transaction" object'],
    [{ transaction: {} }, 'time_stamp is required'],
    [{ transaction: { time_stamp: 'yesterday' } }, 'not an asctime date'],
    [
      { transaction: { time_stamp: 'Sat Nov 21 22:39:27 2026', response: { http_code: 'x' } } },
      'http_code must be an HTTP status',
    ],
    [{ transaction: { time_stamp: 'Sat Nov 21 22:39:27 2026', messages: {} } }, 'messages must be an array'],
    [
      { transaction: { time_stamp: 'Sat Nov 21 22:39:27 2026', messages: [{ details: { ruleId: 'abc' } }] } },
      'ruleId must be a rule number',
    ],
    [
      { transaction: { time_stamp: 'Sat Nov 21 22:39:27 2026', messages: [{ details: { severity: '9' } }] } },
      'severity must be 0 to 7',
    ],
  ])('bad record %j: %s', (input, reason) => {
    const result = parseModSecurity(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(reason);
  });
});

describe('generic events', () => {
  test('maps every field and keeps unknown ones in raw', () => {
    const input = {
      time: '2026-11-21T10:00:00+01:00',
      id: 'evt-1',
      ip: '81.2.69.142',
      method: 'post',
      host: 'api.example.com',
      path: '/login',
      status: 401,
      action: 'blocked',
      severity: 'high',
      ruleIds: [942100],
      tags: ['attack-sqli'],
      message: 'SQLi',
      userAgent: 'curl/8',
      firewallId: '7b0c6c55-7a7e-4f59-9d9e-2c8c2b7b0c11',
      team: 'red',
    };
    const result = parseGeneric(input);
    expect(result.ok && result.event).toEqual({
      time: '2026-11-21T09:00:00.000Z',
      dedupKey: 'evt-1',
      ip: '81.2.69.142',
      country: 'GB',
      method: 'POST',
      host: 'api.example.com',
      path: '/login',
      status: 401,
      action: 'blocked',
      severity: 'high',
      ruleIds: [942100],
      tags: ['attack-sqli'],
      message: 'SQLi',
      userAgent: 'curl/8',
      firewallId: '7b0c6c55-7a7e-4f59-9d9e-2c8c2b7b0c11',
      raw: input,
    });
  });

  test('only time is required; defaults are logged and info', () => {
    const result = parseGeneric({ time: '2026-11-21T10:00:00Z' });
    expect(result.ok && result.event).toMatchObject({
      action: 'logged',
      severity: 'info',
      ruleIds: [],
      tags: [],
      ip: null,
      country: null,
    });
  });

  test.each([
    ['a string', '"hello"', 'Expected a JSON object.'],
    ['an array', '[1]', 'Expected a JSON object.'],
    ['no time', {}, 'time: is required'],
    ['a bad time', { time: '21/11/2026' }, 'RFC 3339'],
    ['a bad action', { time: '2026-11-21T10:00:00Z', action: 'denied' }, 'action'],
    ['a bad severity', { time: '2026-11-21T10:00:00Z', severity: 'urgent' }, 'severity'],
    ['a text status', { time: '2026-11-21T10:00:00Z', status: '200' }, 'status'],
    ['text rule ids', { time: '2026-11-21T10:00:00Z', ruleIds: ['942100'] }, 'ruleIds.0'],
    ['a bad firewall id', { time: '2026-11-21T10:00:00Z', firewallId: 'fw-1' }, 'firewallId'],
  ])('refuses %s', (_label, input, reason) => {
    const result = parseGeneric(typeof input === 'string' ? JSON.parse(input) : input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(reason);
  });
});

describe('RFC 5424 syslog', () => {
  test('header, structured data and message', () => {
    const line =
      '<34>1 2026-11-21T22:14:15.003Z web-1.example.com nginx 2291 ID47 [exampleSDID@32473 iut="3" eventSource="App\\"lication"] BOMAn application event';
    const result = parseSyslog(line.replace('BOM', '\uFEFF'), now);
    if (!result.ok) throw new Error(result.message);
    expect(result.event).toMatchObject({
      time: '2026-11-21T22:14:15.003Z',
      host: 'web-1.example.com',
      severity: 'critical',
      action: 'logged',
      message: 'An application event',
    });
    expect(result.event.raw).toMatchObject({
      appName: 'nginx',
      procId: '2291',
      msgId: 'ID47',
      structuredData: { 'exampleSDID@32473': { iut: '3', eventSource: 'App"lication' } },
    });
  });

  test.each([
    [3, 'high'],
    [12, 'medium'],
    [13, 'low'],
    [14, 'info'],
    [191, 'info'],
  ])('PRI %i gives severity %s', (pri, severity) => {
    const result = parseSyslog(`<${pri}>1 2026-11-21T22:14:15Z host app - - - hello`, now);
    expect(result.ok && result.event.severity).toBe(severity);
  });

  test('nil timestamp means now; JSON in MSG adds generic fields', () => {
    const result = parseSyslog(
      '<36>1 - gw modsec - - - {"ip":"8.8.8.8","path":"/x","action":"blocked","ruleIds":[941100],"message":"XSS"}',
      now,
    );
    expect(result.ok && result.event).toMatchObject({
      time: now.toISOString(),
      ip: '8.8.8.8',
      country: 'US',
      path: '/x',
      action: 'blocked',
      ruleIds: [941100],
      message: 'XSS',
      severity: 'medium',
      host: 'gw',
    });
  });

  test.each([
    ['not syslog', 'hello world', 'Not an RFC 5424 syslog line'],
    ['BSD syslog (RFC 3164)', '<34>Oct 11 22:14:15 mymachine su: failed', 'Not an RFC 5424 syslog line'],
    ['PRI out of range', '<200>1 2026-11-21T22:14:15Z h a - - - m', 'PRI must be 0 to 191'],
    ['a bad timestamp', '<34>1 2026-11-21 h a - - - m', 'TIMESTAMP must be RFC 3339'],
    ['unclosed structured data', '<34>1 2026-11-21T22:14:15Z h a - - [id a="1" m', 'Bad STRUCTURED-DATA'],
    ['bad JSON fields in MSG', '<34>1 2026-11-21T22:14:15Z h a - - - {"status":"x"}', 'JSON in MSG: status'],
  ])('refuses %s', (_label, line, reason) => {
    const result = parseSyslog(line, now);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(reason);
  });
});

describe('batches', () => {
  test('NDJSON keeps line numbers across blank lines and reports bad JSON', () => {
    const body = `{"time":"2026-11-21T10:00:00Z"}\n\n{"time":\n{"time":"2026-11-21T10:00:01Z"}\r\n`;
    const results = parseBatch('json', body, now);
    expect(results.map((r) => [r.line, r.ok])).toEqual([
      [1, true],
      [3, false],
      [4, true],
    ]);
    expect(results[1]?.ok === false && results[1].message).toMatch(/^Not valid JSON/);
  });

  test('a JSON array is numbered by position; a json source recognises ModSecurity records', () => {
    const results = parseBatch('json', JSON.stringify([fixture('sqli'), { time: 'x' }]), now);
    expect(results.map((r) => [r.line, r.ok])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  test('a modsecurity source refuses generic events', () => {
    const [result] = parseBatch('modsecurity', '{"time":"2026-11-21T10:00:00Z"}', now);
    expect(result?.ok === false && result.message).toContain('no "transaction" object');
  });

  test('a broken JSON array is a batch error', () => {
    expect(() => splitBatch('[{"time": 1}')).toThrow(BatchFormatError);
  });

  test('syslog batches are lines of text, or a JSON array of strings', () => {
    const line = '<14>1 2026-11-21T22:14:15Z h a - - - m';
    expect(parseBatch('syslog', `${line}\n${line}`, now).every((r) => r.ok)).toBe(true);
    const [a, b] = parseBatch('syslog', JSON.stringify([line, 5]), now);
    expect(a?.ok).toBe(true);
    expect(b?.ok === false && b.message).toContain('JSON string');
  });
});
