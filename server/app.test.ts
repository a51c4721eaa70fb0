import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createApp } from './app.ts';
import { createCaptchaVerifier, recaptchaVerifyUrl } from './services/accounts/captcha.ts';
import type { LogEntry } from './services/shared/logger.ts';
import { createTestApi, freshDatabase, type TestApi } from './test/harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(async () => {
  await t.close();
});

test('one structured JSON log line per request, and the captcha start-up line', async () => {
  const lines: LogEntry[] = [];
  const app = createApp({ db: t.db, log: (e) => lines.push(e) });
  expect(lines).toEqual([
    expect.objectContaining({ level: 'warn', msg: expect.stringMatching(/CAPTCHA_SECRET is not set/) }),
  ]);
  await app.request('http://localhost/api/health');
  await app.request('http://localhost/api/nowhere');
  // Tokens in the path (ingest, invitations) never reach the log whole.
  await app.request('http://localhost/api/ingest/sgi_secretsecretsecret', { method: 'POST', body: '{}' });
  await app.request('http://localhost/api/invitations/inv_secretsecretsecret/accept', { method: 'POST' });
  const requests = lines.filter((l) => l.msg === 'request');
  expect(requests).toEqual([
    expect.objectContaining({ method: 'GET', path: '/api/health', status: 200, requestId: expect.any(String) }),
    expect.objectContaining({ method: 'GET', path: '/api/nowhere', status: 404 }),
    expect.objectContaining({ method: 'POST', path: '/api/ingest/sgi_secr…', status: 401 }),
    expect.objectContaining({ method: 'POST', path: '/api/invitations/inv_secr…/accept' }),
  ]);
  expect(JSON.stringify(lines)).not.toContain('secretsecret');
});

test('unknown API paths answer 404 in the error shape', async () => {
  const res = await t.raw('GET', '/api/nowhere');
  expect(res.status).toBe(404);
  expect(res.json).toEqual({ error: { code: 'not_found', message: 'No such API path.' } });
  expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
});

test('production: no development outbox, Secure cookies', async () => {
  const prod = createApp({
    db: t.db,
    log: () => undefined,
    captcha: async () => true,
    config: { production: true, allowedOrigins: ['https://guard.example.com'] },
  });
  expect((await prod.request('https://guard.example.com/api/dev/outbox')).status).toBe(404);
  const doc = await (await prod.request('https://guard.example.com/api/openapi.json')).json();
  expect(Object.keys(doc.paths)).not.toContain('/api/dev/outbox');
  await t.signUp('secure@example.com');
  const login = await prod.request('https://guard.example.com/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'https://guard.example.com' },
    body: JSON.stringify({ email: 'secure@example.com', password: 'correct horse 42' }),
  });
  expect(login.status).toBe(200);
  expect(login.headers.get('set-cookie')).toMatch(/; Secure/);
});

test('CORS answers allowed origins with credentials, and nothing for others', async () => {
  const ok = await t.app.request('http://localhost:4321/api/me', {
    method: 'OPTIONS',
    headers: { origin: 'http://localhost:4321', 'access-control-request-method': 'PATCH' },
  });
  expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:4321');
  expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
  const other = await t.app.request('http://localhost:4321/api/me', {
    method: 'OPTIONS',
    headers: { origin: 'https://evil.example', 'access-control-request-method': 'PATCH' },
  });
  expect(other.headers.get('access-control-allow-origin')).toBeNull();
});

