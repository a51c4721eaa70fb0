/**
 * The configuration loop with the real nginx and module, against a stand-in API over HTTP: the 503 page first, a
 * version applied, one that fails nginx -t reported with its message while the last good one serves, --upstream,
 * a restart that serves the last version at once even with the API down, and nothing left running.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { ConnectorConfig } from '../../contract/firewalls.ts';
import { ConnectorApi, type StatusReport } from './api-client.ts';
import { ConfigLoop } from './config-loop.ts';
import { findCrs, findModule, parseListen } from './nginx-conf.ts';
import { findNginx, isNginx, PrivateNginx } from './private-nginx.ts';
import { prepareStateDir, stateLayout } from './state-dir.ts';
import { freePort, rawGet } from './test-http.ts';
import type { VersionHost } from './version-folder.ts';

vi.setConfig({ testTimeout: 30_000 });

const dir = mkdtempSync(join(tmpdir(), 'sg-loop-'));
const layout = stateLayout(dir);
const firewallId = '00000000-0000-4000-8000-000000000001';
let upstream: Server;
let fakeApi: Server;
let apiUrl = '';
let host: VersionHost;
const printed: string[] = [];
const reports: StatusReport[] = [];
const seen = new Set<number>();

/** The stand-in API's newest version and the long polls waiting for a newer one. */
let newest: ConnectorConfig | null = null;
let waiting: Array<() => void> = [];

/** A version as the compiler lays one out: http.conf, server.conf (proxying to a port --upstream replaces), modsecurity.conf. */
function version(n: number, rules: string): ConnectorConfig {
  const files = {
    'http.conf': `# version ${n}\n`,
    'server.conf': 'modsecurity on;\nlocation / {\n    proxy_pass http://127.0.0.1:9;\n}\n',
    'modsecurity.conf': `SecRuleEngine On\nInclude host.conf\nSecAuditEngine RelevantOnly\nSecAuditLogFormat JSON\nSecAuditLogType Serial\n${rules}\n`,
  };
  return { firewallId, version: n, hash: `${String(n).padStart(4, '0')}${'a'.repeat(60)}`, files };
}

function publish(config: ConnectorConfig): void {
  newest = config;
  for (const wake of waiting) wake();
  waiting = [];
}

function body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => resolve(text));
  });
}

/** Answers the connector's calls like the API: ETag, 304, `wait`, status reports. */
async function answer(request: IncomingMessage, response: import('node:http').ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://api');
  if (request.headers.authorization !== 'Bearer test-token-123') {
    response.writeHead(401).end('{"error":{"message":"Unknown or rotated firewall token."}}');
    return;
  }
  if (url.pathname === '/api/connector/status') {
    reports.push(JSON.parse(await body(request)) as StatusReport);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    return;
  }
  const has = (request.headers['if-none-match'] ?? '').replaceAll('"', '');
  const wait = Number(url.searchParams.get('wait') ?? 0);
  if (newest && has === newest.hash && wait > 0) {
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      setTimeout(resolve, wait * 1000);
    });
  }
  if (!newest || has === newest.hash) {
    response.writeHead(304).end();
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json', etag: `"${newest.hash}"` }).end(JSON.stringify(newest));
}

function newLoop(api: string): { loop: ConfigLoop; nginx: PrivateNginx } {
  const nginx = new PrivateNginx({
    binary: findNginx(),
    prefix: layout.dir,
    errorLog: layout.errorLog,
    pidFile: layout.pidFile,
  });
  const loop = new ConfigLoop({
    api: new ConnectorApi(api, 'test-token-123'),
    nginx,
    host,
    pollSeconds: 0.2,
    waitSeconds: 5,
    print: (line) => printed.push(line),
    log: (line) => printed.push(line),
  });
  return { loop, nginx };
}

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  for (let waited = 0; !check(); waited += 50) {
    if (waited > ms) throw new Error(`timed out waiting for ${what}:\n${printed.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function remember(nginx: PrivateNginx): void {
  for (const pid of [nginx.pid, ...nginx.workers()]) if (pid) seen.add(pid);
}

beforeAll(async () => {
  upstream = createServer((request, response) => response.end(`app saw ${request.url}`));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  fakeApi = createServer((request, response) => void answer(request, response));
  await new Promise<void>((resolve) => fakeApi.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(fakeApi.address() as AddressInfo).port}`;
  const listen = parseListen(`127.0.0.1:${await freePort()}`);
  if (!listen) throw new Error('no listen address');
  host = {
    layout,
    module: findModule(),
    crsDir: findCrs(),
    listen,
    upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
  };
  prepareStateDir(layout);
});

