import { defineConfig } from '@playwright/test'
import base from './playwright.config'

/**
 * The e2e suite through two server processes (issue 22 item 2): the same specs, their requests
 * sent in turn to two `serve.ts` processes on one PostgreSQL (E2E_DATABASE_URL) by a proxy
 * (e2e/support/two-processes.ts). `npx playwright test -c playwright.two-processes.config.ts`;
 * ports E2E_PORT and E2E_SECOND_PORT for the processes, E2E_PROXY_PORT for the proxy.
 */
const proxyPort = Number(process.env.E2E_PROXY_PORT ?? 18082)
const baseServer = Array.isArray(base.webServer) ? base.webServer[0] : base.webServer

export default defineConfig({
  ...base,
  use: { ...base.use, baseURL: `http://127.0.0.1:${proxyPort}` },
  webServer: {
    ...baseServer,
    command: 'rm -rf .tmp/e2e-data && node --import tsx e2e/support/two-processes.ts',
    url: `http://127.0.0.1:${proxyPort}/web/health`,
    // the processes' "listening" lines are how the launcher knows they started
    stdout: 'ignore',
  },
})
