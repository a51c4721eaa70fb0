import { atom } from 'nanostores';
import { afterEach, expect, test, vi } from 'vitest';
import { apiResource, apiStore, clearApiCacheForTests, invalidateApi } from './fetcher.ts';

afterEach(() => clearApiCacheForTests());

/** Waits until the store holds data, and returns it. */
async function loaded<T>(store: { get: () => { data?: T; loading: boolean } }): Promise<T | undefined> {
  await vi.waitFor(() => expect(store.get().loading).toBe(false));
  return store.get().data;
}

test('invalidating a store refetches it and every store of its resource name, and no other', async () => {
  const page = atom('1');
  let lists = 0;
  let others = 0;
  const $list = apiStore('test-list', [page], async (value) => `list ${value} #${++lists}`);
  const $sameName = apiStore('test-list', ['open'], async () => `open #${++lists}`);
  const $other = apiStore('test-other', [], async () => `other #${++others}`);
  const stop = [$list.listen(() => {}), $sameName.listen(() => {}), $other.listen(() => {})];
  await loaded($list);
  await loaded($sameName);
  await loaded($other);
  expect([lists, others]).toEqual([2, 1]);

  invalidateApi($list);
  await vi.waitFor(() => expect(lists).toBe(4));
  expect(others).toBe(1);
  for (const unsubscribe of stop) unsubscribe();
});

test('a family key invalidates the stores made under it', async () => {
  const family = apiResource('test-family');
  let loads = 0;
  const $member = apiStore(family, ['a'], async () => ++loads);
  const stop = $member.listen(() => {});
  await loaded($member);
  invalidateApi(family);
  await vi.waitFor(() => expect(loads).toBe(2));
  stop();
});
