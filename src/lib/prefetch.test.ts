import { expect, test } from 'vitest';
import { createPrefetchQueue, isSlowConnection, prefetchTarget } from './prefetch.ts';

test('never runs more than 4 loads at once and loads each URL once', async () => {
  const pending: Array<() => void> = [];
  let running = 0;
  let peak = 0;
  const started: string[] = [];
  const queue = createPrefetchQueue((url) => {
    started.push(url);
    running += 1;
    peak = Math.max(peak, running);
    return new Promise<void>((resolve) =>
      pending.push(() => {
        running -= 1;
        resolve();
      }),
    );
  });
  for (let index = 0; index < 10; index += 1) queue.add(`/page/${index}`);
  queue.add('/page/0');
  expect(started).toHaveLength(4);
  while (pending.length > 0) {
    pending.shift()?.();
    await Promise.resolve();
    await Promise.resolve();
    await Promise.resolve();
  }
  expect(peak).toBe(4);
  expect(started).toHaveLength(10);
});

test.each([
  [undefined, false],
  [{ effectiveType: '4g' }, false],
  [{ effectiveType: '3g' }, false],
  [{ effectiveType: '2g' }, true],
  [{ effectiveType: 'slow-2g' }, true],
  [{ effectiveType: '4g', saveData: true }, true],
])('connection %o is slow: %s', (connection, expected) => {
  expect(isSlowConnection(connection)).toBe(expected);
});

test.each([
  ['/console/abc', '/console/abc'],
  ['/spaces?x=1', '/spaces?x=1'],
  ['https://elsewhere.example/', null],
  ['/favicon.svg', null],
  ['/', null],
])('link %s prefetches %s', (href, expected) => {
  const anchor = document.createElement('a');
  anchor.href = href;
  expect(prefetchTarget(anchor, window.location)).toBe(expected);
});
