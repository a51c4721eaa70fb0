/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';

/** Two projects: browser-side units and islands in jsdom, the API and contracts in Node. */
export default getViteConfig({
  test: {
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
          globals: true,
        },
      },
    ],
  },
});
