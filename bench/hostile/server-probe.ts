/**
 * What a server process of the `hostile` benchmark reports to the bench over IPC (shared by
 * ./hostile-server.ts and ./hostile-floor-server.ts), so that both are measured alike:
 * `memory` → process.memoryUsage(), `gc` → a full collection first (run with --expose-gc),
 * `cpu` → the CPU time used so far (user + system, ms), `probe-start` → starts a window,
 * `probe` → what happened in the window ({@link ProbeWindow}), `close` → `onClose` and exit.
 */
import type { Server } from 'node:http'
import { readFileSync } from 'node:fs'
import { type IntervalHistogram, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks'

/** What the server process did during one window (between `probe-start` and `probe`). */
export interface ProbeWindow {
  seconds: number
  /** Event-loop delay (a 1 ms-resolution timer's lateness): p50, p99, max in ms. */
  eventLoopDelayMs: { p50: number; p99: number; max: number }
  /** Garbage collections: count, total and longest pause (ms). */
  gc: { count: number; totalMs: number; maxMs: number }
  /** CPU used in the window: user (JavaScript, parsing) and system (the kernel's socket work), ms. */
  cpuMs: { user: number; system: number }
  /** Time the main thread waited for a core while runnable, and its time on a core (ms; /proc schedstat). */
  scheduler: RunQueue | null
  connections: number
  requests: number
  /** Time in the server from a health request's arrival to its answer written: p50, p99, max (ms). */
  healthInServerMs: { count: number; p50: number; p99: number; max: number }
}

/** The main thread's time on a core and waiting for one, from /proc/<pid>/schedstat (ms). */
export interface RunQueue {
  onCoreMs: number
  waitingMs: number
  slices: number
}

/** Reads /proc/<pid>/schedstat (Linux; null elsewhere). */
export function readRunQueue(pid: number | 'self' = 'self'): RunQueue | null {
  try {
    const [onCore = 0, waiting = 0, slices = 0] = readFileSync(`/proc/${pid}/schedstat`, 'utf8')
      .trim()
      .split(' ')
      .map(Number)
    return { onCoreMs: onCore / 1e6, waitingMs: waiting / 1e6, slices }
  } catch {
    return null
  }
}

/** `after` − `before`, field by field. */
export function runQueueSince(before: RunQueue | null, after: RunQueue | null): RunQueue | null {
  if (before === null || after === null) return null
  return {
    onCoreMs: Math.round(after.onCoreMs - before.onCoreMs),
    waitingMs: Math.round(after.waitingMs - before.waitingMs),
    slices: after.slices - before.slices,
  }
}

const round2 = (value: number) => Math.round(value * 100) / 100

/** Nearest-rank percentile of sorted values. */
const sortedPercentile = (sorted: number[], fraction: number) =>
  sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!

/** Answers the bench's IPC messages for the process serving `server`. */
export function answerBenchProbes(server: Server, onClose: () => Promise<void>): void {
  let histogram: IntervalHistogram | undefined
  let gc = { count: 0, totalMs: 0, maxMs: 0 }
  let connections = 0
  let requests = 0
  let healthMs: number[] = []
  let startedAtMs = performance.now()
  let cpuBefore = process.cpuUsage()
  let runQueueBefore = readRunQueue()
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count++
      gc.totalMs += entry.duration
      gc.maxMs = Math.max(gc.maxMs, entry.duration)
    }
  })
  server.on('connection', () => {
    connections++
  })
  server.prependListener('request', (request, response) => {
    requests++
    if (!request.url?.startsWith('/web/health')) return
    const arrivedAtMs = performance.now()
    response.once('finish', () => healthMs.push(performance.now() - arrivedAtMs))
  })

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
    } else if (message.type === 'probe-start') {
      histogram?.disable()
      histogram = monitorEventLoopDelay({ resolution: 1 })
      histogram.enable()
      gcObserver.disconnect()
      gc = { count: 0, totalMs: 0, maxMs: 0 }
      gcObserver.observe({ entryTypes: ['gc'] })
      connections = 0
      requests = 0
      healthMs = []
      startedAtMs = performance.now()
      cpuBefore = process.cpuUsage()
      runQueueBefore = readRunQueue()
      process.send?.({ type: 'probe-started' })
    } else if (message.type === 'probe') {
      histogram?.disable()
      gcObserver.disconnect()
      const cpu = process.cpuUsage(cpuBefore)
      const sorted = [...healthMs].sort((a, b) => a - b)
      const window: ProbeWindow = {
        seconds: round2((performance.now() - startedAtMs) / 1000),
        eventLoopDelayMs: {
          p50: round2((histogram?.percentile(50) ?? 0) / 1e6),
          p99: round2((histogram?.percentile(99) ?? 0) / 1e6),
          max: round2((histogram?.max ?? 0) / 1e6),
        },
        gc: { count: gc.count, totalMs: round2(gc.totalMs), maxMs: round2(gc.maxMs) },
        cpuMs: { user: Math.round(cpu.user / 1000), system: Math.round(cpu.system / 1000) },
        scheduler: runQueueSince(runQueueBefore, readRunQueue()),
        connections,
        requests,
        healthInServerMs: {
          count: sorted.length,
          p50: round2(sortedPercentile(sorted, 0.5)),
          p99: round2(sortedPercentile(sorted, 0.99)),
          max: round2(sorted.at(-1) ?? 0),
        },
      }
      process.send?.({ type: 'probe', window })
    } else if (message.type === 'close') {
      await onClose()
      process.exit(0)
    }
  })
}
