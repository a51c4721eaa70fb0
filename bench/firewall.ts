/**
 * The firewall's cost and speed. Requests per second through three private nginx servers side by side in
 * one run, each with one worker and the same compiled `server.conf` (realip, proxy headers, one `location /`):
 * nginx alone (`modsecurity off`), nginx + Debian's stock CRS set-up (/etc/nginx/modsecurity.conf with the engine On
 * and its paths moved into the prefix, then what /usr/share/modsecurity-crs/owasp-crs.load includes), and nginx + Spaceguard's
 * compiled config (block mode, paranoia 1, 10 000 deny entries, 50 custom rules, 20 exclusions). All proxy to a
 * fourth private nginx answering 200 from memory. Load from Debian's `wrk`, rounds interleaved, configurations in a
 * rotating order. Then the time from a save through the API to the connector's "Applied version N", on the same
 * settings. Nothing here is asserted by tests.
 *
 * `node bench/run.ts firewall` prints the section; bench/run.ts includes it in the full run.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { findModule } from '../server/connector/nginx-conf.ts';
import { findNginx, PrivateNginx } from '../server/connector/private-nginx.ts';
import { freePort, rawGet } from '../server/connector/test-http.ts';
import { compileFirewall } from '../server/services/firewalls/compile/index.ts';
import { loadCrsCatalog } from '../server/services/firewalls/engine/crs-catalog.ts';
import { layOutPrefix } from '../server/services/firewalls/engine/nginx-check.ts';
import { benchFirewallSettings } from './firewall-settings.ts';
import { startConnectorStack } from './lib/connector-stack.ts';
import { tempDir } from './lib/databases.ts';
import { count, loadAverage, ms, table } from './lib/format.ts';
import { cpuSeconds } from './lib/processes.ts';
import { median, p50p95 } from './lib/stats.ts';
import { hasWrk, runWrk, type WrkResult } from './lib/wrk.ts';

const ROUNDS = Number(process.env.BENCH_FIREWALL_ROUNDS ?? 9);
const SECONDS = Number(process.env.BENCH_FIREWALL_SECONDS ?? 4);
const CONNECTIONS = 8;
const SAVES = Number(process.env.BENCH_FIREWALL_SAVES ?? 20);
const FIREWALL_ID = '00000000-0000-4000-8000-00000000bec4';
const GET_PATH = '/products?id=42&sort=price';
const SQL_INJECTION = "/?id=1'+OR+1=1--";

type Config = 'nginx alone' | 'nginx + stock CRS' | 'nginx + Spaceguard';
const CONFIGS: readonly Config[] = ['nginx alone', 'nginx + stock CRS', 'nginx + Spaceguard'];
type Request = { label: string; script?: string };
/** One wrk run and the CPU time the measured nginx's worker spent per request meanwhile (µs). */
type Run = WrkResult & { cpuPerRequest: number };

/** A 10 240-byte urlencoded form of ordinary text fields. */
function formBody(): string {
  const fields: string[] = [];
  let length = 0;
  for (let i = 0; length < 10_000; i += 1) {
    const field = `field_${i}=the+quick+brown+fox+jumps+over+the+lazy+dog+${i}`;
    fields.push(field);
    length += field.length + 1;
  }
  const body = fields.join('&');
  return body.length >= 10_240 ? body.slice(0, 10_240) : `${body}&pad=${'x'.repeat(10_240 - body.length - 5)}`;
}

/** The nginx.conf every measured server runs: one worker, no access log, `inside` in the server block. */
function benchConf(prefix: string, port: number, module: string, inside: string): string {
  const tmp = join(prefix, 'tmp');
  return `load_module ${module};
daemon off;
worker_processes 1;
pid ${join(prefix, 'logs', 'nginx.pid')};
error_log ${join(prefix, 'logs', 'error.log')} warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path ${tmp}/body;
    proxy_temp_path ${tmp}/proxy;
    fastcgi_temp_path ${tmp}/fastcgi;
    uwsgi_temp_path ${tmp}/uwsgi;
    scgi_temp_path ${tmp}/scgi;
    include spaceguard/http.conf;
    server {
        listen 127.0.0.1:${port};
${inside}
    }
}
`;
}

