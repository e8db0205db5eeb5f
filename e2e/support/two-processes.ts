import { startTwoProcesses } from '../../server/testing/two-processes'

/**
 * The server of `playwright.two-processes.config.ts`: two `server/serve.ts` processes on one
 * PostgreSQL schema (new, dropped at the end) and the e2e DATA_DIR, behind the alternating
 * proxy (server/testing/two-processes.ts), so every spec's requests go to both in turn. Runs
 * until Playwright stops it. The processes take the variables Playwright passes (ADMIN_NAME …).
 */
const databaseUrl = process.env.E2E_DATABASE_URL ?? process.env.DATABASE_URL
if (databaseUrl === undefined || !databaseUrl.startsWith('postgres')) {
  process.stderr.write('two processes need E2E_DATABASE_URL (or DATABASE_URL): postgres://…\n')
  process.exit(1)
}
const portOf = (name: string, fallback: number) => Number(process.env[name] ?? fallback)

const pair = await startTwoProcesses({
  databaseUrl,
  dataDir: process.env.DATA_DIR ?? '.tmp/e2e-data',
  ports: [portOf('E2E_PORT', 18080), portOf('E2E_SECOND_PORT', 18081)],
  proxyPort: portOf('E2E_PROXY_PORT', 18082),
})
process.stdout.write(`two server processes behind ${pair.baseUrl}\n`)
let isClosing = false
const close = () => {
  if (isClosing) return
  isClosing = true
  const served = pair.served.join(' / ')
  pair.close().then(
    () => {
      process.stderr.write(`requests served by the two processes: ${served}\n`)
      process.exit(0)
    },
    () => process.exit(1),
  )
}
process.on('SIGTERM', close)
process.on('SIGINT', close)
