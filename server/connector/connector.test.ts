/**
 * End to end: the API (in this process, on PGlite, served over HTTP), a firewall created through it, `npm run waf`'s
 * program as a child process with the real nginx, ModSecurity and CRS in front of a small upstream. A SQL injection
 * passes in detect mode and arrives as an event of that firewall; switched to block, it answers 403 within 10 s.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { spaces } from '../db/schema/spaces.ts';
import { createTestApi, type TestApi } from '../test/harness.ts';
import { isNginx, workersOf } from './private-nginx.ts';
import { freePort, rawGet } from './test-http.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const sqlInjection = "/?id=1'+OR+1=1--";
const stateDir = mkdtempSync(join(tmpdir(), 'sg-connector-'));
let t: TestApi;
let api: ReturnType<typeof serve>;
let upstream: Server;
let connector: ChildProcess | undefined;
let output = '';
let owner = '';
let spaceId = '';
let firewall = { id: '', token: '' };
let wafPort = 0;
let apiUrl = '';
/** nginx's master and workers, checked gone after the connector stops. */
const nginxPids = new Set<number>();

/** Starts `npm run waf`'s program as a child process on the test's state dir. */
function startConnector(): void {
  output = '';
  const args = ['--api', apiUrl, '--token', firewall.token, '--listen', `127.0.0.1:${wafPort}`];
  connector = spawn(
    process.execPath,
    ['server/connector/main.ts', ...args, '--state-dir', stateDir, '--poll-seconds', '1'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  connector.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  connector.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
}

/** The firewall's events with their raw records: the NDJSON export (the event page's rows leave `raw` out). */
async function firewallEvents(): Promise<Array<{ ruleIds: number[]; raw: { transaction?: { unique_id?: string } } }>> {
  const q = `firewall:${firewall.id}`;
  const file = await t.read(
    t.api(owner).spaces[':spaceId'].events.export.$get({ param: { spaceId }, query: { format: 'ndjson', q } }),
  );
  if (file.status !== 200) return [];
  return file.text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** Resolves once the connector has printed a line matching `pattern` (or throws with what it printed). */
async function waitForOutput(pattern: RegExp, ms = 30_000): Promise<void> {
  for (let waited = 0; !pattern.test(output); waited += 50) {
    if (waited > ms || connector?.exitCode !== null) {
      throw new Error(`the connector did not print ${pattern} (exit ${connector?.exitCode}):\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Exits of a child process, by PID: SIGTERM, then SIGKILL after 15 s. */
async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

function rememberNginx(): void {
  const pid = Number(readFileSync(join(stateDir, 'nginx.pid'), 'utf8').trim());
  if (pid > 0) {
    nginxPids.add(pid);
    for (const worker of workersOf(pid)) nginxPids.add(worker);
  }
}

beforeAll(async () => {
  // The application behind the WAF.
  upstream = createServer((request, response) => response.end(`app saw ${request.url}`));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

  // The API over HTTP, and a firewall in detect mode made through it.
  t = await createTestApi();
  const apiPort = await new Promise<number>((resolve) => {
    api = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port));
  });
  owner = (await t.signUp('owner@example.com', 'Olive')).cookie;
  spaceId = (await t.read(t.api(owner).spaces.$post({ json: { name: 'Edge' } }))).json.id;
  await t.db.update(spaces).set({ plan: 'business' }).where(eq(spaces.id, spaceId));
  const created = await t.read(
    t.api(owner).spaces[':spaceId'].firewalls.$post({
      param: { spaceId },
      json: { name: 'shop', hostnames: ['shop.example.com'], upstream: upstreamUrl, mode: 'detect' },
    }),
  );
  expect(created.status).toBe(201);
  firewall = { id: created.json.id, token: created.json.token };

  // The connector, as `npm run waf` starts it.
  apiUrl = `http://127.0.0.1:${apiPort}`;
  wafPort = await freePort();
  startConnector();
  await waitForOutput(/listening on http:\/\/127\.0\.0\.1:\d+/);
  await waitForOutput(/Applied version 1 /);
  rememberNginx();
});

afterAll(async () => {
  await stopChild(connector);
  for (const pid of nginxPids) if (isNginx(pid)) process.kill(pid, 'SIGKILL');
  await new Promise((resolve) => api?.close(resolve));
  await new Promise((resolve) => upstream?.close(resolve));
  await t?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

test('detect: a SQL injection passes and arrives as an event of the firewall, with rule 942100', async () => {
  expect(await rawGet(wafPort, '/shop?q=shoes')).toEqual({ status: 200, body: 'app saw /shop?q=shoes' });
  expect((await rawGet(wafPort, sqlInjection)).status).toBe(200);

  let found: { firewallId: string; ruleIds: number[]; path: string } | undefined;
  for (let waited = 0; !found && waited < 20_000; waited += 250) {
    const page = await t.read(
      t.api(owner).spaces[':spaceId'].events.$get({ param: { spaceId }, query: { q: `firewall:${firewall.id}` } }),
    );
    found = (page.json?.items ?? []).find((event: { ruleIds: number[] }) => event.ruleIds.includes(942100));
    if (!found) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(found).toMatchObject({ firewallId: firewall.id, ruleIds: expect.arrayContaining([942100]) });

  const status = await t.read(
    t.api(owner).spaces[':spaceId'].firewalls[':id'].$get({ param: { spaceId, id: firewall.id } }),
  );
  expect(status.json.connector).toMatchObject({ state: 'applied', appliedVersion: 1 });
});

test('block: switched through the API, the same request answers 403 within 10 s while a benign one answers 200', async () => {
  const saved = Date.now();
  const patched = await t.read(
    t
      .api(owner)
      .spaces[':spaceId'].firewalls[':id'].$patch({ param: { spaceId, id: firewall.id }, json: { mode: 'block' } }),
  );
  expect(patched.status).toBe(200);
  let blocked = 0;
  while (Date.now() - saved < 10_000) {
    blocked = (await rawGet(wafPort, sqlInjection)).status;
    if (blocked === 403) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const ms = Date.now() - saved;
  expect(blocked).toBe(403);
  expect(await rawGet(wafPort, '/shop?q=shoes')).toEqual({ status: 200, body: 'app saw /shop?q=shoes' });
  await waitForOutput(/Applied version 2 /);
  console.log(`save to blocking: ${ms} ms`);
  rememberNginx();
});

test('each save applies within seconds: time from the PATCH to the connector\'s "Applied version N"', async () => {
  const times: number[] = [];
  for (let i = 0; i < 10; i += 1) {
    const started = performance.now();
    const saved = await t.read(
      t.api(owner).spaces[':spaceId'].firewalls[':id'].$patch({
        param: { spaceId, id: firewall.id },
        json: { hostnames: ['shop.example.com', `s${i}.example.com`] },
      }),
    );
    expect(saved.status).toBe(200);
    await waitForOutput(new RegExp(`Applied version ${saved.json.version} `), 10_000);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)] ?? 0);
  console.log(`save to applied over ${times.length} saves: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms`);
  expect(at(0.95)).toBeLessThan(10_000);
});

test('kill -9 and a restart of the connector neither lose nor duplicate audit events', async () => {
  const killed = connector;
  await new Promise((resolve) => {
    killed?.once('exit', resolve);
    killed?.kill('SIGKILL');
  });
  // nginx outlives its killed connector and keeps writing the audit log.
  for (let i = 0; i < 3; i += 1) expect((await rawGet(wafPort, `${sqlInjection}&n=${i}`)).status).toBe(403);
  startConnector();
  await waitForOutput(/listening on http:\/\/127\.0\.0\.1:\d+ .*serving version \d+/);
  rememberNginx();
  expect((await rawGet(wafPort, sqlInjection)).status).toBe(403);

  // Every audit record arrives once: as many events as lines, each unique_id once.
  const lines = () => readFileSync(join(stateDir, 'logs/audit.log'), 'utf8').trim().split('\n').length;
  for (let waited = 0; (await firewallEvents()).length < lines() && waited < 20_000; waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const events = await firewallEvents();
  expect(lines()).toBeGreaterThanOrEqual(5);
  expect(events.length).toBe(lines());
  expect(new Set(events.map((event) => event.raw.transaction?.unique_id)).size).toBe(events.length);
});

test('SIGTERM stops nginx (master and workers, by PID) and the connector', async () => {
  await stopChild(connector);
  expect(connector?.exitCode).toBe(0);
  expect(output).toMatch(/Stopped/);
  expect(nginxPids.size).toBeGreaterThan(1);
  for (const pid of nginxPids) expect(isNginx(pid)).toBe(false);
});