/** Debian's ModSecurity base file with the engine On and its paths in the prefix, then Debian's CRS loader. */
function stockModsecurity(prefix: string): string {
  const base = readFileSync('/etc/nginx/modsecurity.conf', 'utf8')
    .replace(/^SecRuleEngine .*$/m, 'SecRuleEngine On')
    .replace(/^SecAuditLog .*$/m, `SecAuditLog ${join(prefix, 'logs', 'stock-audit.log')}`)
    .replace(/^SecTmpDir .*$/m, `SecTmpDir ${join(prefix, 'tmp')}`)
    .replace(/^SecDataDir .*$/m, `SecDataDir ${join(prefix, 'tmp')}`)
    .replace(/^SecUnicodeMapFile .*$/m, 'SecUnicodeMapFile /etc/nginx/unicode.mapping 20127');
  // owasp-crs.load's lines with Include for IncludeOptional, which libmodsecurity3 refuses (both files exist).
  const crs = [
    'Include /etc/modsecurity/crs/crs-setup.conf',
    'Include /etc/modsecurity/crs/REQUEST-900-EXCLUSION-RULES-BEFORE-CRS.conf',
    'Include /usr/share/modsecurity-crs/rules/*.conf',
    'Include /etc/modsecurity/crs/RESPONSE-999-EXCLUSION-RULES-AFTER-CRS.conf',
  ];
  return `${base}\n${crs.join('\n')}\n`;
}

/** Starts a private nginx on a configuration file in `prefix`; resolves once it accepts connections. */
async function startNginx(prefix: string, conf: string, port: number): Promise<PrivateNginx> {
  const nginx = new PrivateNginx({
    binary: findNginx(),
    prefix,
    errorLog: join(prefix, 'logs', 'error.log'),
    pidFile: join(prefix, 'logs', 'nginx.pid'),
  });
  const tested = await nginx.test(conf);
  if (!tested.ok) throw new Error(`nginx -t (${prefix}): ${tested.message}`);
  await nginx.start(conf);
  await nginx.waitListening('127.0.0.1', port);
  return nginx;
}

/** Time from each PATCH to the connector's "Applied version N", over `saves` saves of the bench settings. */
async function saveToApplied(upstream: string, saves: number): Promise<{ times: number[]; note: string }> {
  const settings = benchFirewallSettings(upstream);
  const stack = await startConnectorStack(settings);
  try {
    const times: number[] = [];
    for (let i = 0; i < saves; i += 1) {
      const started = performance.now();
      const version = await stack.save({ hostnames: [...settings.hostnames, `s${i}.example.com`] });
      await stack.waitForOutput(new RegExp(`Applied version ${version} `), 30_000);
      times.push(performance.now() - started);
    }
    const blocked = (await rawGet(stack.wafPort, SQL_INJECTION)).status;
    return { times, note: `a SQL injection through the connector's nginx afterwards: ${blocked}` };
  } finally {
    await stack.stop();
  }
}

/** The machine, the date and the command, said at the top of the section (it is often run alone). */
function machineLine(): string {
  // nginx -v prints its version on stderr.
  const version = spawnSync(findNginx(), ['-v'], { encoding: 'utf8' });
  const nginx = `${version.stderr ?? ''}`.trim().replace(/^nginx version: /, '') || 'nginx (version unknown)';
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${nginx}`;
  return `Machine: ${machine}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`node bench/run.ts firewall\` (this section alone; also part of \`npm run bench\`).`;
}

