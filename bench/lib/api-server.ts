/**
 * The API in a child process, exactly as `npm start` builds it (createApi, request log to stdout) on
 * DATABASE_URL or DATA_DIR, for the benches that measure over real HTTP. Unless BENCH_SETUP=0 it first adds a
 * Business-plan space with a ModSecurity source (so the quota never refuses) and prints `BENCH_READY {…}`.
 * `node bench/lib/api-server.ts` is the child; `startApiServer()` is how a bench starts it.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnNode, waitForLine } from './processes.ts';

/** What the child prints once listening: its port, and the source it made (empty with BENCH_SETUP=0). */
export type Ready = { port: number; token: string; spaceId: string; sourceId: string };

/** Starts the child with extra environment and resolves once it listens. Stop it with `stopProcess(child)`. */
export async function startApiServer(env: Record<string, string>): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawnNode(new URL(import.meta.url).pathname, [], env, 'pipe');
  const ready = JSON.parse(await waitForLine(child, 'BENCH_READY ')) as Ready;
  return { child, ready };
}

async function serve(): Promise<void> {
  const { serve: listen } = await import('@hono/node-server');
  const { createApi } = await import('../../server/api.ts');
  const { spaces } = await import('../../server/db/schema/spaces.ts');
  const { sources } = await import('../../server/db/schema/sources.ts');
  const { hashToken, randomToken } = await import('../../server/services/shared/tokens.ts');
  const api = await createApi(process.env);
  let ready: Omit<Ready, 'port'> = { token: '', spaceId: '', sourceId: '' };
  if (process.env.BENCH_SETUP !== '0') {
    const now = api.deps.now();
    const [space] = await api.database.db
      .insert(spaces)
      .values({ name: 'Ingest bench', plan: 'business', createdAt: now, updatedAt: now })
      .returning();
    const token = randomToken('sgi_');
    const [source] = await api.database.db
      .insert(sources)
      .values({
        spaceId: space?.id ?? '',
        name: 'bench',
        kind: 'modsecurity',
        tokenHash: hashToken(token),
        tokenPrefix: token.slice(0, 8),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    ready = { token, spaceId: space?.id ?? '', sourceId: source?.id ?? '' };
  }
  const server = listen({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
    console.log(`BENCH_READY ${JSON.stringify({ ...ready, port: info.port })}`);
  });
  process.on('SIGTERM', () => server.close(() => void api.close().finally(() => process.exit(0))));
}

if (import.meta.main) await serve();
