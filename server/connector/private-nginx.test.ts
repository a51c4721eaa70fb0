/** The private nginx with the real binary and ModSecurity module on a free port: start, proxy, -t, reload, stop. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { findModule, type Host, parseListen, quote, renderNginxConf, renderWaitingConf } from './nginx-conf.ts';
import { findNginx, isNginx, PrivateNginx } from './private-nginx.ts';
import { prepareStateDir, stateLayout } from './state-dir.ts';
import { freePort, rawGet } from './test-http.ts';
import { currentFolder, isSafeName, switchCurrent, writeVersion } from './versions.ts';

vi.setConfig({ testTimeout: 30_000 });

const dir = mkdtempSync(join(tmpdir(), 'sg-nginx-'));
const layout = stateLayout(dir);
let upstream: Server;
let upstreamPort = 0;
let host: Host;
let nginx: PrivateNginx;
/** Every nginx PID seen, checked gone at the end. */
const seen = new Set<number>();

/** A version's nginx part: a server proxying to the test's upstream through ModSecurity with one rule. */
function versionConf(folder: string, rule: string): string {
  writeFileSync(
    join(folder, 'files/rules.conf'),
    `SecRuleEngine On
SecAuditEngine RelevantOnly
SecAuditLogFormat JSON
SecAuditLogType Serial
SecAuditLogParts ABHZ
SecAuditLog ${layout.auditLog}
${rule}
`,
  );
  return renderNginxConf(
    host,
    `server {
  listen ${host.listen.text};
  modsecurity on;
  modsecurity_rules_file ${quote(join(folder, 'files/rules.conf'))};
  location / {
    proxy_pass http://127.0.0.1:${upstreamPort};
  }
}`,
  );
}

function get(path: string): Promise<{ status: number; body: string }> {
  return rawGet(host.listen.port, path);
}

function remember(): void {
  for (const pid of [nginx.pid, ...nginx.workers()]) if (pid) seen.add(pid);
}

beforeAll(async () => {
  upstream = createServer((request, response) => response.end(`upstream saw ${request.url}`));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const address = upstream.address();
  upstreamPort = typeof address === 'object' && address ? address.port : 0;
  const listen = parseListen(`127.0.0.1:${await freePort()}`);
  if (!listen) throw new Error('no listen address');
  host = { layout, module: findModule(), listen };
  prepareStateDir(layout);
  nginx = new PrivateNginx({
    binary: findNginx(),
    prefix: layout.dir,
    errorLog: layout.errorLog,
    pidFile: layout.pidFile,
  });
});

afterAll(async () => {
  await nginx?.stop();
  for (const pid of seen) if (isNginx(pid)) process.kill(pid, 'SIGKILL');
  await new Promise((resolve) => upstream?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

test('serves the 503 page until a version applies, then proxies through ModSecurity; reloads; stops with no process left', async () => {
  // Waiting: the 503 page from the start.
  writeFileSync(join(layout.waiting, 'nginx.conf'), renderWaitingConf(host));
  switchCurrent(layout, layout.waiting);
  const currentConf = join(layout.current, 'nginx.conf');
  expect(await nginx.test(currentConf)).toEqual({ ok: true });
  await nginx.start(currentConf);
  await nginx.waitListening(host.listen.host, host.listen.port);
  remember();
  const waiting = await get('/');
  expect(waiting.status).toBe(503);
  expect(waiting.body).toContain('no configuration yet');
  expect(readFileSync(layout.pidFile, 'utf8').trim()).toBe(String(nginx.pid));

  // Version 1: tested, switched, reloaded; requests reach the upstream and the rule blocks.
  const one = writeVersion(layout, 1, { 'rules.conf': '' });
  writeFileSync(
    join(one, 'nginx.conf'),
    versionConf(one, 'SecRule ARGS "@contains evil" "id:1001,phase:2,deny,status:403,log"'),
  );
  expect(await nginx.test(join(one, 'nginx.conf'))).toEqual({ ok: true });
  const master = nginx.pid;
  switchCurrent(layout, one);
  await nginx.reload();
  remember();
  expect(nginx.pid).toBe(master);
  expect(currentFolder(layout)).toBe(one);
  expect(await get('/hello?x=1')).toEqual({ status: 200, body: 'upstream saw /hello?x=1' });
  expect((await get('/?a=evil')).status).toBe(403);
  // ModSecurity writes the record in the log phase, which can end after the answer reached us.
  await vi.waitFor(() => {
    const audit = readFileSync(layout.auditLog, 'utf8').trim().split('\n');
    expect(JSON.parse(audit.at(-1) || '{}')).toMatchObject({ transaction: { request: { uri: '/?a=evil' } } });
  });

  // Version 2 does not pass nginx -t: the message names the fault, version 1 keeps serving.
  const two = writeVersion(layout, 2, { 'rules.conf': '' });
  writeFileSync(join(two, 'nginx.conf'), versionConf(two, 'SecNoSuchDirective On'));
  const failed = await nginx.test(join(two, 'nginx.conf'));
  expect(failed.ok).toBe(false);
  expect(failed.ok ? '' : failed.message).toMatch(/rules\.conf\. Line: 7.*SecNoSuchDirective/s);
  expect(currentFolder(layout)).toBe(one);
  expect((await get('/?a=evil')).status).toBe(403);

  // Stop: the master and every worker are gone, by PID.
  expect(seen.size).toBeGreaterThan(1);
  await nginx.stop();
  expect(nginx.pid).toBeNull();
  for (const pid of seen) expect(isNginx(pid)).toBe(false);
  await expect(get('/')).rejects.toThrow();
});

test('an nginx left running by a killed connector is stopped before a new one starts on the same state dir', async () => {
  const currentConf = join(layout.current, 'nginx.conf');
  const first = new PrivateNginx(nginx.paths);
  await first.start(currentConf);
  const orphan = first.pid;
  const orphanWorkers = first.workers();
  expect(orphan).not.toBeNull();
  // A second connector on the same state dir (the first one "killed"): it takes over the port.
  nginx = new PrivateNginx(nginx.paths);
  await nginx.start(currentConf);
  remember();
  await nginx.waitListening(host.listen.host, host.listen.port);
  expect(orphan !== null && isNginx(orphan)).toBe(false);
  for (const pid of orphanWorkers) expect(isNginx(pid)).toBe(false);
  expect((await get('/x')).status).toBe(200);
  await nginx.stop();
  for (const pid of seen) expect(isNginx(pid)).toBe(false);
});

test.each([
  { name: 'rules.conf', expected: true },
  { name: 'crs/setup.conf', expected: true },
  { name: '../escape.conf', expected: false },
  { name: '/etc/passwd', expected: false },
  { name: 'a/../../b', expected: false },
  { name: './a', expected: false },
  { name: '', expected: false },
])('isSafeName($name) is $expected', ({ name, expected }) => {
  expect(isSafeName(name)).toBe(expected);
});

test.each([
  { value: '127.0.0.1:8080', expected: { host: '127.0.0.1', port: 8080 } },
  { value: '[::1]:8443', expected: { host: '::1', port: 8443 } },
  { value: 'localhost:80', expected: { host: 'localhost', port: 80 } },
  { value: '8080', expected: null },
  { value: '127.0.0.1:70000', expected: null },
  { value: '127.0.0.1:80; evil', expected: null },
])('parseListen($value) is $expected', ({ value, expected }) => {
  const parsed = parseListen(value);
  expect(parsed ? { host: parsed.host, port: parsed.port } : null).toEqual(expected);
});
