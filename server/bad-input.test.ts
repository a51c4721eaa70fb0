import { getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import * as schema from './db/schema/index.ts';
import { createTestApi, type TestApi } from './test/harness.ts';

/**
 * Bad input on every route of the OpenAPI document: missing fields, wrong types, oversized strings,
 * broken JSON, bad query values. Each answer is a 4xx naming the field, never a 5xx, and nothing is written.
 */
vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  format?: string;
  maxLength?: number;
  anyOf?: JsonSchema[];
};
type Doc = {
  paths: Record<string, Record<string, Op>>;
  components: { schemas: Record<string, JsonSchema> };
};
type Op = {
  parameters?: { name: string; in: string; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
};

let t: TestApi;
let cookie: string;
let spaceId: string;
beforeAll(async () => {
  t = await createTestApi();
  cookie = (await t.signUp('bad@example.com')).cookie;
  spaceId = (await t.read(t.api(cookie).spaces.$post({ json: { name: 'Input' } }))).json.id;
});
afterAll(async () => {
  await t.close();
});

async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of Object.values(schema)) {
    if (typeof table !== 'object' || !table || !('getSQL' in table)) continue;
    const name = getTableName(table as PgTable);
    const result = (await t.db.execute(sql.raw(`select count(*)::int as n from "${name}"`))) as unknown as {
      rows: { n: number }[];
    };
    out[name] = result.rows[0]?.n ?? -1;
  }
  return out;
}

function wrongValue(s: JsonSchema): unknown {
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (s.enum) return 'not-one-of-them';
  if (type === 'string') return 12345;
  if (type === 'number' || type === 'integer') return 'twelve';
  if (type === 'boolean') return 'yes';
  return 42;
}

test('every body field and query parameter refuses bad values with a 400 naming it', async () => {
  const doc = (await t.raw('GET', '/api/openapi.json')).json as Doc;
  const resolve = (s: JsonSchema): JsonSchema =>
    s.$ref ? (doc.components.schemas[s.$ref.split('/').pop() ?? ''] ?? {}) : s;
  const before = await counts();
  const failures: string[] = [];
  let checks = 0;
  for (const [rawPath, methods] of Object.entries(doc.paths)) {
    const path = rawPath
      .replace('{spaceId}', spaceId)
      .replace(/\{[a-zA-Z]+\}/g, (m) => (m === '{token}' ? 'x'.repeat(43) : '00000000-0000-4000-8000-000000000000'));
    for (const [method, op] of Object.entries(methods)) {
      const send = async (what: string, options: { body?: unknown; query?: string }, field: string | null) => {
        checks++;
        const res = await t.raw(method.toUpperCase(), `${path}${options.query ?? ''}`, {
          cookie,
          // Checkout's required header, so its body is what is checked; every other operation ignores it.
          headers: { 'idempotency-key': `bad-input-${checks}` },
          ...(options.body !== undefined ? { body: options.body } : {}),
        });
        const label = `${method.toUpperCase()} ${rawPath} ${what}: ${res.status} ${res.text.slice(0, 200)}`;
        if (res.status >= 500) failures.push(`5xx ${label}`);
        else if (res.status < 400 && field) failures.push(`accepted ${label}`);
        else if (res.status >= 400 && !res.json?.error?.code) failures.push(`shape ${label}`);
        else if (field && res.status === 400 && !res.json.error.fields?.[field])
          failures.push(`field not named ${label}`);
      };
      const bodySchema = op.requestBody?.content['application/json']?.schema;
      if (bodySchema) {
        const s = resolve(bodySchema);
        await send('broken JSON', { body: '{"a":' }, null);
        await send('array body', { body: [] }, null);
        for (const name of s.required ?? []) await send(`missing ${name}`, { body: {} }, name);
        for (const [name, prop] of Object.entries(s.properties ?? {})) {
          await send(`wrong type ${name}`, { body: { [name]: wrongValue(prop) } }, name);
          const type = Array.isArray(prop.type) ? prop.type[0] : prop.type;
          if (type === 'string' && !prop.enum) {
            if (prop.maxLength === undefined && !prop.format)
              failures.push(`unbounded string ${method} ${rawPath} ${name}`);
            await send(`oversized ${name}`, { body: { [name]: 'x'.repeat(20_000) } }, name);
          }
        }
      }
      for (const p of op.parameters ?? []) {
        if (p.in !== 'query') continue;
        const type = Array.isArray(p.schema.type) ? p.schema.type[0] : p.schema.type;
        const bad = p.schema.enum
          ? 'zzz'
          : type === 'integer' || type === 'number'
            ? 'abc'
            : p.schema.format
              ? 'not-a-value'
              : null;
        if (bad !== null) await send(`query ${p.name}=${bad}`, { query: `?${p.name}=${bad}` }, p.name);
        await send(`query ${p.name} oversized`, { query: `?${p.name}=${'y'.repeat(5000)}` }, p.name);
      }
    }
  }
  expect(failures).toEqual([]);
  expect(checks).toBeGreaterThan(80);
  expect(await counts()).toEqual(before);
});
