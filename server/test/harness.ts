import { randomBytes } from 'node:crypto';
import { desc } from 'drizzle-orm';
import { hc } from 'hono/client';
import pg from 'pg';
import { type AppType, createApp } from '../app.ts';
import { buildDeps } from '../build-deps.ts';
import type { ApiConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { outbox } from '../db/schema/outbox.ts';
import type { CaptchaVerifier } from '../services/accounts/captcha.ts';
import { searchLaneFor } from '../services/events/search-lane.ts';
import type { Mailer } from '../services/mail/mailer.ts';
import { silentLogger } from '../services/shared/logger.ts';
import { migratedTemplate } from './migrated-template.ts';

export const ORIGIN = 'http://localhost:4321';
export const BASE = 'http://localhost:4321';

/** Test double at the captcha provider's edge: the token 'bad' fails, everything else passes. */
export const fakeCaptcha: CaptchaVerifier = async ({ token }) => token !== 'bad';

/**
 * A fresh database for one test file: in-memory PGlite, or a freshly created PostgreSQL database
 * when TEST_DATABASE_URL is set (so parallel files never share tables).
 */
export async function freshDatabase(
  options: { thread?: boolean; migrated?: boolean } = {},
): Promise<{ database: Database; drop(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const thread = options.thread ?? false;
    // On this thread a migrated template is loaded (no initdb); migrate() then finds nothing left to apply.
    const template = options.migrated !== false && !thread ? await migratedTemplate() : undefined;
    const database = await openDatabase({ dataDir: 'memory://', thread, loadDataDir: template });
    if (options.migrated !== false) await migrate(database);
    return { database, drop: () => database.close() };
  }
  const name = `sg_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ url: target.toString() });
  if (options.migrated !== false) await migrate(database);
  return {
    database,
    async drop() {
      await database.close();
      const again = new pg.Client({ connectionString: url });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

/**
 * Another handle on the same database, as a second API process would have: a new pool on PostgreSQL, the same
 * handle on PGlite (one connection, one process). `close()` closes only what this opened.
 */
export async function anotherHandle(database: Database): Promise<{ db: Database['db']; close(): Promise<void> }> {
  if (!database.pool) return { db: database.db, close: async () => undefined };
  const other = await openDatabase({ url: database.pool.options.connectionString });
  return { db: other.db, close: () => other.close() };
}

/** Who calls and how: a signed-in user's cookie, a bearer token, extra headers, another Origin (null: none). */
type Caller = {
  cookie?: string | undefined;
  token?: string | undefined;
  headers?: Record<string, string>;
  origin?: string | null;
};

type RawOptions = Caller & { body?: unknown };

/** An answer as tests read it: status, headers, the body as text and as JSON (null when it is not JSON). */
export type Reply = {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely
  json: any;
};

/** The headers every call carries: the client address, the console's Origin, the caller's cookie or token. */
function callerHeaders(caller: Caller): Record<string, string> {
  const headers: Record<string, string> = { 'x-forwarded-for': '203.0.113.7', ...caller.headers };
  if (caller.origin !== null) headers.origin = caller.origin ?? ORIGIN;
  if (caller.cookie) headers.cookie = caller.cookie;
  if (caller.token) headers.authorization = `Bearer ${caller.token}`;
  return headers;
}

/** Reads a response into a Reply. */
async function replyOf(res: Response): Promise<Reply> {
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/**
 * One app on one fresh database, with helpers that speak HTTP through app.request(). Searches run in the lane
 * the server uses (its own pool on PostgreSQL); `thread` puts PGlite on a worker thread, as the server does.
 */
export async function createTestApi(
  overrides: { config?: Partial<ApiConfig>; mailer?: Mailer; now?: () => Date; thread?: boolean } = {},
) {
  const { database, drop } = await freshDatabase({ thread: overrides.thread ?? false });
  const deps = buildDeps({
    db: database.db,
    searches: searchLaneFor(database),
    config: {
      publicUrl: BASE,
      allowedOrigins: [ORIGIN],
      trustProxy: true,
      production: false,
      smtpUrl: undefined,
      ...overrides.config,
    },
    captcha: fakeCaptcha,
    log: silentLogger,
    ...(overrides.mailer ? { mailer: overrides.mailer } : {}),
    ...(overrides.now ? { now: overrides.now } : {}),
  });
  const app = createApp({ db: database.db, deps });

  /**
   * The API typed by its routes (the `hc<AppType>` client the islands use), answered by this app in process:
   * `t.read(t.api(cookie).spaces[':spaceId'].firewalls.$post({ param: { spaceId }, json }))`. A string is a signed-in
   * user's cookie; an object names a token, headers or another Origin.
   */
  function api(caller: string | Caller = {}) {
    const headers = callerHeaders(typeof caller === 'string' ? { cookie: caller } : caller);
    return hc<AppType>(BASE, {
      fetch: (input: RequestInfo | URL, init?: RequestInit) => app.request(input, init),
      headers,
    }).api;
  }

  /** Awaits a typed call and reads its answer as tests do (status, headers, text, loose JSON). */
  async function read(request: Promise<Response>): Promise<Reply> {
    return replyOf(await request);
  }

  /**
   * Untyped, for what the typed client refuses to send: bad input on purpose (wrong types, unknown fields, bodies
   * that are not JSON, malformed paths) and routes outside the typed API. A string body is sent as it is.
   */
  async function raw(method: string, path: string, options: RawOptions = {}): Promise<Reply> {
    const headers = callerHeaders(options);
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    return replyOf(await app.request(`${BASE}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) }));
  }

  /** The newest outbox link matching a path fragment, for a recipient. */
  async function lastLink(to: string, fragment: string): Promise<string> {
    const rows = await database.db.select().from(outbox).orderBy(desc(outbox.createdAt));
    for (const row of rows) {
      if (row.to !== to) continue;
      const match = row.text.match(new RegExp(`${BASE.replace(/[.]/g, '\\.')}(${fragment}[^\\s]*)`));
      if (match?.[1]) return match[1];
    }
    throw new Error(`no mail to ${to} with ${fragment}`);
  }

  /** Token at the end of the newest matching link. */
  async function lastToken(to: string, fragment: string): Promise<string> {
    const link = await lastLink(to, fragment);
    return decodeURIComponent(link.split(/[/=]/).pop() ?? '');
  }

  /** Registers, activates and signs in; answers the cookie header to send back. */
  async function signUp(email: string, name = email.split('@')[0] ?? 'User', password = 'correct horse 42') {
    const reg = await read(api().auth.register.$post({ json: { name, email, password } }));
    if (reg.status !== 201) throw new Error(`register ${reg.status} ${reg.text}`);
    const token = await lastToken(email, '/auth/activation/');
    const act = await read(api().auth.activate.$post({ json: { token } }));
    if (act.status !== 200) throw new Error(`activate ${act.status} ${act.text}`);
    return signIn(email, password);
  }

  async function signIn(email: string, password = 'correct horse 42') {
    const res = await read(api().auth.login.$post({ json: { email, password } }));
    if (res.status !== 200) throw new Error(`login ${res.status} ${res.text}`);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    return { cookie, user: res.json as { id: string; email: string; name: string } };
  }

  return {
    app,
    deps,
    db: database.db,
    database,
    api,
    read,
    raw,
    lastLink,
    lastToken,
    signUp,
    signIn,
    close: drop,
  };
}
export type TestApi = Awaited<ReturnType<typeof createTestApi>>;
