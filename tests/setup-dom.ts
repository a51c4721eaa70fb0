// Testing Library matchers and automatic cleanup for island tests.
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { STORE_UNMOUNT_DELAY } from 'nanostores';
import { afterAll, afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// Stores unmount STORE_UNMOUNT_DELAY ms after their last listener leaves, and a persistent store then removes its
// window listener: let that happen while jsdom's window still exists, not after the environment is torn down.
afterAll(async () => {
  await new Promise((done) => setTimeout(done, STORE_UNMOUNT_DELAY + 50));
});
