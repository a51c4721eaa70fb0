/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';
import { configDefaults } from 'vitest/config';
import { apiTestProjects } from './tests/test-projects.ts';

/**
 * Three projects: browser-side units and islands in jsdom (`site`); the API's and contracts' tests that never open a
 * database (`node`: compiler, parsers, connector, contract…); those that do (`db`), which `npm run test:api:pg` runs
 * again on PostgreSQL. tests/test-projects.ts decides from each file's imports; `node tests/test-projects.ts` says why.
 */
const api = apiTestProjects();
// Inert unless SG_REAL_CLOCK_SHIFT_DAYS is set (`npm run test:clock`).
const realClockShift = './tests/real-clock-shift.ts';

export default getViteConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: on CI's 2 cores that is one file at a time.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'site',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['./tests/setup-dom.ts'],
          // Room for the waits of tests/setup-dom.ts on a loaded machine; a passing test takes what it needs.
          testTimeout: 30_000,
          globals: true,
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: api.node,
          setupFiles: [realClockShift],
          globals: true,
        },
      },
      {
        extends: true,
        test: {
          name: 'db',
          environment: 'node',
          include: api.db,
          setupFiles: [realClockShift],
          // `*.pg.test.ts` needs a PostgreSQL server: it runs in `npm run test:api:pg` only.
          exclude: [...configDefaults.exclude, ...(process.env.TEST_DATABASE_URL ? [] : ['**/*.pg.test.ts'])],
          globals: true,
        },
      },
    ],
  },
});
