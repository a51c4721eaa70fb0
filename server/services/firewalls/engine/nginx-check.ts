import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { defaultCrsDir } from './crs-catalog.ts';

/** Where the pieces of Debian's nginx + ModSecurity live; every one can be overridden (tests, other distributions). */
export type NginxHost = {
  /** The nginx binary (`NGINX_BIN`, else `/usr/sbin/nginx`, else `nginx` on the PATH). */
  nginx?: string;
  /** The ModSecurity module (`NGINX_MODSECURITY_MODULE`, else Debian's path). */
  module?: string;
  /** The CRS folder the `crs` link points to (`CRS_DIR`, else Debian's). */
  crsDir?: string;
  /** ModSecurity's unicode map (Debian's `/etc/nginx/unicode.mapping`); left out when missing. */
  unicodeMap?: string;
  /** The port the test server listens on (nginx -t does not bind it). */
  listen?: string;
  /** Where `nginxCheck` makes its temporary prefix (the system's temporary folder by default). */
  workDir?: string;
};

/** What `nginx -t` said: ok, or its message with the temporary prefix shown as `<prefix>`. */
export type NginxCheckResult = { ok: true } | { ok: false; message: string };

const debianModule = '/usr/lib/nginx/modules/ngx_http_modsecurity_module.so';

function nginxBinary(host: NginxHost): string {
  return host.nginx ?? process.env.NGINX_BIN ?? (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx');
}

/** The `host.conf` a host writes beside the compiled files: the ModSecurity settings that name its own paths. */
export function hostModsecurityConf(paths: { auditLog: string; tmpDir: string; unicodeMap?: string | null }): string {
  const map = paths.unicodeMap === undefined ? '/etc/nginx/unicode.mapping' : paths.unicodeMap;
  return [
    '# Written by the host, not by Spaceguard: where ModSecurity writes and what it reads on this machine.',
    `SecAuditLog ${paths.auditLog}`,
    `SecTmpDir ${paths.tmpDir}`,
    `SecDataDir ${paths.tmpDir}`,
    ...(map && existsSync(map) ? [`SecUnicodeMapFile ${map} 20127`] : []),
    '',
  ].join('\n');
}

/**
 * Lays out a private nginx prefix around compiled files: `conf/spaceguard/` with the files, the `crs` link and
 * `host.conf`, and a minimal `conf/nginx.conf` that loads the module and includes them the way README.md says.
 * Returns the paths nginx is run with. The connector's private nginx and `nginxCheck` both use it.
 */
export async function layOutPrefix(
  prefix: string,
  files: Record<string, string>,
  host: NginxHost = {},
): Promise<{ prefix: string; conf: string; errorLog: string; folder: string; auditLog: string }> {
  const folder = join(prefix, 'conf', 'spaceguard');
  const logs = join(prefix, 'logs');
  const temp = join(prefix, 'tmp');
  await mkdir(folder, { recursive: true });
  await mkdir(logs, { recursive: true });
  await mkdir(temp, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    if (name.includes('..') || name.startsWith('/') || !/^[A-Za-z0-9._/-]+$/.test(name)) {
      throw new Error(`Refusing a file name outside the config folder: ${JSON.stringify(name)}`);
    }
    await mkdir(dirname(join(folder, name)), { recursive: true });
    await writeFile(join(folder, name), text);
  }
  await symlink(host.crsDir ?? (process.env.CRS_DIR || defaultCrsDir), join(folder, 'crs'));
  const auditLog = join(logs, 'audit.log');
  await writeFile(
    join(folder, 'host.conf'),
    hostModsecurityConf({
      auditLog,
      tmpDir: temp,
      ...(host.unicodeMap === undefined ? {} : { unicodeMap: host.unicodeMap }),
    }),
  );
  const module = host.module ?? process.env.NGINX_MODSECURITY_MODULE ?? debianModule;
  const conf = join(prefix, 'conf', 'nginx.conf');
  await writeFile(
    conf,
    `load_module ${module};
pid ${join(logs, 'nginx.pid')};
error_log ${join(logs, 'error.log')} info;
events {}
http {
    access_log off;
    client_body_temp_path ${join(temp, 'body')};
    proxy_temp_path ${join(temp, 'proxy')};
    fastcgi_temp_path ${join(temp, 'fastcgi')};
    uwsgi_temp_path ${join(temp, 'uwsgi')};
    scgi_temp_path ${join(temp, 'scgi')};
    include spaceguard/http.conf;
    server {
        listen ${host.listen ?? '127.0.0.1:8080'};
        modsecurity_rules_file ${join(folder, 'modsecurity.conf')};
        include spaceguard/server.conf;
    }
}
`,
  );
  return { prefix, conf, errorLog: join(logs, 'error.log'), folder, auditLog };
}

/** Runs `nginx -t -p PREFIX -c CONF -e ERRORLOG`; resolves with nginx's exit status and its messages. */
export function runNginx(
  args: readonly string[],
  host: NginxHost = {},
  timeoutMs = 30_000,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(nginxBinary(host), [...args], { timeout: timeoutMs, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}`.trim() || (error?.message ?? '') });
    });
  });
}

/**
 * Checks compiled files with the real nginx, module and CRS: a temporary private prefix, `nginx -t`, then the prefix
 * removed. Never touches the system's nginx (its own prefix, pid and error log).
 */
export async function nginxCheck(files: Record<string, string>, host: NginxHost = {}): Promise<NginxCheckResult> {
  const prefix = await mkdtemp(join(host.workDir ?? tmpdir(), 'spaceguard-nginx-'));
  try {
    const laid = await layOutPrefix(prefix, files, host);
    const { code, output } = await runNginx(
      ['-t', '-q', '-p', `${prefix}/`, '-c', laid.conf, '-e', laid.errorLog],
      host,
    );
    if (code === 0) return { ok: true };
    return { ok: false, message: output.replaceAll(prefix, '<prefix>') };
  } finally {
    await rm(prefix, { recursive: true, force: true });
  }
}
