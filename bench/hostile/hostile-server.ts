/**
 * The server side of the `hostile` benchmark (./hostile-bench.ts): the real app on a fresh
 * SQLite database in a temporary folder with the production budget of refused requests per
 * client, listening on 127.0.0.1, in its own process so that its
 * memory is measured apart from the clients'. It answers the parent's IPC messages
 * (./server-probe.ts).
 */
import type { AddressInfo } from 'node:net'
import { loadConfig } from '../../server/config'
import { createTestApp } from '../../server/testing/test-app'
import { answerBenchProbes } from './server-probe'

// The budget of refused requests per client as in production (the test app turns it off).
const { refusalBudget } = loadConfig({})
const testApp = await createTestApp({
  env: {
    REFUSED_REQUESTS_BURST: String(refusalBudget.burst),
    REFUSED_REQUESTS_PER_MINUTE: String(refusalBudget.perMinute),
    REFUSED_REQUESTS_HOLD_MS: String(refusalBudget.holdMs),
  },
})
await testApp.app.listen({ host: '127.0.0.1', port: Number(process.env.HOSTILE_PORT) || 0 })
const { port } = testApp.app.server.address() as AddressInfo

answerBenchProbes(testApp.app.server, () => testApp.close())
process.send?.({ type: 'ready', port })