afterAll(async () => {
  for (const pid of seen) if (isNginx(pid)) process.kill(pid, 'SIGKILL');
  fakeApi?.closeAllConnections();
  await new Promise((resolve) => fakeApi?.close(resolve));
  await new Promise((resolve) => upstream?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

test('503 until a first version; applied; a failing version reported while the last good one serves; restart', async () => {
  const port = host.listen.port;
  const { loop, nginx } = newLoop(apiUrl);
  expect(await loop.start()).toBeNull();
  remember(nginx);
  expect((await rawGet(port, '/')).status).toBe(503);

  // Version 1: applied and reported; requests reach the --upstream given instead of the version's own.
  const stop = new AbortController();
  const running = loop.run(stop.signal);
  publish(version(1, 'SecRule ARGS "@contains evil" "id:1001,phase:2,deny,status:403,log"'));
  await until(() => reports.some((r) => r.version === 1), 'version 1 reported');
  expect(reports.at(-1)).toEqual({ version: 1, state: 'applied' });
  expect(printed.some((line) => /^Applied version 1 \(0001aaaaaaaa\) in \d+ ms$/.test(line))).toBe(true);
  expect(await rawGet(port, '/a?b=c')).toEqual({ status: 200, body: 'app saw /a?b=c' });
  expect((await rawGet(port, '/?q=evil')).status).toBe(403);
  remember(nginx);

  // Version 2 fails nginx -t: reported with nginx's message; version 1 keeps serving.
  publish(version(2, 'SecNoSuchDirective On'));
  await until(() => reports.some((r) => r.version === 2), 'version 2 reported');
  expect(reports.at(-1)).toMatchObject({
    version: 2,
    state: 'failed',
    message: expect.stringMatching(/SecNoSuchDirective/),
  });
  expect(printed.some((line) => line.startsWith('Version 2 failed, still serving version 1'))).toBe(true);
  expect((await rawGet(port, '/?q=evil')).status).toBe(403);
  expect((await rawGet(port, '/a')).status).toBe(200);

  // Version 3 applies after the failure.
  publish(version(3, 'SecRule ARGS "@contains worse" "id:1003,phase:2,deny,status:403,log"'));
  await until(() => reports.some((r) => r.version === 3), 'version 3 reported');
  expect(reports.at(-1)).toEqual({ version: 3, state: 'applied' });
  expect((await rawGet(port, '/?q=worse')).status).toBe(403);
  expect((await rawGet(port, '/?q=evil')).status).toBe(200);
  remember(nginx);
  stop.abort();
  await running;
  await loop.stop();
  for (const pid of seen) expect(isNginx(pid)).toBe(false);

  // A restart with the API down serves version 3 at once, and keeps asking.
  const down = `http://127.0.0.1:${await freePort()}`;
  const again = newLoop(down);
  expect(await again.loop.start()).toEqual({ version: 3, hash: version(3, '').hash });
  remember(again.nginx);
  expect((await rawGet(port, '/?q=worse')).status).toBe(403);
  const stopAgain = new AbortController();
  const runningAgain = again.loop.run(stopAgain.signal);
  await until(() => printed.filter((line) => line.startsWith('config: ')).length >= 2, 'two failed polls');
  stopAgain.abort();
  await runningAgain;
  await again.loop.stop();
  for (const pid of seen) expect(isNginx(pid)).toBe(false);
});