test('the provider verifier checks success, action and score (provider faked at the fetch edge)', async () => {
  const calls: string[] = [];
  const answer = (body: object): typeof fetch =>
    (async (url: string | URL | Request, init?: RequestInit) => {
      calls.push(`${String(url)} ${String(init?.body)}`);
      return new Response(JSON.stringify(body), { status: 200 });
    }) as typeof fetch;
  const ok = createCaptchaVerifier('sekret', answer({ success: true, action: 'login', score: 0.9 }));
  expect(await ok({ token: 'tok', action: 'login', ip: '1.2.3.4' })).toBe(true);
  expect(calls[0]).toContain(recaptchaVerifyUrl);
  expect(calls[0]).toContain('secret=sekret');
  expect(await ok({ token: 'tok', action: 'register', ip: '1.2.3.4' })).toBe(false);
  expect(await ok({ token: undefined, action: 'login', ip: '1.2.3.4' })).toBe(false);
  const low = createCaptchaVerifier('s', answer({ success: true, action: 'login', score: 0.1 }));
  expect(await low({ token: 'tok', action: 'login', ip: '' })).toBe(false);
  const down = createCaptchaVerifier('s', (async () => {
    throw new Error('offline');
  }) as typeof fetch);
  expect(await down({ token: 'tok', action: 'login', ip: '' })).toBe(false);
});

test('a second database is independent (fresh per file)', async () => {
  const other = await freshDatabase();
  try {
    const app = createApp({ db: other.database.db, log: () => undefined, captcha: async () => true });
    expect((await app.request('http://localhost/api/health')).status).toBe(200);
  } finally {
    await other.drop();
  }
});

test('a NUL character in a body field or query parameter is refused with 400 naming it, and nothing is stored', async () => {
  const { cookie } = await t.signUp('nul@example.com');
  const before = await t.read(t.api(cookie).spaces.$get());
  const named = await t.read(t.api(cookie).spaces.$post({ json: { name: 'shop\u0000' } }));
  expect(named.status).toBe(400);
  expect(named.json.error.fields).toEqual({ name: 'May not contain the NUL character (U+0000).' });
  expect((await t.read(t.api(cookie).spaces.$get())).json.items).toHaveLength(before.json.items.length);

  const space = await t.read(t.api(cookie).spaces.$post({ json: { name: 'Nul test' } }));
  const query = await t.read(
    t.api(cookie).spaces[':spaceId'].events.$get({ param: { spaceId: space.json.id }, query: { q: 'host:a\u0000' } }),
  );
  expect(query.status).toBe(400);
  expect(query.json.error.fields).toEqual({ q: 'May not contain the NUL character (U+0000).' });
  // Nested fields are named by their path; a backslash followed by "u0000" is ordinary text.
  const nested = await t.read(t.api(cookie).me.$patch({ json: { name: 'Ada \\u0000 Lovelace' } }));
  expect(nested.status).toBe(200);
  expect(nested.json.name).toBe('Ada \\u0000 Lovelace');
});

test('no route with a path parameter comes before a fixed path it would swallow, so mount order never matters', () => {
  // Hono tries routes in the order they were registered: `/events/{eventId}` registered before `/events/export`
  // would read "export" as an event id (and answer 404). Every such pair is a bug, whatever router it is in.
  const segments = (path: string) => path.split('/').filter(Boolean);
  const isParam = (segment: string) => segment.startsWith(':');
  const seen = new Set<string>();
  const routes = t.app.routes
    .filter((r) => r.method !== 'ALL')
    .filter((r) => !seen.has(`${r.method} ${r.path}`) && seen.add(`${r.method} ${r.path}`));
  const shadowed: string[] = [];
  routes.forEach((earlier, i) => {
    for (const later of routes.slice(i + 1)) {
      const [a, b] = [segments(earlier.path), segments(later.path)];
      if (earlier.method !== later.method || a.length !== b.length) continue;
      const swallows =
        a.every((s, k) => s === b[k] || isParam(s)) && a.some((s, k) => isParam(s) && !isParam(b[k] ?? ''));
      if (swallows) shadowed.push(`${earlier.method} ${earlier.path} before ${later.path}`);
    }
  });
  expect(shadowed).toEqual([]);
  // The check sees the real table: the event log's fixed paths are in it.
  expect(routes.map((r) => r.path)).toContain('/api/spaces/:spaceId/events/export');
});
