import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const apiPolicy = "default-src 'none'; frame-ancestors 'none'";

let t: TestApi;
let cookie: string;
let token: string;
let spaceId: string;
beforeAll(async () => {
  t = await createTestApi();
  ({ cookie } = await t.signUp('headers@example.com'));
  token = (await t.read(t.api(cookie).me.tokens.$post({ json: { name: 'ci', expiresInDays: 30 } }))).json.token;
  spaceId = (await t.read(t.api(cookie).spaces.$post({ json: { name: 'Headers' } }))).json.id;
});
afterAll(async () => {
  await t.close();
});

type Who = 'anonymous' | 'cookie' | 'token';

/** One call as someone: the cookie or the Bearer token when asked for. */
function callAs(who: Who, method: string, path: string, body?: unknown) {
  return t.raw(method, path, {
    ...(who === 'cookie' ? { cookie } : {}),
    ...(who === 'token' ? { token } : {}),
    ...(body === undefined ? {} : { body }),
  });
}

test.each<[string, Who, string, string, number, string | null, unknown]>([
  ['health', 'anonymous', 'GET', '/api/health', 200, null, undefined],
  ['the OpenAPI document', 'anonymous', 'GET', '/api/openapi.json', 200, null, undefined],
  ['an unknown path', 'anonymous', 'GET', '/api/nowhere', 404, null, undefined],
  ['a refusal for lack of sign-in', 'anonymous', 'GET', '/api/me', 401, null, undefined],
  ['a failed sign-in', 'anonymous', 'POST', '/api/auth/login', 401, null, { email: 'x@example.com', password: 'x' }],
  [
    'a sign-in, which sets the cookie',
    'anonymous',
    'POST',
    '/api/auth/login',
    200,
    'no-store',
    { email: 'headers@example.com', password: 'correct horse 42' },
  ],
  ['the profile, by cookie', 'cookie', 'GET', '/api/me', 200, 'no-store', undefined],
  ['the profile, by token', 'token', 'GET', '/api/me', 200, 'no-store', undefined],
  ['a change, by cookie', 'cookie', 'PATCH', '/api/me', 200, 'no-store', { name: 'Renamed' }],
  [
    'a refusal to a member',
    'cookie',
    'GET',
    '/api/spaces/00000000-0000-4000-8000-000000000000',
    404,
    'no-store',
    undefined,
  ],
  ['events, by token', 'token', 'GET', '/api/spaces/{space}/events', 200, 'no-store', undefined],
  ['the health, signed in', 'cookie', 'GET', '/api/health', 200, 'no-store', undefined],
])(
  '%s (%s %s %s) answers %i with nosniff, the API policy and Cache-Control %s',
  async (_label, who, method, path, status, cache, body) => {
    const res = await callAs(who, method, path.replace('{space}', spaceId), body);
    expect(res.status).toBe(status);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe(apiPolicy);
    expect(res.headers.get('cache-control')).toBe(cache);
  },
);

test('a streamed export keeps its body and gets the headers', async () => {
  const res = await callAs('cookie', 'GET', `/api/spaces/${spaceId}/events/export?format=ndjson`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-disposition')).toMatch(/attachment/);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('content-security-policy')).toBe(apiPolicy);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const streamed = await callAs('cookie', 'GET', `/api/spaces/${spaceId}/events/export?format=csv`);
  expect(streamed.text.split('\n')[0]).toMatch(/^time,/);
});

test('the reference page gets a policy it can live with: its own inline style, no script, no frame', async () => {
  const res = await callAs('anonymous', 'GET', '/api/docs');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  const policy = res.headers.get('content-security-policy') ?? '';
  expect(policy.split('; ')).toEqual([
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ]);
  // What the policy allows is all the page uses: inline style, links, no script, image, font or frame.
  expect(res.text).toMatch(/<style>/);
  expect(res.text).not.toMatch(/<script|<img|<iframe|<link|@import|url\(/i);
});
