import { defineConfig, devices } from '@playwright/test';
import { E2E_PORT as PORT } from './tests/e2e/base-url.ts';

/** One server for the whole suite: the built site served by the project's own server, as `npm start` does. */

/** A fresh embedded database per run, in memory: nothing is left behind in the temporary directory. */
const DATA_DIR = process.env.E2E_DATA_DIR ?? 'memory://';

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  forbidOnly: true,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    },
  },
  webServer: {
    command: 'node server/start.js',
    env: { PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR, PUBLIC_URL: `http://127.0.0.1:${PORT}` },
    url: `http://127.0.0.1:${PORT}/_build/latest.json`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
