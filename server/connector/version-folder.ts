/**
 * Lays out one version for the private nginx, the way the compiler's README says a host includes the compiled
 * files: `versions/<n>/files/` holds them with the host's `host.conf` (audit log, temporary folder, unicode map) and
 * the `crs` link beside them, and `versions/<n>/nginx.conf` loads the module, includes `http.conf` at http level and,
 * in the server that listens, `server.conf` and `modsecurity_rules_file …/modsecurity.conf`.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConnectorConfig } from '../../contract/firewalls.ts';
import { hostModsecurityConf } from '../services/firewalls/engine/nginx-check.ts';
import { type Host, quote, renderNginxConf } from './nginx-conf.ts';
import { writeVersion } from './versions.ts';

/** What the connector adds on this machine: where the CRS lives and, with `--upstream`, where requests go. */
export type VersionHost = Host & { crsDir: string; upstream: string | null };

/** A version's folder and the nginx.conf to test and serve it with. */
export type LaidOut = { folder: string; conf: string };

/** `http://host:port` as a proxy_pass target (the contract's Upstream already refused paths, users and queries). */
function proxyTarget(upstream: string): string {
  const url = new URL(upstream);
  return `${url.protocol}//${url.host}`;
}

/**
 * The firewall's upstream replaced by `--upstream`: every `proxy_pass` line of server.conf names it (the compiler
 * writes one per location), so those lines, and only those, get the new target.
 */
export function overrideUpstream(serverConf: string, upstream: string): string {
  const target = proxyTarget(upstream);
  const replaced = serverConf.replace(/^(\s*proxy_pass\s+)[^\s;]+;\s*$/gm, `$1${target};`);
  if (target.startsWith('https:') && !/^\s*proxy_ssl_server_name\s/m.test(replaced)) {
    return `${replaced}proxy_ssl_server_name on;\n`;
  }
  return replaced;
}

/** Writes a version's files, the host's additions and its nginx.conf; keeps the config as received to lay it out again. */
export function layOutVersion(host: VersionHost, config: ConnectorConfig): LaidOut {
  const { layout } = host;
  const files = { ...config.files };
  for (const name of ['http.conf', 'server.conf', 'modsecurity.conf']) {
    if (files[name] === undefined) throw new Error(`The configuration has no ${name}.`);
  }
  if (files['host.conf'] !== undefined || files.crs !== undefined) {
    throw new Error('The configuration names host.conf or crs, which the host provides.');
  }
  if (host.upstream) files['server.conf'] = overrideUpstream(files['server.conf'] ?? '', host.upstream);

  const folder = writeVersion(layout, config.version, files);
  const dir = join(folder, 'files');
  writeFileSync(join(folder, 'config.json'), JSON.stringify(config), { mode: 0o600 });
  symlinkSync(host.crsDir, join(dir, 'crs'));
  const modsecurityTmp = join(layout.tmp, 'modsecurity');
  mkdirSync(modsecurityTmp, { recursive: true, mode: 0o700 });
  // Started as root, nginx's workers run as nobody and write request bodies there: a sticky, unlisted folder.
  if (process.getuid?.() === 0) chmodSync(modsecurityTmp, 0o1733);
  writeFileSync(join(dir, 'host.conf'), hostModsecurityConf({ auditLog: layout.auditLog, tmpDir: modsecurityTmp }));

  const conf = join(folder, 'nginx.conf');
  writeFileSync(
    conf,
    renderNginxConf(
      host,
      `# Firewall ${config.firewallId}, version ${config.version} (${config.hash})
include ${quote(join(dir, 'http.conf'))};

server {
  listen ${host.listen.text} default_server;
  modsecurity_rules_file ${quote(join(dir, 'modsecurity.conf'))};
  include ${quote(join(dir, 'server.conf'))};
}`,
    ),
    { mode: 0o600 },
  );
  return { folder, conf };
}

/** The config a version folder was laid out from (to lay it out again at start with this run's options), or null. */
export function readLaidOutConfig(folder: string): ConnectorConfig | null {
  const file = join(folder, 'config.json');
  if (!existsSync(file)) return null;
  try {
    return ConnectorConfig.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return null;
  }
}
