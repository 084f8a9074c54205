import { defineConfig, devices } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';

/** End-to-end tests run the built app exactly as `npm start` serves it, on ports of their own and a fresh data dir. */
export const E2E_WEB_PORT = Number(process.env.E2E_WEB_PORT ?? 3100);
export const E2E_API_PORT = Number(process.env.E2E_API_PORT ?? 8180);
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `stagedoor-e2e-${process.pid}`);
process.env.E2E_DATA_DIR = E2E_DATA_DIR;

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two files at a time against the one server, each test in a file after the one before it (a file's tests may build
  // on each other). The tests make their own fans and items, so files do not wait on each other; on two cores the
  // suite takes about 8 minutes instead of 10.5. E2E_WORKERS=1 runs them one at a time.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // One retry: a test that fails and then passes is reported by name as flaky at the end of `npm test` (with where
  // and why it failed), so it is seen and mended without one unlucky timing on a busy machine failing the run.
  // E2E_RETRIES=0 shows every failure at once while working on a test.
  retries: Number(process.env.E2E_RETRIES ?? 1),
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  globalSetup: './tests/e2e/global-setup.ts',
  use: {
    baseURL: `http://localhost:${E2E_WEB_PORT}`,
    launchOptions: { executablePath: chromium, args: chromiumArgs },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'node build/server/index.js',
    url: `http://localhost:${E2E_WEB_PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      APP_ENV: 'local',
      PORT: String(E2E_WEB_PORT),
      API_PORT: String(E2E_API_PORT),
      PUBLIC_API_URL: `http://localhost:${E2E_API_PORT}`,
      PUBLIC_WEB_URL: `http://localhost:${E2E_WEB_PORT}`,
      DATA_DIR: E2E_DATA_DIR,
      LOG_LEVEL: 'warn',
      // One node: no Redis, whatever the shell has. With it, rate limits would count across runs (for up to an hour).
      REDIS_URL: '',
      // The browsers' push service is stood in for by a name that never resolves (push.example): taken as it is.
      PUSH_ALLOW_HOSTS: 'push.example',
    },
  },
});
