/**
 * The server side of the `hostile` benchmark (./hostile-bench.ts): the real app on a fresh
 * SQLite database in a temporary folder with the production budget of refused requests per
 * client, listening on 127.0.0.1, in its own process so that its
 * memory is measured apart from the clients'. It answers the parent's IPC messages:
 * `memory` → process.memoryUsage(), `gc` → a full collection first (run with --expose-gc),
 * `cpu` → the CPU time the process used so far (user + system, ms),
 * `close` → closes the app and exits.
 */
import type { AddressInfo } from 'node:net'
import { loadConfig } from '../../server/config'
import { createTestApp } from '../../server/testing/test-app'

// The budget of refused requests per client as in production (the test app turns it off).
const { refusalBudget } = loadConfig({})
const testApp = await createTestApp({
  env: {
    REFUSED_REQUESTS_BURST: String(refusalBudget.burst),
    REFUSED_REQUESTS_PER_MINUTE: String(refusalBudget.perMinute),
  },
})
await testApp.app.listen({ host: '127.0.0.1', port: Number(process.env.HOSTILE_PORT) || 0 })
const { port } = testApp.app.server.address() as AddressInfo

process.on('message', async (message: { type: string }) => {
  if (message.type === 'gc' || message.type === 'memory') {
    if (message.type === 'gc') {
      // Twice: the first pass may only queue finalizers that free more on the second.
      globalThis.gc?.()
      globalThis.gc?.()
    }
    process.send?.({ type: 'memory', memory: process.memoryUsage() })
  } else if (message.type === 'cpu') {
    const { user, system } = process.cpuUsage()
    process.send?.({ type: 'cpu', cpuMs: (user + system) / 1000 })
  } else if (message.type === 'close') {
    await testApp.close()
    process.exit(0)
  }
})
process.send?.({ type: 'ready', port })
