/**
 * The connector's configuration loop: hold a long poll on the API, and for each new version lay it out, `nginx -t`
 * it, switch `current` to it, reload and report "applied"; a version that fails is reported with nginx's message and
 * the last good one keeps serving. On start it serves the version of the previous run at once (if it still passes
 * `nginx -t`), else the 503 page until a first version applies.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConnectorConfig } from '../../contract/firewalls.ts';
import { ApiCallError, type ConnectorApi, type StatusReport } from './api-client.ts';
import { sleep } from './audit-tailer.ts';
import { messageOf } from './message-of.ts';
import { renderWaitingConf } from './nginx-conf.ts';
import type { PrivateNginx } from './private-nginx.ts';
import { layOutVersion, readLaidOutConfig, type VersionHost } from './version-folder.ts';
import { currentFolder, pruneVersions, switchCurrent } from './versions.ts';

/** What the loop needs; `print` is for the lines an operator reads, `log` for diagnostics. */
export type LoopOptions = {
  api: ConnectorApi;
  nginx: PrivateNginx;
  host: VersionHost;
  /** Seconds between polls while the API cannot be reached (the first pause; it grows up to 30 s). */
  pollSeconds: number;
  /** How long the API holds a long poll. */
  waitSeconds?: number;
  print: (line: string) => void;
  log: (line: string) => void;
};

/** The version serving now, as the operator sees it. */
type Serving = { version: number; hash: string } | null;

/** The loop: `start()` brings nginx up, `run()` follows the API until aborted, `stop()` stops nginx. */
export class ConfigLoop {
  readonly #o: LoopOptions & { waitSeconds: number };
  /** The hash last received (applied or failed): the next poll waits for another. */
  #hash: string | null = null;
  #serving: Serving = null;
  /** The latest report not yet accepted by the API (only the latest matters). */
  #status: StatusReport | null = null;

  constructor(options: LoopOptions) {
    this.#o = { waitSeconds: 25, ...options };
  }

  /** The version nginx serves (null while the 503 page is served). */
  get serving(): Serving {
    return this.#serving;
  }

  /** Starts nginx on the previous run's version when it still passes `nginx -t`, else on the 503 page; answers which. */
  async start(): Promise<Serving> {
    const { host, nginx } = this.#o;
    const { layout } = host;
    writeFileSync(join(layout.waiting, 'nginx.conf'), renderWaitingConf(host), { mode: 0o600 });
    const previous = currentFolder(layout);
    const config = previous && previous !== layout.waiting ? readLaidOutConfig(previous) : null;
    switchCurrent(layout, layout.waiting);
    if (config) {
      // Laid out again: this run's --listen and --upstream may differ from the last one's.
      try {
        const laid = layOutVersion(host, config);
        const test = await nginx.test(laid.conf);
        if (test.ok) {
          switchCurrent(layout, laid.folder);
          this.#serving = { version: config.version, hash: config.hash };
          this.#hash = config.hash;
          this.#status = { version: config.version, state: 'applied' };
        } else {
          this.#o.log(`version ${config.version} of the last run no longer passes nginx -t: ${test.message}`);
        }
      } catch (error) {
        this.#o.log(`version ${config.version} of the last run cannot be laid out again: ${messageOf(error)}`);
      }
    }
    await nginx.start(join(layout.current, 'nginx.conf'));
    await nginx.waitListening(host.listen.host, host.listen.port);
    return this.#serving;
  }

  /** Follows the API until the signal aborts: long poll, apply what is new, report, back off while unreachable. */
  async run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      await this.#report(signal);
      const asked = Date.now();
      try {
        const poll = await this.#o.api.config(this.#hash, this.#o.waitSeconds, signal);
        failures = 0;
        if (poll.kind === 'new' && poll.config.hash !== this.#hash) {
          await this.apply(poll.config);
          continue;
        }
        // An API that answers 304 without holding the request would make this loop spin.
        if (Date.now() - asked < 1000) await sleep(this.#o.pollSeconds * 1000, signal);
      } catch (error) {
        if (signal.aborted) break;
        failures += 1;
        const pause = Math.min(this.#o.pollSeconds * 2 ** (failures - 1), Math.max(30, this.#o.pollSeconds));
        const why = error instanceof ApiCallError ? `the API answered ${error.message}` : messageOf(error);
        this.#o.log(`config: ${why}; asking again in ${pause} s`);
        await sleep(pause * 1000, signal);
      }
    }
  }

  /** Applies one version: lay out, `nginx -t`, switch, reload; on any failure the last good version keeps serving. */
  async apply(config: ConnectorConfig): Promise<boolean> {
    const { host, nginx } = this.#o;
    const { layout } = host;
    const started = performance.now();
    this.#hash = config.hash;
    let conf: string;
    let folder: string;
    try {
      ({ conf, folder } = layOutVersion(host, config));
    } catch (error) {
      return this.#failed(config, messageOf(error));
    }
    const test = await nginx.test(conf);
    if (!test.ok) return this.#failed(config, test.message);

    const previous = currentFolder(layout);
    switchCurrent(layout, folder);
    try {
      await nginx.reload();
    } catch (error) {
      if (previous) switchCurrent(layout, previous);
      await nginx.reload().catch(() => {});
      return this.#failed(config, `nginx did not reload: ${messageOf(error)}`);
    }
    this.#serving = { version: config.version, hash: config.hash };
    this.#status = { version: config.version, state: 'applied' };
    const ms = Math.round(performance.now() - started);
    this.#o.print(`Applied version ${config.version} (${config.hash.slice(0, 12)}) in ${ms} ms`);
    pruneVersions(layout);
    return true;
  }

  /** Reports a failed version and says what keeps serving. */
  #failed(config: ConnectorConfig, message: string): false {
    this.#status = { version: config.version, state: 'failed', message: message.slice(0, 4000) };
    const serving = this.#serving ? `version ${this.#serving.version}` : 'the 503 page';
    this.#o.print(`Version ${config.version} failed, still serving ${serving}: ${message.split('\n')[0]}`);
    return false;
  }

  /** Sends the pending report; a failure keeps it for the next turn (a newer report replaces it). */
  async #report(signal: AbortSignal): Promise<void> {
    const status = this.#status;
    if (!status) return;
    try {
      await this.#o.api.status(status, signal);
      if (this.#status === status) this.#status = null;
    } catch (error) {
      if (!signal.aborted) this.#o.log(`status: ${messageOf(error)}; will report again`);
    }
  }

  /** Stops nginx (by its PID, workers included). */
  async stop(): Promise<void> {
    await this.#o.nginx.stop();
  }
}
