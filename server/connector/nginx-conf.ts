/**
 * The nginx.conf files the connector writes for its private nginx: the host's part (module, pid, logs, temporary
 * folders, all in the state dir, in the foreground) around what a version needs, and the 503 page served until a
 * first version applies.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { StateLayout } from './state-dir.ts';

/** Where to listen, as given (`127.0.0.1:8080`, `[::1]:8080`) and as host and port for a connection check. */
export type Listen = { text: string; host: string; port: number };

/** Reads `host:port` (IPv6 in brackets); null when it is not one. */
export function parseListen(value: string): Listen | null {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(value.trim());
  const port = Number(match?.[3]);
  if (!match || port < 1 || port > 65_535) return null;
  return { text: value.trim(), host: match[1] ?? match[2] ?? '', port };
}

/** What the host provides to every configuration it writes. */
export type Host = { layout: StateLayout; module: string; listen: Listen };

/** Debian's ModSecurity module: $MODSECURITY_MODULE, or the .so found under /usr/lib/nginx/modules. */
export function findModule(env: NodeJS.ProcessEnv = process.env, folder = '/usr/lib/nginx/modules'): string {
  if (env.MODSECURITY_MODULE) return env.MODSECURITY_MODULE;
  const name = existsSync(folder) ? readdirSync(folder).find((file) => /modsecurity.*\.so$/.test(file)) : undefined;
  if (!name) {
    throw new Error(
      `No ModSecurity module in ${folder}: install libnginx-mod-http-modsecurity, or set MODSECURITY_MODULE.`,
    );
  }
  return join(folder, name);
}

/** The OWASP CRS: $CRS_DIR, or Debian's /usr/share/modsecurity-crs. */
export function findCrs(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.CRS_DIR || '/usr/share/modsecurity-crs';
  if (!existsSync(join(dir, 'rules'))) {
    throw new Error(`No OWASP CRS in ${dir} (no rules/ folder): install modsecurity-crs, or set CRS_DIR.`);
  }
  return dir;
}

/** Quotes a path for nginx (paths in the state dir are the connector's own, but may hold spaces). */
export function quote(path: string): string {
  if (/["\\\n\r$]/.test(path)) throw new Error(`Unusable path for nginx: ${JSON.stringify(path)}`);
  return `"${path}"`;
}

/** The whole nginx.conf: the host's settings, then `http` holding the temporary folders and `inside`. */
export function renderNginxConf(host: Host, inside: string): string {
  const { layout } = host;
  const tmp = (name: string) => quote(join(layout.tmp, name));
  return `# Written by the Spaceguard connector; rewritten for every version. Do not edit.
load_module ${quote(host.module)};
daemon off;
worker_processes auto;
pid ${quote(layout.pidFile)};
error_log ${quote(layout.errorLog)} info;

events {
  worker_connections 1024;
}

http {
  access_log ${quote(layout.accessLog)};
  client_body_temp_path ${tmp('client_body')};
  proxy_temp_path ${tmp('proxy')};
  fastcgi_temp_path ${tmp('fastcgi')};
  uwsgi_temp_path ${tmp('uwsgi')};
  scgi_temp_path ${tmp('scgi')};
  server_tokens off;

${indent(inside.trimEnd(), '  ')}
}
`;
}

/** The page served until a first version applies: every request answers 503 and says why. */
export function renderWaitingConf(host: Host): string {
  const page =
    '<!doctype html><title>Spaceguard WAF: waiting for its configuration</title>' +
    '<h1>503: this firewall has no configuration yet</h1>' +
    '<p>The Spaceguard connector is running and waits for its first configuration from the console. ' +
    'Requests are served as soon as it applies.</p>';
  return renderNginxConf(
    host,
    `server {
  listen ${host.listen.text} default_server;
  default_type text/html;
  add_header Retry-After 5 always;
  location / {
    return 503 '${page}\n';
  }
}`,
  );
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `${prefix}${line}`))
    .join('\n');
}
