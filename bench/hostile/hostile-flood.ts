/**
 * The flooding client of the `hostile` benchmark (./hostile-bench.ts), in its own process: the
 * client measuring /web/health must not wait behind this one's event loop (encoding and writing
 * hundreds of kilobytes per request, reconnecting after refusals), or the bench would measure
 * the clients' contention rather than the server's. On `{ type: 'flood', port, count,
 * maxSeconds, addresses, requestsPerAddress }` it sends hostile requests over one connection at
 * a time, each as soon as the previous one is answered (as fast as the server lets it), from the
 * loopback `addresses` in turn (`requestsPerAddress` each, then the next), until `count` are
 * answered or `maxSeconds` have passed, and answers `{ type: 'done', statusCounts, floodSeconds,
 * sent, connections, cpuMs, scheduler }`, or `{ type: 'failed', message }` on a 5xx.
 */
import { Agent } from 'node:http'
import { readRunQueue, runQueueSince } from './server-probe'
import { hostileRequests, send } from './hostile-requests'

interface FloodOrder {
  type: 'flood'
  port: number
  count: number
  maxSeconds: number
  addresses: string[]
  requestsPerAddress: number
  /** Connections sending at once, each request as soon as its previous one is answered (1). */
  connections?: number
}

process.on('message', async (order: FloodOrder) => {
  if (order.type !== 'flood') return
  const statusCounts: Record<string, number> = {}
  const counts = { connections: 0 }
  const startedAtMs = performance.now()
  const cpuBefore = process.cpuUsage()
  const runQueueBefore = readRunQueue()
  let sent = 0
  const agents: Agent[] = []
  /** One connection's loop: the next request as soon as its previous one is answered. */
  const sendInTurn = async (agent: Agent) => {
    while (sent < order.count && performance.now() - startedAtMs <= order.maxSeconds * 1000) {
      const index = sent++
      const request = hostileRequests[index % hostileRequests.length]!
      const address =
        order.addresses[Math.floor(index / order.requestsPerAddress) % order.addresses.length]!
      const status = await send(order.port, agent, request, address, counts)
      const key = `${request.name} ${status}`
      statusCounts[key] = (statusCounts[key] ?? 0) + 1
      if (typeof status === 'number' && status >= 500) {
        throw new Error(`${request.name} answered ${status}`)
      }
    }
  }
  try {
    for (let i = 0; i < (order.connections ?? 1); i++) {
      agents.push(new Agent({ keepAlive: true, maxSockets: 1 }))
    }
    await Promise.all(agents.map(sendInTurn))
    const cpu = process.cpuUsage(cpuBefore)
    process.send?.({
      type: 'done',
      statusCounts,
      floodSeconds: (performance.now() - startedAtMs) / 1000,
      sent,
      connections: counts.connections,
      cpuMs: { user: Math.round(cpu.user / 1000), system: Math.round(cpu.system / 1000) },
      scheduler: runQueueSince(runQueueBefore, readRunQueue()),
    })
  } catch (error) {
    process.send?.({ type: 'failed', message: (error as Error).message })
  } finally {
    for (const agent of agents) agent.destroy()
  }
})
process.send?.({ type: 'ready' })
