/**
 * `npm run waf`: a real WAF in front of an application, without root and without touching the system's nginx. Starts
 * a private nginx with ModSecurity and the OWASP CRS in the state dir, follows the firewall's configuration through
 * the API (long poll, nginx -t, atomic switch, reload, status), ships the audit log as events, and stops nginx and
 * itself on SIGINT or SIGTERM. Talks to the API over HTTP only.
 */
import { ConnectorApi } from './api-client.ts';
import { parseOptions, usage } from './args.ts';
import { AuditTailer } from './audit-tailer.ts';
import { ConfigLoop } from './config-loop.ts';
import { messageOf } from './message-of.ts';
import { findCrs, findModule } from './nginx-conf.ts';
import { findNginx, PrivateNginx } from './private-nginx.ts';
import { eventShipper } from './ship-events.ts';
import { prepareStateDir, stateLayout } from './state-dir.ts';

const print = (line: string) => console.log(line);
const log = (line: string) => console.error(`[waf] ${line}`);

/** Runs the connector until a signal stops it; answers the exit code. */
async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    print(usage);
    return 0;
  }
  // Options and what the machine must provide, refused before anything starts.
  let options: ReturnType<typeof parseOptions>;
  let module: string;
  let crsDir: string;
  try {
    options = parseOptions(argv);
    module = findModule();
    crsDir = findCrs();
  } catch (error) {
    console.error(`${messageOf(error)}\n\n${usage}`);
    return 2;
  }
  const layout = stateLayout(options.stateDir);
  prepareStateDir(layout);
  const host = { layout, module, crsDir, listen: options.listen, upstream: options.upstream };
  const nginx = new PrivateNginx({
    binary: findNginx(),
    prefix: layout.dir,
    errorLog: layout.errorLog,
    pidFile: layout.pidFile,
  });
  const api = new ConnectorApi(options.api, options.token);
  const loop = new ConfigLoop({ api, nginx, host, pollSeconds: options.pollSeconds, print, log });
  const tailer = new AuditTailer({
    path: layout.auditLog,
    stateFile: layout.tailState,
    send: eventShipper(api, log),
    log,
  });

  // SIGINT/SIGTERM: stop polling and tailing, then nginx by its PID, then exit.
  const stop = new AbortController();
  let finished: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => {
    finished = resolve;
  });
  const started = loop.start();
  const running: Promise<unknown>[] = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    stop.abort();
    await started.catch(() => null);
    await Promise.allSettled(running);
    await loop.stop();
    print('Stopped: nginx and the connector have exited.');
    finished(code);
  };
  process.once('SIGINT', () => void shutdown(0));
  process.once('SIGTERM', () => void shutdown(0));

  try {
    const serving = await started;
    // A signal during the start: shutdown() is already stopping what started.
    if (stopping) return done;
    print(
      `Spaceguard WAF listening on http://${options.listen.text} (nginx pid ${nginx.pid}; state in ${layout.dir}): ${
        serving ? `serving version ${serving.version}` : 'answering 503 until the first configuration arrives'
      }`,
    );
  } catch (error) {
    log(`could not start nginx: ${messageOf(error)}`);
    await shutdown(1);
    return done;
  }
  running.push(loop.run(stop.signal), tailer.run(stop.signal));
  // nginx gone without being asked to (crashed, killed): stop too, so a supervisor restarts the whole connector.
  void nginx.exited.then(() => {
    if (!stopping) {
      log('nginx exited unexpectedly; stopping');
      void shutdown(1);
    }
  });
  return done;
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));
