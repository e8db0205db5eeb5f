import { defineConfig } from '@playwright/test'
import { chromiumArgs, chromiumExecutablePath } from './tools/chromium'

/**
 * End-to-end: the production build (`npm run build` → dist/web) served by the real server on a
 * fresh SQLite database, driven in Debian's Chromium with SwiftShader WebGL.
 */
const port = Number(process.env.E2E_PORT ?? 18080)
export const e2eAdmin = { name: 'admin', password: 'e2e-Admin-pass-2026' }

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: '.tmp/e2e-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: chromiumExecutablePath, args: chromiumArgs },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: 'rm -rf .tmp/e2e-data && node --import tsx server/serve.ts',
    url: `http://127.0.0.1:${port}/web/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: '.tmp/e2e-data',
      ADMIN_NAME: e2eAdmin.name,
      ADMIN_PASSWORD: e2eAdmin.password,
      LOG_LEVEL: 'warn',
      // specs serve online map styles from 127.0.0.1 (e2e/support/map-upstream.ts); production
      // never lets the map proxy reach loopback (docs/configuration.md)
      MAP_PROXY_HOSTS: '127.0.0.1',
      MAP_PROXY_TEST_PRIVATE_ADDRESSES: '127.0.0.1',
      // every spec's browser is the one address 127.0.0.1, and the refusal specs send bad input
      // on purpose: a person's budget (60) would turn their later requests into 429s
      REFUSED_REQUESTS_BURST: '10000',
    },
  },
})
