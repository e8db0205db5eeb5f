/**
 * The server side of the `hostile` benchmark (./hostile-bench.ts): the real app on a fresh
 * SQLite database in a temporary folder, listening on 127.0.0.1, in its own process so that its
 * memory is measured apart from the clients'. It answers the parent's IPC messages:
 * `memory` → process.memoryUsage(), `gc` → a full collection first (run with --expose-gc),
 * `cpu` → the CPU time the process used so far (user + system, ms),
 * `close` → closes the app and exits.
 */
import type { AddressInfo } from 'node:net'
import { createTestApp } from '../../server/testing/test-app'

const testApp = await createTestApp()
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
