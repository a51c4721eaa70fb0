/**
 * The import takes every record the public data sets write: one record per ecosystem quirk, Go's zero
 * time read as unknown and ordered before every real time, on PGlite and PostgreSQL alike.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { goZeroModified, quirks } from '../../tests/fixtures/osv/quirks.ts';
import { BASE, createTestApi, ORIGIN, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
let cookie: string;
let spaceId: string;

beforeAll(async () => {
  t = await createTestApi();
  cookie = (await t.signUp('owner@example.com', 'Olive')).cookie;
  spaceId = (await t.read(t.api(cookie).spaces.$post({ json: { name: 'Library' } }))).json.id;
});
afterAll(async () => {
  await t.close();
});

const refs = () => `/api/spaces/${spaceId}/vuln-refs`;

async function importJson(body: unknown) {
  const res = await t.app.request(`${BASE}${refs()}`, {
    method: 'POST',
    headers: { cookie, origin: ORIGIN, 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely
  return { status: res.status, json: (await res.json()) as any };
}

const detail = (id: string) =>
  t.read(t.api(cookie).spaces[':spaceId']['vuln-refs'][':id'].$get({ param: { spaceId, id: encodeURIComponent(id) } }));

describe('every ecosystem’s records are taken as their data set writes them', () => {
  test.each(quirks)('$quirk', async ({ record, lands, answer }) => {
    const res = await importJson(record);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'done', refusedCount: 0, [lands]: 1 });
    expect(res.json.refused).toEqual([]);
    const shown = await detail(record.id as string);
    expect(shown.status).toBe(200);
    expect(shown.json).toMatchObject({
      modified: answer.modified,
      published: answer.published,
      withdrawn: answer.withdrawn,
    });
    expect(shown.json.affected.map((a: { matched: boolean }) => a.matched)).toEqual(answer.matched);
  });
});

describe('an unknown modified (Go’s zero time)', () => {
  const id = goZeroModified.id;
  const withModified = (modified: string, summary: string) => ({ ...goZeroModified, modified, summary });

  test('is older than every real time: a real one replaces it, it never replaces a real one', async () => {
    // The table above stored GO-2020-0001 with its zero time; the same file again changes nothing.
    expect((await importJson(goZeroModified)).json).toMatchObject({ imported: 0, updated: 0, unchanged: 1 });
    // Even a real time older than 1970 is newer than no time at all.
    const dated = await importJson(withModified('1969-07-20T20:17:40Z', 'dated'));
    expect(dated.json).toMatchObject({ updated: 1, unchanged: 0 });
    expect((await detail(id)).json).toMatchObject({ modified: '1969-07-20T20:17:40.000Z', summary: 'dated' });
    const back = await importJson(withModified('0001-01-01T00:00:00Z', 'zero again'));
    expect(back.json).toMatchObject({ updated: 0, unchanged: 1 });
    expect((await detail(id)).json.summary).toBe('dated');
    // Within one import the same order holds: the real time wins whichever comes first.
    const [a, b] = ['GO-2021-0061', 'GO-2021-0064'];
    const batch = await importJson([
      { ...goZeroModified, id: a, summary: 'a zero' },
      { ...goZeroModified, id: a, modified: '2024-05-01T00:00:00Z', summary: 'a real' },
      { ...goZeroModified, id: b, modified: '2024-05-01T00:00:00Z', summary: 'b real' },
      { ...goZeroModified, id: b, summary: 'b zero' },
    ]);
    expect(batch.json).toMatchObject({ imported: 2, unchanged: 2 });
    expect((await detail(a)).json.summary).toBe('a real');
    expect((await detail(b)).json.summary).toBe('b real');
  });

  test('lists after every dated record, and pages through its like one at a time', async () => {
    await importJson([
      { ...goZeroModified, id: 'GO-2022-0001' },
      { ...goZeroModified, id: 'GO-2022-0002' },
    ]);
    const list = await t.read(
      t.api(cookie).spaces[':spaceId']['vuln-refs'].$get({ param: { spaceId }, query: { limit: '200' } }),
    );
    const modified = list.json.items.map((item: { modified: string | null }) => item.modified);
    const firstUnknown = modified.indexOf(null);
    expect(firstUnknown).toBeGreaterThan(0);
    expect(modified.slice(firstUnknown).every((m: string | null) => m === null)).toBe(true);
    const unknownIds = list.json.items.slice(firstUnknown).map((item: { id: string }) => item.id);
    expect(unknownIds).toEqual(['GO-2024-3005', 'GO-2022-0002', 'GO-2022-0001']);
    const paged: string[] = [];
    let cursor = '';
    for (let page = 0; page < 20; page++) {
      const res = await t.raw('GET', `${refs()}?q=go-20&limit=1${cursor}`, { cookie });
      paged.push(...res.json.items.map((item: { id: string }) => item.id));
      if (!res.json.nextCursor) break;
      cursor = `&cursor=${res.json.nextCursor}`;
    }
    expect(paged.slice(-3)).toEqual(unknownIds);
    expect(new Set(paged).size).toBe(paged.length);
  });
});

describe('times the import still refuses, naming the field and the rule', () => {
  test.each([
    ['2024-03-01T10:00:00', 'Use an RFC 3339 time such as 2024-03-01T10:00:00Z.'],
    ['2016-12-31T23:59:60Z', 'Use an RFC 3339 time such as 2024-03-01T10:00:00Z.'],
    ['2024-02-30T00:00:00Z', 'Use an RFC 3339 time such as 2024-03-01T10:00:00Z.'],
    ['9999-12-31T23:30:00-01:00', 'Use a time before the year 10000.'],
  ])('modified %s', async (modified, rule) => {
    const res = await importJson({ ...goZeroModified, id: 'GO-2099-0001', modified });
    expect(res.json).toMatchObject({ imported: 0, refusedCount: 1 });
    expect(res.json.refused[0].reason).toBe(`modified: ${rule}`);
  });
});