/** Runs the firewall bench; answers its markdown section. */
export async function benchFirewall(): Promise<string> {
  const loadBefore = loadAverage();
  const started = performance.now();
  const work = tempDir('spaceguard-bench-firewall-');
  const servers: PrivateNginx[] = [];
  const lines: string[] = [];
  let upstreamUrl = '';
  let saved: { times: number[]; note: string } = { times: [], note: '' };
  try {
    const module = findModule();
    const upstreamPort = await freePort();
    upstreamUrl = `http://127.0.0.1:${upstreamPort}`;
    const compiled = compileFirewall({
      firewallId: FIREWALL_ID,
      settings: benchFirewallSettings(upstreamUrl),
      catalog: loadCrsCatalog(),
      now: new Date(),
    });

    // The upstream: nginx answering 200 from memory (one worker), so it is not the bottleneck.
    const upstreamPrefix = join(work.path, 'upstream');
    await layOutPrefix(upstreamPrefix, { 'http.conf': '' });
    const upstreamConf = join(upstreamPrefix, 'conf', 'bench.conf');
    writeFileSync(
      upstreamConf,
      benchConf(upstreamPrefix, upstreamPort, module, '        location / { return 200 "ok\\n"; }'),
    );
    servers.push(await startNginx(upstreamPrefix, upstreamConf, upstreamPort));

    const ports = new Map<Config, number>();
    const fronts = new Map<Config, PrivateNginx>();
    for (const [index, config] of CONFIGS.entries()) {
      const prefix = join(work.path, `front-${index}`);
      const laid = await layOutPrefix(prefix, compiled.files);
      const port = await freePort();
      ports.set(config, port);
      let rules = '';
      if (config === 'nginx alone') {
        const serverConf = join(laid.folder, 'server.conf');
        writeFileSync(serverConf, readFileSync(serverConf, 'utf8').replace('modsecurity on;', 'modsecurity off;'));
      } else if (config === 'nginx + stock CRS') {
        const stock = join(prefix, 'conf', 'stock-modsecurity.conf');
        writeFileSync(stock, stockModsecurity(prefix));
        rules = `        modsecurity_rules_file ${stock};\n`;
      } else {
        rules = `        modsecurity_rules_file ${join(laid.folder, 'modsecurity.conf')};\n`;
      }
      const conf = join(prefix, 'conf', 'bench.conf');
      writeFileSync(conf, benchConf(prefix, port, module, `${rules}        include spaceguard/server.conf;`));
      const front = await startNginx(prefix, conf, port);
      servers.push(front);
      fronts.set(config, front);
    }

    const body = formBody();
    const postScript = join(work.path, 'post.lua');
    writeFileSync(
      postScript,
      `wrk.method = "POST"\nwrk.body = [[${body}]]\nwrk.headers["Content-Type"] = "application/x-www-form-urlencoded"\n`,
    );
    const requests: Request[] = [
      { label: `GET ${GET_PATH}` },
      { label: `POST /contact, ${count(body.length)}-byte form`, script: postScript },
    ];

    // Each server answers the bench's requests with 200; the WAFs block a SQL injection, nginx alone does not.
    const checks: string[] = [];
    for (const config of CONFIGS) {
      const base = `http://127.0.0.1:${ports.get(config)}`;
      const get = (await fetch(`${base}${GET_PATH}`)).status;
      const post = (
        await fetch(`${base}/contact`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        })
      ).status;
      const attack = (await rawGet(ports.get(config) ?? 0, SQL_INJECTION)).status;
      if (get !== 200 || post !== 200) throw new Error(`${config} answered GET ${get}, POST ${post}`);
      checks.push(`${config}: ${attack}`);
    }

    if (!hasWrk()) {
      lines.push(
        "**Not measured: `wrk` is missing.** Install Debian's (`apt-get install -y wrk`, as root) and run `node bench/run.ts firewall`.",
      );
    } else {
      const results = new Map<string, Run[]>();
      const key = (config: Config, request: Request) => `${config}|${request.label}`;
      const url = (config: Config, request: Request) =>
        `http://127.0.0.1:${ports.get(config)}${request.script ? '/contact' : GET_PATH}`;
      const options = (request: Request, seconds: number) => ({
        seconds,
        connections: CONNECTIONS,
        threads: 1,
        ...(request.script ? { script: request.script } : {}),
      });
      for (const config of CONFIGS) {
        for (const request of requests) await runWrk(url(config, request), options(request, 2));
      }
      for (let round = 0; round < ROUNDS; round += 1) {
        const order = CONFIGS.map((_, i) => CONFIGS[(i + round) % CONFIGS.length] as Config);
        for (const request of requests) {
          for (const config of order) {
            const workers = fronts.get(config)?.workers() ?? [];
            const cpu = () => workers.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
            const before = cpu();
            const wrk = await runWrk(url(config, request), options(request, SECONDS));
            const result = { ...wrk, cpuPerRequest: ((cpu() - before) / wrk.requests) * 1e6 };
            results.set(key(config, request), [...(results.get(key(config, request)) ?? []), result]);
          }
        }
      }
      const loadAfterRps = loadAverage();

      const rows: string[][] = [];
      const ratios: string[] = [];
      for (const request of requests) {
        const stockRuns = results.get(key('nginx + stock CRS', request)) ?? [];
        const stockRps = median(stockRuns.map((r) => r.rps));
        const stockCpu = median(stockRuns.map((r) => r.cpuPerRequest));
        for (const config of CONFIGS) {
          const runs = results.get(key(config, request)) ?? [];
          const rps = runs.map((r) => r.rps);
          const ratio = median(rps) / stockRps;
          const cpu = median(runs.map((r) => r.cpuPerRequest));
          rows.push([
            request.label,
            config,
            count(median(rps)),
            `${count(Math.min(...rps))}–${count(Math.max(...rps))}`,
            ms(median(runs.map((r) => r.p50)), 2),
            ms(median(runs.map((r) => r.p99)), 2),
            count(cpu),
            String(runs.reduce((sum, r) => sum + r.non2xx + r.errors, 0)),
            config === 'nginx alone' ? '—' : ratio.toFixed(3),
            config === 'nginx alone' ? '—' : (cpu / stockCpu).toFixed(3),
          ]);
          if (config === 'nginx + Spaceguard') {
            const paired = runs.map((r, i) => r.rps / (stockRuns[i]?.rps ?? Number.NaN)).sort((a, b) => a - b);
            const cpuPaired = runs
              .map((r, i) => r.cpuPerRequest / (stockRuns[i]?.cpuPerRequest ?? Number.NaN))
              .sort((a, b) => a - b);
            ratios.push(
              `${request.label}: Spaceguard / stock CRS, req/s ${ratio.toFixed(3)} (${((ratio - 1) * 100).toFixed(1)} %), median of the rounds' ratios ${median(paired).toFixed(3)}, rounds ${paired.map((p) => p.toFixed(2)).join(', ')}; worker CPU per request ${(cpu / stockCpu).toFixed(3)}, median of the rounds' ratios ${median(cpuPaired).toFixed(3)}, rounds ${cpuPaired.map((p) => p.toFixed(2)).join(', ')}`,
            );
          }
        }
      }
      lines.push(
        ...table(
          [
            'request',
            'configuration',
            'req/s (median)',
            'req/s min–max',
            'p50 ms',
            'p99 ms',
            'worker CPU µs/request',
            'non-2xx + socket errors',
            'req/s vs stock CRS',
            'CPU/request vs stock CRS',
          ],
          rows,
        ),
        '',
        ...ratios.map((line) => `- ${line}.`),
        `- Load average (1, 5, 15 min): ${loadBefore} before, ${loadAfterRps} after the wrk runs.`,
      );
    }
    lines.push(`- A SQL injection (\`${SQL_INJECTION}\`) answered: ${checks.join('; ')}.`);
    // Save to applied, with the upstream still running behind the connector's nginx.
    for (const server of servers.splice(1).reverse()) await server.stop();
    saved = await saveToApplied(upstreamUrl, SAVES);
  } finally {
    // On success only the upstream is left; after an error, every nginx started here (by PID).
    for (const server of servers.reverse()) await server.stop();
    work.remove();
  }
  const { p50, p95 } = p50p95(saved.times);
  const minutes = (performance.now() - started) / 60_000;
  return [
    '## Firewall (nginx + ModSecurity + CRS)',
    '',
    machineLine(),
    '',
    `Requests per second through three private nginx 1.22 servers (Debian's, with libmodsecurity3 3.0.9 and CRS 3.3.4) started side by side, each with **one worker** and the same compiled \`server.conf\` (realip, proxy headers, \`proxy_http_version 1.1\`, one \`location /\`): **nginx alone** (\`modsecurity off\`); **nginx + stock CRS**: Debian's /etc/nginx/modsecurity.conf with \`SecRuleEngine On\` (Debian ships DetectionOnly) and its paths moved into the prefix, then the four files /usr/share/modsecurity-crs/owasp-crs.load names (its \`IncludeOptional\` written \`Include\`: libmodsecurity3 refuses \`IncludeOptional\`; Debian's /etc/modsecurity/crs/crs-setup.conf: paranoia 1, anomaly scoring); **nginx + Spaceguard**: the compiled folder for a firewall in block mode at paranoia 1 with 10,000 deny entries (half single addresses, half /24), 50 custom rules (every field and operator, one in five \`log\`, two turned off) and 20 CRS exclusions (global, by target, by path and method), built in bench/firewall-settings.ts and parsed by the contract. All three proxy to a fourth private nginx (one worker) answering \`return 200\` from memory, so the upstream is not the bottleneck. Load: \`wrk -t1 -c${CONNECTIONS} -d${SECONDS}s --latency\` over kept-alive connections, after a 2 s warm-up of each; ${ROUNDS} rounds, each running every configuration in a rotated order; req/s is the median over the rounds, min–max its spread, latency the median of each round's percentile. Worker CPU per request is the measured nginx worker's user + system time (/proc/PID/stat, 10 ms ticks) during a wrk run divided by the requests it answered: it moves less than req/s when other processes take the cores (though cache and frequency effects remain), so it is the steadier measure of what a configuration costs. Every answer must be 200 (the bench checks each request once before, and counts wrk's non-2xx answers). The machine has 2 cores shared by wrk, the measured worker, the upstream and other agents' work, so compare rows of this run, not runs. Goal: Spaceguard's config costs at most 5 % of requests per second against stock CRS.`,
    '',
    ...lines,
    '',
    `Save to applied: the console's API in the bench process (PGlite in memory, over HTTP, as server/connector/connector.test.ts starts it), a firewall with the settings above (the connector's nginx in front of the same upstream), and \`npm run waf\`'s program as a child process with its default \`--poll-seconds 2\` (long poll). ${saved.times.length} saves, one after the other, each a \`PATCH\` of \`hostnames\` (the API compiles the whole 10,000-entry firewall on every save); time from sending the PATCH to the connector printing "Applied version N" (after \`nginx -t\`, the switch and the reload with new workers up). **p50 ${ms(p50, 0)} ms, p95 ${ms(p95, 0)} ms** (min ${ms(Math.min(...saved.times), 0)}, max ${ms(Math.max(...saved.times), 0)}). Goal: p95 under 2 s. ${saved.note[0]?.toUpperCase()}${saved.note.slice(1)}. Load average at the end: ${loadAverage()}. Whole section ${minutes.toFixed(1)} min.`,
  ].join('\n');
}

if (import.meta.main) console.log(await benchFirewall());
