/**
 * Ten worst-case searches at once must not take the service down: the health check and a sign-in
 * started after them answer before they are all done, on PostgreSQL (searches have their own pool) and on PGlite
 * (on a worker thread, one search at a time). Past the search queue, the answer is 503 with Retry-After.
 * Asserted as an order of answers, never as a time.
 */
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createTestApi, type TestApi } from '../test/harness.ts';
import { insertEvents, worstQuery } from '../test/worst-searches.ts';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const postgres = Boolean(process.env.TEST_DATABASE_URL);
/** Enough events that one worst-case search takes a while on either backend. */
const EVENTS = postgres ? 100_000 : 12_000;

let t: TestApi;
let cookie: string;
let spaceId: string;
const email = 'load@example.test';

beforeAll(async () => {
  t = await createTestApi({ thread: true });
  ({ cookie } = await t.signUp(email));
  const space = await t.read(t.api(cookie).spaces.$post({ json: { name: 'Load' } }));
  spaceId = space.json.id;
  const source = await t.read(
    t.api(cookie).spaces[':spaceId'].sources.$post({ param: { spaceId }, json: { name: 'waf', kind: 'json' } }),
  );
  expect(source.status, source.text).toBe(201);
  await insertEvents(t.db, spaceId, source.json.id, EVENTS);
});

afterAll(async () => {
  await t?.close();
});

test('the worst query the budget allows parses; one more term of either kind is refused with 400 naming the limit', async () => {
  const ok = await t.read(
    t.api(cookie).spaces[':spaceId'].events.$get({ param: { spaceId }, query: { limit: '1', q: worstQuery() } }),
  );
  expect(ok.status, ok.text).toBe(200);
  const more = await t.read(
    t.api(cookie).spaces[':spaceId'].events.$get({ param: { spaceId }, query: { q: `${worstQuery()} OR "one more"` } }),
  );
  expect(more.status).toBe(400);
  expect(more.json.error.code).toBe('query_limit');
  expect(more.json.error.fields.q).toMatch(/at most/);
});

test('during ten worst-case searches, /api/health and a sign-in started after them answer before the searches are done', async () => {
  const finished: string[] = [];
  const q = worstQuery();
  const searches = Array.from({ length: 10 }, (_, i) =>
    t
      .read(
        t
          .api(cookie)
          .spaces[':spaceId'].events.facets.$get({ param: { spaceId }, query: { q, from: '2000-01-01T00:00:00Z' } }),
      )
      .then((res) => {
        finished.push(`search ${i}`);
        return res;
      }),
  );
  // The searches are in the lane (or refused) before the next two start.
  await new Promise((resolve) => setTimeout(resolve, 50));
  // The API document needs no database: it answers at once unless the process itself is frozen.
  const document = t.raw('GET', '/api/openapi.json').then((res) => {
    finished.push('document');
    return res;
  });
  const health = t.read(t.api().health.$get()).then((res) => {
    finished.push('health');
    return res;
  });
  const signIn = t.read(t.api().auth.login.$post({ json: { email, password: 'correct horse 42' } })).then((res) => {
    finished.push('sign-in');
    return res;
  });
  const [documentAnswer, healthAnswer, signInAnswer, ...answers] = await Promise.all([
    document,
    health,
    signIn,
    ...searches,
  ]);
  expect(documentAnswer.status).toBe(200);
  expect(healthAnswer.status).toBe(200);
  expect(signInAnswer.status, signInAnswer.text).toBe(200);

  // Each search answered: with its facets, stopped past its budget (400), or refused because the queue was full.
  for (const answer of answers) {
    if (answer.status === 503) {
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.json.error.code).toBe('search_busy');
    } else if (answer.status === 400) expect(answer.json.error.code).toBe('query_timeout');
    else expect(answer.status, answer.text).toBe(200);
  }
  const accepted = answers.filter((answer) => answer.status !== 503).length;
  expect(accepted).toBeGreaterThan(1);

  // The order: health and sign-in are not queued behind the searches that were accepted.
  const lastSearch = Math.max(
    ...finished.flatMap((name, index) =>
      name.startsWith('search') && answers[Number(name.split(' ')[1])]?.status !== 503 ? [index] : [],
    ),
  );
  expect(finished.indexOf('health'), finished.join(', ')).toBeLessThan(lastSearch);
  expect(finished.indexOf('sign-in'), finished.join(', ')).toBeLessThan(lastSearch);
  const firstSearch = finished.findIndex(
    (name) => name.startsWith('search') && answers[Number(name.split(' ')[1])]?.status !== 503,
  );
  // The process is never frozen by a search (PGlite runs on a worker thread).
  expect(finished.indexOf('document'), finished.join(', ')).toBeLessThan(firstSearch);
  if (postgres) {
    // With a pool of their own, health and sign-in do not even wait for the first search.
    expect(finished.indexOf('health'), finished.join(', ')).toBeLessThan(firstSearch);
    expect(finished.indexOf('sign-in'), finished.join(', ')).toBeLessThan(firstSearch);
  }
});
