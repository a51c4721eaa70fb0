/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';
import { configDefaults } from 'vitest/config';

/** Two projects: browser-side units and islands in jsdom, the API and contracts in Node. */
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
          globals: true,
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          environment: 'node',
          include: [
            'server/**/*.test.ts',
            'contract/**/*.test.ts',
            'site-config/**/*.test.ts',
            'tests/*.test.ts',
            'bench/crs-regression/*.test.ts',
          ],
          // Inert unless SG_REAL_CLOCK_SHIFT_DAYS is set (`npm run test:clock`).
          setupFiles: ['./tests/real-clock-shift.ts'],
          // `*.pg.test.ts` needs a PostgreSQL server: it runs in `npm run test:api:pg` only.
          exclude: [...configDefaults.exclude, ...(process.env.TEST_DATABASE_URL ? [] : ['**/*.pg.test.ts'])],
          globals: true,
        },
      },
    ],
  },
});
