/**
 * The flooding client of the `hostile` benchmark (./hostile-bench.ts), in its own process: the
 * client measuring /web/health must not wait behind this one's event loop (encoding and writing
 * hundreds of kilobytes per request, reconnecting after refusals), or the bench would measure
 * the clients' contention rather than the server's. On `{ type: 'flood', port, count,
 * connections }` it sends `count` hostile requests, each waiting for its answer, and answers
 * `{ type: 'done', statusCounts, floodSeconds }`, or `{ type: 'failed', message }` on a 5xx.
 */
import { Agent } from 'node:http'
import { hostileRequests, send } from './hostile-requests'

interface FloodOrder {
  type: 'flood'
  port: number
  count: number
  connections: number
}

process.on('message', async (order: FloodOrder) => {
  if (order.type !== 'flood') return
  const agents = Array.from(
    { length: order.connections },
    () => new Agent({ keepAlive: true, maxSockets: 1 }),
  )
  const statusCounts: Record<string, number> = {}
  let sent = 0
  const startedAtMs = performance.now()
  try {
    await Promise.all(
      agents.map(async (agent, lane) => {
        while (sent < order.count) {
          const request = hostileRequests[(sent + lane) % hostileRequests.length]!
          sent++
          const status = await send(order.port, agent, request)
          const key = `${request.name} ${status}`
          statusCounts[key] = (statusCounts[key] ?? 0) + 1
          if (status >= 500) throw new Error(`${request.name} answered ${status}`)
        }
      }),
    )
    const floodSeconds = (performance.now() - startedAtMs) / 1000
    process.send?.({ type: 'done', statusCounts, floodSeconds })
  } catch (error) {
    process.send?.({ type: 'failed', message: (error as Error).message })
  } finally {
    for (const agent of agents) agent.destroy()
  }
})
process.send?.({ type: 'ready' })
