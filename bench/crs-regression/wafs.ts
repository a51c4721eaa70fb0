/**
 * The two WAFs the corpus runs against, each a private nginx (its own prefix, stopped by PID) in front of one small
 * upstream: Debian's stock CRS set-up, and the configuration Spaceguard compiles, laid out as the host does. Both get
 * the CRS project's CI settings and a marker rule, the stock one beside `crs-setup.conf`, Spaceguard's in the host's
 * `host.conf` (the place the host owns).
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { FirewallSettings } from '../../contract/firewall-settings.ts';
import { defaultFirewallSettings } from '../../contract/firewalls.ts';
import { findNginx, PrivateNginx } from '../../server/connector/private-nginx.ts';
import { compileFirewall } from '../../server/services/firewalls/compile/index.ts';
import { defaultCrsDir, loadCrsCatalog } from '../../server/services/firewalls/engine/crs-catalog.ts';
import { layOutPrefix } from '../../server/services/firewalls/engine/nginx-check.ts';

/** Which configuration a WAF runs. */
export type WafKind = 'stock' | 'spaceguard';

/** A running WAF: where to send requests and where it logs. */
export type Waf = { kind: WafKind; port: number; errorLog: string; auditLog: string; stop: () => Promise<void> };

/** The rule that logs the marker requests the runner sends between stages. */
export const markerPrefix = '/__sg_marker/';
const markerRule = `SecRule REQUEST_URI "@beginsWith ${markerPrefix}" "id:4299999,phase:1,pass,log,t:none,msg:'marker %{REQUEST_URI}'"`;

/**
 * The CRS project's CI settings for the regression tests (`tests/regression/README.md` of CRS 3.3): UTF-8 validation,
 * the argument limits the tests expect, and rule 910000 (blocking by the IP's earlier score) off.
 */
const ciSettings = `SecAction "id:4299998,phase:1,pass,nolog,t:none,ctl:ruleRemoveById=910000,\\
setvar:tx.crs_validate_utf8_encoding=1,setvar:tx.arg_name_length=100,setvar:tx.arg_length=400,\\
setvar:tx.total_arg_length=64000,setvar:tx.max_num_args=255,setvar:tx.max_file_size=64100,\\
setvar:tx.combined_file_sizes=65535"`;

/** A TCP server that answers 200 to every request once its headers and Content-Length body have arrived. */
export async function startUpstream(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        buffer = buffer.subarray(end + 4 + length);
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nok\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A free TCP port on 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/** Debian's engine base (`/etc/nginx/modsecurity.conf`) with its relative and /var/log paths moved into the prefix. */
function stockBase(prefix: string): string {
  const base = readFileSync(process.env.MODSECURITY_BASE_CONF || '/etc/nginx/modsecurity.conf', 'utf8');
  return base
    .replace(/^SecUnicodeMapFile\s+unicode\.mapping/m, 'SecUnicodeMapFile /etc/nginx/unicode.mapping')
    .replace(/^SecAuditLog\s+.*$/m, `SecAuditLog ${join(prefix, 'logs', 'audit.log')}`)
    .replace(/^SecTmpDir\s+.*$/m, `SecTmpDir ${join(prefix, 'tmp')}`)
    .replace(/^SecDataDir\s+.*$/m, `SecDataDir ${join(prefix, 'tmp')}`)
    .replace(/^SecDebugLog\s+.*$/m, '');
}

/** The stock files in the shape of a compiled folder: Debian's base, crs-setup.conf, the CI settings, the CRS. */
function stockFiles(prefix: string, upstreamPort: number): Record<string, string> {
  const setup = process.env.CRS_SETUP_DIR || '/etc/modsecurity/crs';
  const rules = join(process.env.CRS_DIR || defaultCrsDir, 'rules');
  const optional = (file: string) => (existsSync(join(setup, file)) ? [`Include ${join(setup, file)}`] : []);
  return {
    'http.conf': '',
    // The compiled server's header handling too, so the two runs differ only in their ModSecurity configuration
    // (nginx's default drops headers such as X_Filename before ModSecurity sees them: 6 tests of 933110).
    'server.conf': `underscores_in_headers on;\nignore_invalid_headers off;\nmodsecurity on;\nlocation / {\n    proxy_pass http://127.0.0.1:${upstreamPort};\n}\n`,
    'base.conf': stockBase(prefix),
    'modsecurity.conf': [
      '# Debian stock: the engine base, crs-setup.conf and the CRS as owasp-crs.load names them',
      `Include ${join(prefix, 'conf', 'spaceguard', 'base.conf')}`,
      `Include ${join(setup, 'crs-setup.conf')}`,
      '# The CRS CI settings at paranoia level 4, and the marker',
      'SecAction "id:900000,phase:1,pass,nolog,t:none,setvar:tx.paranoia_level=4"',
      ciSettings,
      markerRule,
      ...optional('REQUEST-900-EXCLUSION-RULES-BEFORE-CRS.conf'),
      `Include ${rules}/*.conf`,
      ...optional('RESPONSE-999-EXCLUSION-RULES-AFTER-CRS.conf'),
      '',
    ].join('\n'),
  };
}

/** What Spaceguard compiles for detect mode at paranoia 4, default thresholds, nothing excluded. */
function spaceguardFiles(upstreamPort: number): Record<string, string> {
  const settings = FirewallSettings.parse({
    ...defaultFirewallSettings,
    name: 'CRS regression',
    hostnames: ['localhost'],
    upstream: `http://127.0.0.1:${upstreamPort}`,
    mode: 'detect',
    managedRules: { ...defaultFirewallSettings.managedRules, paranoiaLevel: 4 },
  });
  return compileFirewall({
    firewallId: '00000000-0000-4000-8000-00000000c125',
    settings,
    catalog: loadCrsCatalog(),
    now: new Date('2026-01-01T00:00:00Z'),
  }).files;
}

/** Starts one WAF on a free port in `prefix` (an empty folder), in front of the upstream. */
export async function startWaf(kind: WafKind, prefix: string, upstreamPort: number): Promise<Waf> {
  const port = await freePort();
  const files = kind === 'stock' ? stockFiles(prefix, upstreamPort) : spaceguardFiles(upstreamPort);
  const laid = await layOutPrefix(prefix, files, { listen: `127.0.0.1:${port}` });
  if (kind === 'spaceguard') {
    // The host's own file: the CI settings and the marker join the paths it names.
    const hostConf = join(laid.folder, 'host.conf');
    await writeFile(hostConf, `${await readFile(hostConf, 'utf8')}${ciSettings}\n${markerRule}\n`);
  }
  // PrivateNginx runs nginx in the foreground as its child.
  await writeFile(laid.conf, `daemon off;\n${await readFile(laid.conf, 'utf8')}`);
  const nginx = new PrivateNginx({
    binary: findNginx(),
    prefix,
    errorLog: laid.errorLog,
    pidFile: join(prefix, 'logs', 'nginx.pid'),
  });
  const tested = await nginx.test(laid.conf);
  if (!tested.ok) throw new Error(`nginx -t failed for the ${kind} configuration: ${tested.message}`);
  await nginx.start(laid.conf);
  await nginx.waitListening('127.0.0.1', port);
  return { kind, port, errorLog: laid.errorLog, auditLog: laid.auditLog, stop: () => nginx.stop() };
}
