/**
 * For island tests: the real API (createApp) on a fresh in-memory PGlite, reached through a `fetch` stand-in
 * that calls `app.request()` in process and carries the session cookie like a browser would.
 */
import { resolve } from 'node:path';
import { desc } from 'drizzle-orm';
import crsMessagesTable from '../../../contract/constants/crs-messages.json';
import { CRS_MESSAGES_URL } from '../../../contract/constants/crs-messages.ts';
import { createApp } from '../../../server/app.ts';
import { openDatabase } from '../../../server/db/database.ts';
import { migrate } from '../../../server/db/migrate.ts';
import { outbox } from '../../../server/db/schema/outbox.ts';
import { silentLogger } from '../../../server/services/shared/logger.ts';
import { migratedTemplate } from '../../../server/test/migrated-template.ts';
import { clearApiCacheForTests } from '../../stores/fetcher.ts';
import { readRoute } from '../../stores/route.ts';
import { $me, loadMe } from '../../stores/session.ts';

export interface TestUser {
  readonly cookie: string;
  readonly id: string;
  readonly name: string;
  readonly email: string;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely
type Json = any;

const PASSWORD = 'correct horse 42';

/** Starts the API and installs the fetch stand-in; call `stop()` after the file's tests. */
export async function startTestApi() {
  const database = await openDatabase({ dataDir: 'memory://', loadDataDir: await migratedTemplate() });
  // The browser transform under jsdom rewrites `new URL(..., import.meta.url)` to an http URL,
  // so the migrations folder is named from the project root.
  await migrate(database, { migrationsFolder: resolve('server/db/migrations') });
  const origin = location.origin;
  const app = createApp({
    db: database.db,
    config: { publicUrl: origin, allowedOrigins: [origin], trustProxy: false, production: false, smtpUrl: undefined },
    captcha: async () => true,
    log: silentLogger,
  });

  /** A direct call as `cookie` (setting up data outside the screen under test). */
  async function call(method: string, path: string, cookie?: string, body?: unknown) {
    const headers: Record<string, string> = { origin };
    if (cookie) headers.cookie = cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await app.request(`${origin}/api${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const json: Json = text ? JSON.parse(text) : null;
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return { json, headers: res.headers };
  }

  async function lastToken(to: string, fragment: string): Promise<string> {
    const rows = await database.db.select().from(outbox).orderBy(desc(outbox.createdAt));
    for (const row of rows) {
      const match = row.to === to ? row.text.match(new RegExp(`${fragment}([^\\s]+)`)) : null;
      if (match?.[1]) return decodeURIComponent(match[1]);
    }
    throw new Error(`no mail to ${to} with ${fragment}`);
  }

  /** Registers, activates and signs in a user. */
  async function signUp(email: string, name: string): Promise<TestUser> {
    await call('POST', '/auth/register', undefined, { name, email, password: PASSWORD });
    await call('POST', '/auth/activate', undefined, { token: await lastToken(email, '/auth/activation/') });
    const login = await call('POST', '/auth/login', undefined, { email, password: PASSWORD });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    return { cookie, id: login.json.id, name, email };
  }

  /** Adds `user` to the space with `role`, through invitation and acceptance. */
  async function join(spaceId: string, owner: TestUser, user: TestUser, role: string): Promise<void> {
    await call('POST', `/spaces/${spaceId}/invitations`, owner.cookie, { email: user.email, role });
    const token = await lastToken(user.email, 'invitation=');
    await call('POST', `/invitations/${token}/accept`, user.cookie);
  }

  // The browser's cookie jar: one session cookie, replaced by whatever the API sets.
  let jar = '';
  const realFetch = globalThis.fetch;
  const fetchStandIn = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input), origin);
    if (url.pathname === '/config.json') {
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    }
    // The CRS rule messages, as the built site serves them (src/pages/crs-messages.json.ts).
    if (url.pathname === CRS_MESSAGES_URL) return Response.json(crsMessagesTable);
    if (!url.pathname.startsWith('/api/')) return new Response('Not found', { status: 404 });
    const headers = new Headers(init.headers);
    headers.set('origin', origin);
    if (jar) headers.set('cookie', jar);
    // jsdom's AbortSignal is not the one Node's Request accepts; the in-process call is never aborted.
    const { signal: _signal, credentials: _credentials, ...rest } = init;
    const res = await app.request(new Request(url.toString(), { ...rest, headers }));
    const set = res.headers.get('set-cookie');
    if (set) jar = set.split(';')[0] ?? '';
    return res;
  };
  globalThis.fetch = fetchStandIn as typeof fetch;

  /** The browser is now signed in as `user` (null: signed out). */
  async function signInAs(user: TestUser | null): Promise<void> {
    jar = user?.cookie ?? '';
    clearApiCacheForTests();
    $me.set(undefined);
    await loadMe(true);
  }

  async function stop(): Promise<void> {
    globalThis.fetch = realFetch;
    await database.close();
  }

  return { app, db: database.db, call, signUp, join, signInAs, stop };
}

/** Puts the browser on `path` (the islands read their space id from the URL). */
export function visit(path: string): void {
  history.replaceState(null, '', path);
  readRoute();
  clearApiCacheForTests();
}

/** jsdom has no modal dialogs: `showModal` and `close` only toggle `open`, which is what the shared Drawer reads. */
export function stubModalDialogs(): void {
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
}
