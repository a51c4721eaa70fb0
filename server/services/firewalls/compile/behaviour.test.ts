import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FirewallSettings } from '../../../../contract/firewall-settings.ts';
import { defaultFirewallSettings } from '../../../../contract/firewalls.ts';
import { rateLimitMeaning } from '../../../../contract/rate-limits.ts';
import { loadCrsCatalog } from '../engine/crs-catalog.ts';
import { layOutPrefix } from '../engine/nginx-check.ts';
import { compileFirewall } from './compile.ts';

// The compiled config on a real running nginx + ModSecurity + CRS (a private prefix, one process, no daemon), in front
// of a small upstream: what each setting does to real requests. The connector's suite does the end-to-end part.

type Answer = { status: number; body: string };

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

function send(port: number, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: body === undefined ? 'GET' : 'POST',
        headers: { Host: 'waf.example.com', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function settingsFor(mode: 'detect' | 'block', upstreamPort: number): FirewallSettings {
  return FirewallSettings.parse({
    ...defaultFirewallSettings,
    name: 'Behaviour',
    hostnames: ['waf.example.com'],
    upstream: `http://127.0.0.1:${upstreamPort}`,
    mode,
    ipAllow: [{ cidr: '198.51.100.7' }],
    ipDeny: [
      { cidr: '203.0.113.0/24' },
      { cidr: '2001:db8::1' },
      { cidr: '192.0.2.50', expiresAt: '2020-01-01T00:00:00Z' },
    ],
    countryBlock: ['VA'],
    exclusions: [{ ruleId: 4_200_000, path: '/excluded' }],
    customRules: [
      {
        id: 4_200_000,
        name: 'Evil header',
        enabled: true,
        action: 'block',
        conditions: [{ field: 'header', header: 'X-Evil', operator: 'equals', value: 'a"b%{tx.x}\\\'' }],
      },
      {
        id: 4_200_002,
        name: 'Private needs the token',
        enabled: true,
        action: 'block',
        conditions: [
          { field: 'path', operator: 'startsWith', value: '/private' },
          { field: 'header', header: 'X-Api-Token', operator: 'equals', value: 'secret', negate: true },
        ],
      },
      {
        id: 4_200_001,
        name: 'Trusted tool',
        enabled: true,
        action: 'allow',
        conditions: [{ field: 'userAgent', operator: 'startsWith', value: 'trusted-tool/' }],
      },
    ],
    rateLimits: [
      { path: '/login', requests: 3, windowSeconds: 60, action: 'block' },
      { path: '/refill', requests: 2, windowSeconds: 4, action: 'block' },
    ],
  });
}

async function startWaf(mode: 'detect' | 'block', upstreamPort: number) {
  const prefix = await mkdtemp(join(tmpdir(), 'spaceguard-waf-'));
  const port = await freePort();
  const compiled = compileFirewall({
    firewallId: '00000000-0000-4000-8000-00000000000b',
    settings: settingsFor(mode, upstreamPort),
    catalog: loadCrsCatalog(),
    now: new Date('2026-01-01T00:00:00Z'),
  });
  const laid = await layOutPrefix(prefix, compiled.files, { listen: `127.0.0.1:${port}` });
  const nginx: ChildProcess = spawn(
    existsNginx(),
    ['-p', `${prefix}/`, '-c', laid.conf, '-e', laid.errorLog, '-g', 'daemon off; master_process off;'],
    { stdio: 'ignore' },
  );
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await send(port, '/');
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    port,
    audit: async () => (await readFile(laid.auditLog, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean),
    stop: async () => {
      nginx.kill('SIGTERM');
      if (nginx.exitCode === null) await once(nginx, 'exit');
      await rm(prefix, { recursive: true, force: true });
    },
  };
}

type Waf = Awaited<ReturnType<typeof startWaf>>;

/** A WAF in one mode for the tests of a describe block: started before them, stopped after. */
function wafFor(mode: 'detect' | 'block', upstreamPort: () => number): { current: Waf } {
  const holder: { current: Waf } = { current: undefined as unknown as Waf };
  beforeAll(async () => {
    holder.current = await startWaf(mode, upstreamPort());
  });
  afterAll(async () => {
    await holder.current.stop();
  });
  return holder;
}

function existsNginx(): string {
  return process.env.NGINX_BIN ?? '/usr/sbin/nginx';
}

const sqli = `/?q=${encodeURIComponent("1' OR '1'='1' UNION SELECT password FROM users--")}`;

describe('compiled config on a running nginx', () => {
  let upstream: Server;
  let upstreamPort = 0;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end(`upstream saw ${req.method} ${req.url} from ${req.headers['x-real-ip'] ?? '?'}`);
    });
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    upstreamPort = (upstream.address() as AddressInfo).port;
  });

  afterAll(async () => {
    upstream.close();
  });

  describe('block mode', () => {
    const waf = wafFor('block', () => upstreamPort);

    test.each([
      ['a benign request reaches the upstream', '/', {}, 200],
      ['SQL injection is blocked by the CRS', sqli, {}, 403],
      ['a denied address behind the trusted proxy is blocked', '/', { 'X-Forwarded-For': '203.0.113.9' }, 403],
      ['a denied bare IPv6 address is blocked', '/', { 'X-Forwarded-For': '2001:db8::1' }, 403],
      ['an expired deny entry no longer blocks', '/', { 'X-Forwarded-For': '192.0.2.50' }, 200],
      ['a blocked country (Vatican range) is blocked', '/', { 'X-Forwarded-For': '212.77.0.1' }, 403],
      ['the allow list lets an attack through', sqli, { 'X-Forwarded-For': '198.51.100.7' }, 200],
      ['a custom allow rule lets an attack through', sqli, { 'User-Agent': 'trusted-tool/1.0' }, 200],
      ['the custom rule matches a value with quotes, % and backslash', '/', { 'X-Evil': 'a"b%{tx.x}\\\'' }, 403],
      ['the custom rule does not match a near value', '/', { 'X-Evil': 'a"b%{tx.x}' }, 200],
      ['a negated header condition matches a missing header', '/private/x', {}, 403],
      ['a negated header condition matches another value', '/private/x', { 'X-Api-Token': 'guess' }, 403],
      ['a negated header condition does not match its value', '/private/x', { 'X-Api-Token': 'secret' }, 200],
      ['a scoped exclusion turns the custom rule off on its path', '/excluded/x', { 'X-Evil': 'a"b%{tx.x}\\\'' }, 200],
    ])('%s', async (_, path, headers, status) => {
      expect((await send(waf.current.port, path, headers)).status).toBe(status);
    });

    test('a SQL injection in a JSON body is blocked', async () => {
      const answer = await send(
        waf.current.port,
        '/api',
        { 'Content-Type': 'application/json' },
        JSON.stringify({ q: "1' OR '1'='1' UNION SELECT password FROM users--" }),
      );
      expect(answer.status).toBe(403);
    });

    test('the rate limit lets exactly its budget through, then answers 429', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await send(waf.current.port, '/login')).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      // The 429s reach the audit log too (relevant status), so rate limit blocks arrive as events.
      const limited = (await waf.current.audit()).filter(
        (line) => line.includes('"uri":"/login"') && line.includes('"http_code":429'),
      );
      expect(limited).toHaveLength(2);
    });

    test('a rate limit does what the console says: its requests at once, then one more each time nginx refills one', async () => {
      expect(rateLimitMeaning({ requests: 2, windowSeconds: 4 })).toBe(
        'Lets up to 2 requests through at once, then one more every 2 s (nginx limit_req rate=30r/m).',
      );
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await send(waf.current.port, '/refill')).status);
      expect(statuses).toEqual([200, 200, 429]);
      // A refused request does not count against the limit: asking until one passes waits for the refill.
      await vi.waitFor(async () => expect((await send(waf.current.port, '/refill')).status).toBe(200), {
        timeout: 15_000,
        interval: 100,
      });
      expect((await send(waf.current.port, '/refill')).status).toBe(429);
    });

    test('the audit log names the firewall and the CRS rules that matched', async () => {
      const records = (await waf.current.audit()).map(
        (line) => JSON.parse(line) as { transaction: Record<string, unknown> },
      );
      expect(records.length).toBeGreaterThan(0);
      const text = JSON.stringify(records);
      // The firewall, not the version (the same files serve every version with the same settings); libmodsecurity
      // 3.0.9 keeps the signature's closing quote in the component.
      expect(text).toContain('"spaceguard/00000000-0000-4000-8000-00000000000b\\""');
      expect(text).toContain('942100');
      expect(text).toContain('4210011');
    });
  });

  describe('detect mode', () => {
    const waf = wafFor('detect', () => upstreamPort);

    test('attacks pass but are logged; allowed clients are not logged', async () => {
      expect((await send(waf.current.port, sqli)).status).toBe(200);
      expect((await send(waf.current.port, '/', { 'X-Forwarded-For': '203.0.113.9' })).status).toBe(200);
      const before = (await waf.current.audit()).length;
      expect(before).toBeGreaterThanOrEqual(1);
      expect((await send(waf.current.port, `${sqli}&allowed=1`, { 'X-Forwarded-For': '198.51.100.7' })).status).toBe(
        200,
      );
      expect((await send(waf.current.port, `${sqli}&allowed=2`, { 'User-Agent': 'trusted-tool/1.0' })).status).toBe(
        200,
      );
      const after = await waf.current.audit();
      expect(after.join('\n')).not.toContain('allowed=');
    });

    test('rate limits only log', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await send(waf.current.port, '/login')).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
    });
  });
});
