/**
 * The console and a connector, started the way server/connector/connector.test.ts starts them: the API in this
 * process on PGlite in memory (server/test/harness.ts) served over HTTP, an owner signed up with a Business space,
 * one firewall created through the API, and `npm run waf`'s program (server/connector/main.ts) as a child process
 * with the real nginx, ModSecurity and CRS on a private state dir. `stop()` stops the connector (which stops its nginx
 * by PID), the API and the state dir.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import type { CreateFirewallBody, UpdateFirewallBody } from '../../contract/firewalls.ts';
import { freePort } from '../../server/connector/test-http.ts';
import { spaces } from '../../server/db/schema/spaces.ts';
import { createTestApi } from '../../server/test/harness.ts';

/** A running console + connector pair, with the firewall both follow. */
export type ConnectorStack = {
  firewallId: string;
  /** Where the connector's nginx listens. */
  wafPort: number;
  /** Saves through the API as the console does; answers the new version. */
  save(body: UpdateFirewallBody): Promise<number>;
  /** Resolves once the connector has printed a line matching `pattern`; throws with its output after `ms`. */
  waitForOutput(pattern: RegExp, ms?: number): Promise<void>;
  stop(): Promise<void>;
};

/** Starts the API, creates `firewall` in a Business space and starts the connector; resolves once version 1 applies. */
export async function startConnectorStack(
  firewall: CreateFirewallBody,
  options: { pollSeconds?: number } = {},
): Promise<ConnectorStack> {
  const stateDir = mkdtempSync(join(tmpdir(), 'sg-bench-connector-'));
  const t = await createTestApi();
  let api: ReturnType<typeof serve> | undefined;
  const apiPort = await new Promise<number>((resolve) => {
    api = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port));
  });
  const owner = (await t.signUp('owner@example.com', 'Olive')).cookie;
  const spaceId: string = (await t.read(t.api(owner).spaces.$post({ json: { name: 'Edge' } }))).json.id;
  await t.db.update(spaces).set({ plan: 'business' }).where(eq(spaces.id, spaceId));
  const created = await t.read(t.api(owner).spaces[':spaceId'].firewalls.$post({ param: { spaceId }, json: firewall }));
  if (created.status !== 201)
    throw new Error(`creating the firewall: ${created.status} ${JSON.stringify(created.json)}`);
  const firewallId: string = created.json.id;

  const wafPort = await freePort();
  const args = [
    '--api',
    `http://127.0.0.1:${apiPort}`,
    '--token',
    created.json.token,
    '--listen',
    `127.0.0.1:${wafPort}`,
  ];
  if (options.pollSeconds !== undefined) args.push('--poll-seconds', String(options.pollSeconds));
  const connector: ChildProcess = spawn(
    process.execPath,
    ['server/connector/main.ts', ...args, '--state-dir', stateDir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
  };
  connector.stdout?.on('data', collect);
  connector.stderr?.on('data', collect);

  async function waitForOutput(pattern: RegExp, ms = 30_000): Promise<void> {
    for (let waited = 0; !pattern.test(output); waited += 10) {
      if (waited > ms || connector.exitCode !== null) {
        throw new Error(`the connector did not print ${pattern} (exit ${connector.exitCode}):\n${output.slice(-4000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async function stop(): Promise<void> {
    if (connector.exitCode === null && connector.signalCode === null) {
      const exited = new Promise((resolve) => connector.once('exit', resolve));
      connector.kill('SIGTERM');
      const timer = setTimeout(() => connector.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    await new Promise((resolve) => api?.close(resolve));
    await t.close();
    rmSync(stateDir, { recursive: true, force: true });
  }

  try {
    await waitForOutput(/Applied version 1 /, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    firewallId,
    wafPort,
    async save(body) {
      const saved = await t.read(
        t.api(owner).spaces[':spaceId'].firewalls[':id'].$patch({ param: { spaceId, id: firewallId }, json: body }),
      );
      if (saved.status !== 200) throw new Error(`PATCH: ${saved.status} ${JSON.stringify(saved.json).slice(0, 300)}`);
      return saved.json.version as number;
    },
    waitForOutput,
    stop,
  };
}
