// Testing Library matchers and automatic cleanup for island tests.
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { STORE_UNMOUNT_DELAY } from 'nanostores';
import { afterAll, afterEach } from 'vitest';

// Islands talk to a real API in these tests, and a tab or chart loads on first show: a `findBy…` waits for its
// condition up to 10 s (it returns as soon as the condition holds), so a loaded machine slows a test, never fails it.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// Stores unmount STORE_UNMOUNT_DELAY ms after their last listener leaves, and a persistent store then removes its
// window listener: let that happen while jsdom's window still exists, not after the environment is torn down.
afterAll(async () => {
  await new Promise((done) => setTimeout(done, STORE_UNMOUNT_DELAY + 50));
});
