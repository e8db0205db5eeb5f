/**
 * The flooding client of the `hostile` benchmark (./hostile-bench.ts), in its own process: the
 * client measuring /web/health must not wait behind this one's event loop (encoding and writing
 * hundreds of kilobytes per request, reconnecting after refusals), or the bench would measure
 * the clients' contention rather than the server's. On `{ type: 'flood', port, count,
 * addresses, requestsPerAddress }` it sends `count` hostile requests over one connection at a
 * time, each waiting for its answer, from the loopback `addresses` in turn (`requestsPerAddress`
 * each, then the next), and answers `{ type: 'done', statusCounts, floodSeconds }`, or
 * `{ type: 'failed', message }` on a 5xx.
 */
import { Agent } from 'node:http'
import { hostileRequests, send } from './hostile-requests'

interface FloodOrder {
  type: 'flood'
  port: number
  count: number
  addresses: string[]
  requestsPerAddress: number
}

process.on('message', async (order: FloodOrder) => {
  if (order.type !== 'flood') return
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const statusCounts: Record<string, number> = {}
  const startedAtMs = performance.now()
  try {
    for (let sent = 0; sent < order.count; sent++) {
      const request = hostileRequests[sent % hostileRequests.length]!
      const address =
        order.addresses[Math.floor(sent / order.requestsPerAddress) % order.addresses.length]!
      const status = await send(order.port, agent, request, address)
      const key = `${request.name} ${status}`
      statusCounts[key] = (statusCounts[key] ?? 0) + 1
      if (typeof status === 'number' && status >= 500) {
        throw new Error(`${request.name} answered ${status}`)
      }
    }
    const floodSeconds = (performance.now() - startedAtMs) / 1000
    process.send?.({ type: 'done', statusCounts, floodSeconds })
  } catch (error) {
    process.send?.({ type: 'failed', message: (error as Error).message })
  } finally {
    agent.destroy()
  }
})
process.send?.({ type: 'ready' })
