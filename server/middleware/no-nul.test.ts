import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

let t: TestApi;
let cookie: string;
let spaceId: string;

beforeAll(async () => {
  t = await createTestApi();
  cookie = (await t.signUp('text@example.com', 'Text')).cookie;
  spaceId = (await t.read(t.api(cookie).spaces.$post({ json: { name: 'Text' } }))).json.id;
});
afterAll(async () => {
  await t.close();
});

const surrogateRule = 'Use well-formed Unicode text (this holds a lone surrogate).';
const nulRule = 'May not contain the NUL character (U+0000).';

/** `{"a":{"a":…}}` nested `depth` deep around a value, as JSON text. */
const nested = (depth: number, inner: string) => `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;

describe('a lone surrogate in any JSON body string is a 400 naming the field (it made PostgreSQL fail: 500)', () => {
  test.each([
    ['a space name', 'PATCH', () => `/api/spaces/${spaceId}`, { name: 'a\ud800' }, 'name'],
    ['a profile name', 'PATCH', () => '/api/me', { name: '\udfffb' }, 'name'],
    [
      'an e-mail at sign-in (anonymous)',
      'POST',
      () => '/api/auth/login',
      { email: 'x\udbff@e.test', password: 'p' },
      'email',
    ],
    [
      'a saved query',
      'POST',
      () => `/api/spaces/${spaceId}/saved-searches`,
      { name: 'q', query: '\ud800', range: '24h' },
      'query',
    ],
    ['a key', 'PATCH', () => '/api/me', { name: 'ok', '\ud800': 1 }, '\ufffd'],
  ])('%s', async (_label, method, path, body, field) => {
    const res = await t.raw(method, path(), { cookie, body });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.fields).toEqual({ [field]: surrogateRule });
    expect(res.json.error.message).toBe(`${field}: ${surrogateRule}`);
  });

  test('a surrogate pair (an emoji, escaped or not) is text like any other', async () => {
    const escaped = await t.raw('PATCH', '/api/me', { cookie, body: '{"name":"Text \\ud83d\\ude00"}' });
    expect(escaped.status, escaped.text).toBe(200);
    expect(escaped.json.name).toBe('Text 😀');
  });

  test('every string field of every JSON body refuses one, never a 5xx', async () => {
    type Schema = { $ref?: string; type?: string; enum?: unknown[]; properties?: Record<string, Schema> };
    type Doc = {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
      components: { schemas: Record<string, Schema> };
    };
    const doc = (await t.raw('GET', '/api/openapi.json')).json as Doc;
    const unref = (s: Schema) => (s.$ref ? (doc.components.schemas[s.$ref.split('/').pop() ?? ''] ?? {}) : s);
    const missed: string[] = [];
    let checked = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      const path = template
        .replace('{spaceId}', spaceId)
        .replace(/\{[a-zA-Z]+\}/g, (m) => (m === '{token}' ? 't'.repeat(43) : '00000000-0000-4000-8000-000000000000'));
      for (const [method, operation] of Object.entries(operations)) {
        const schema = operation.requestBody?.content['application/json']?.schema;
        for (const [name, property] of Object.entries(schema ? (unref(schema).properties ?? {}) : {})) {
          if (unref(property).type !== 'string') continue;
          checked++;
          const res = await t.raw(method.toUpperCase(), path, { cookie, body: { [name]: 'x\ud800' } });
          if (res.status !== 400 || res.json?.error?.fields?.[name] !== surrogateRule) {
            missed.push(`${method} ${template} ${name}: ${res.status} ${res.text.slice(0, 120)}`);
          }
        }
      }
    }
    expect(missed).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });
});

describe('a deeply nested JSON body is walked without recursion (it overflowed the stack: 500, even anonymous)', () => {
  test.each([
    ['NUL 5 000 deep', nested(5000, '"\\u0000"'), 400, /nested deeper than 64 levels/],
    ['NUL 100 000 deep', nested(100_000, '"\\u0000"'), 400, /nested deeper than 64 levels/],
    ['a lone surrogate 5 000 deep', nested(5000, '"\\ud800"'), 400, /nested deeper than 64 levels/],
    ['an array 100 000 deep', `${'['.repeat(100_000)}"\\u0000"${']'.repeat(100_000)}`, 400, /nested deeper/],
    ['NUL 64 deep', nested(63, '"\\u0000"'), 400, /^a(\.a){62}: May not contain the NUL character/],
  ])('%s', async (_label, body, status, message) => {
    const res = await t.raw('POST', '/api/auth/login', { body });
    expect(res.status, res.text.slice(0, 200)).toBe(status);
    expect(res.json.error.message).toMatch(message);
  });

  test('a NUL in a field is still named with its path', async () => {
    const res = await t.read(
      t.api(cookie).spaces[':spaceId']['saved-searches'].$post({
        param: { spaceId },
        json: { name: 'n', query: 'a\u0000', range: '24h' },
      }),
    );
    expect(res.status).toBe(400);
    expect(res.json.error.fields).toEqual({ query: nulRule });
  });
});
