/**
 * Reads a Chromium trace (playwright's `browser.startTracing`/`stopTracing`) for what wall
 * clocks cannot tell on a shared machine: how much CPU each thread really used. A task that took
 * 60 ms of wall time but 1 ms of CPU was a page waiting for a core, not code blocking it.
 */

/**
 * Categories to record: top-level tasks with thread CPU times, microtask checkpoints
 * (`v8.execute`: in a worker, the promise jobs after an `await` run in `RunMicrotasks` events
 * outside any top-level task, so without them most of a worker's JS is missing), and
 * performance.mark().
 */
export const traceCategories = ['toplevel', 'v8.execute', 'blink.user_timing']

/**
 * True for the events whose CPU is a thread's own work: top-level tasks and microtask
 * checkpoints (nested ones are dropped by the callers, so nothing counts twice).
 */
function isTopLevelWork(event: TraceEvent): boolean {
  if (event.ph !== 'X') return false
  const categories = event.cat?.split(',') ?? []
  return (
    categories.includes('toplevel') ||
    (event.name === 'RunMicrotasks' && categories.includes('v8.execute'))
  )
}

interface TraceEvent {
  name: string
  cat?: string
  ph: string
  pid: number
  tid: number
  ts: number
  dur?: number
  tdur?: number
  args?: { name?: string }
}

/** CPU and blocking of the page's threads between two marks. */
export interface TraceWindow {
  /** CPU of the page's main thread and its dedicated workers (ms). */
  rendererCpuMs: number
  /** The main thread's longest task by wall time (ms), which includes waiting for a core. */
  longestMainTaskWallMs: number
  /** The main thread's longest task by its own CPU time (ms): what the page's code blocked. */
  longestMainTaskCpuMs: number
}

/**
 * Measures every window between the marks `<prefix>start:<label>` and `<prefix>end:<label>`
 * made with
 * `performance.mark` in the page; returns the windows by label.
 */
export function measureTraceWindows(traceJson: string, prefix: string): Map<string, TraceWindow> {
  const parsed = JSON.parse(traceJson) as { traceEvents: TraceEvent[] } | TraceEvent[]
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents
  const threadNames = new Map<string, string>()
  for (const event of events) {
    if (event.ph === 'M' && event.name === 'thread_name') {
      threadNames.set(`${event.pid}:${event.tid}`, event.args?.name ?? '')
    }
  }
  const starts = new Map<string, TraceEvent>()
  const ends = new Map<string, number>()
  for (const event of events) {
    if (!event.cat?.includes('blink.user_timing') || !event.name.startsWith(prefix)) continue
    const rest = event.name.slice(prefix.length)
    const separator = rest.indexOf(':')
    const kind = rest.slice(0, separator)
    const label = rest.slice(separator + 1)
    if (kind === 'start') starts.set(label, event)
    else if (kind === 'end') ends.set(label, event.ts)
  }
  const pagePid = starts.values().next().value?.pid
  // Top-level work of the page's renderer threads (tasks, and microtask checkpoints that run
  // outside any task event), outermost only: nested events would count the same CPU twice.
  const tasks = events
    .filter((event) => event.pid === pagePid && isTopLevelWork(event))
    .map((event) => ({ event, thread: threadNames.get(`${event.pid}:${event.tid}`) ?? '' }))
    .filter(({ thread }) => thread === 'CrRendererMain' || thread.startsWith('DedicatedWorker'))
    .sort((a, b) => a.event.ts - b.event.ts)
  const outermost: typeof tasks = []
  const openUntil = new Map<number, number>()
  for (const task of tasks) {
    if ((openUntil.get(task.event.tid) ?? 0) > task.event.ts) continue
    openUntil.set(task.event.tid, task.event.ts + (task.event.dur ?? 0))
    outermost.push(task)
  }

  const windows = new Map<string, TraceWindow>()
  for (const [label, start] of starts) {
    const endTs = ends.get(label)
    if (endTs === undefined) continue
    let rendererCpuUs = 0
    let longestWallUs = 0
    let longestCpuUs = 0
    for (const { event, thread } of outermost) {
      const wallUs = event.dur ?? 0
      const overlapUs = Math.min(endTs, event.ts + wallUs) - Math.max(start.ts, event.ts)
      if (overlapUs <= 0) continue
      // A task straddling the window's edge counts in proportion to its part inside.
      const cpuUs = (event.tdur ?? 0) * (wallUs > 0 ? overlapUs / wallUs : 1)
      rendererCpuUs += cpuUs
      if (thread === 'CrRendererMain') {
        longestWallUs = Math.max(longestWallUs, wallUs)
        longestCpuUs = Math.max(longestCpuUs, event.tdur ?? 0)
      }
    }
    windows.set(label, {
      rendererCpuMs: rendererCpuUs / 1000,
      longestMainTaskWallMs: longestWallUs / 1000,
      longestMainTaskCpuMs: longestCpuUs / 1000,
    })
  }
  return windows
}

/**
 * CPU time (ms) of every thread of every Chromium process inside each window between the marks
 * `<prefix>start:<label>` and `<prefix>end:<label>`, keyed `<process>/<thread>` (dedicated
 * workers numbered in the order they first ran, e.g. `Renderer/DedicatedWorker thread#2`), so a
 * load's cost shows where it ran: the page's main thread, its workers, the network service, the
 * browser's IO thread, the GPU process. Threads with under 0.05 ms are left out.
 */
export function measureThreadCpu(
  traceJson: string,
  prefix: string,
): Map<string, Record<string, number>> {
  const parsed = JSON.parse(traceJson) as { traceEvents: TraceEvent[] } | TraceEvent[]
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents
  const processNames = new Map<number, string>()
  const threadNames = new Map<string, string>()
  for (const event of events) {
    if (event.ph !== 'M') continue
    if (event.name === 'process_name') processNames.set(event.pid, event.args?.name ?? '')
    if (event.name === 'thread_name') {
      threadNames.set(`${event.pid}:${event.tid}`, event.args?.name ?? '')
    }
  }
  const starts = new Map<string, number>()
  const ends = new Map<string, number>()
  for (const event of events) {
    if (!event.cat?.includes('blink.user_timing') || !event.name.startsWith(prefix)) continue
    const rest = event.name.slice(prefix.length)
    const separator = rest.indexOf(':')
    const label = rest.slice(separator + 1)
    if (rest.slice(0, separator) === 'start') starts.set(label, event.ts)
    else ends.set(label, event.ts)
  }
  // Outermost top-level events per thread (nested ones would count the same CPU twice).
  const tasks = events.filter(isTopLevelWork).sort((a, b) => a.ts - b.ts)
  const workerNumbers = new Map<string, number>()
  const keyOf = (event: TraceEvent) => {
    const threadKey = `${event.pid}:${event.tid}`
    let thread = threadNames.get(threadKey) ?? `tid ${event.tid}`
    if (thread.startsWith('DedicatedWorker')) {
      if (!workerNumbers.has(threadKey)) workerNumbers.set(threadKey, workerNumbers.size + 1)
      thread = `${thread}#${workerNumbers.get(threadKey)}`
    }
    return `${processNames.get(event.pid) ?? `pid ${event.pid}`}/${thread}`
  }
  const outermost: { event: TraceEvent; key: string }[] = []
  const openUntil = new Map<string, number>()
  for (const event of tasks) {
    const threadKey = `${event.pid}:${event.tid}`
    if ((openUntil.get(threadKey) ?? 0) > event.ts) continue
    openUntil.set(threadKey, event.ts + (event.dur ?? 0))
    outermost.push({ event, key: keyOf(event) })
  }
  const windows = new Map<string, Record<string, number>>()
  for (const [label, startTs] of starts) {
    const endTs = ends.get(label)
    if (endTs === undefined) continue
    const cpuUsByThread = new Map<string, number>()
    for (const { event, key } of outermost) {
      const wallUs = event.dur ?? 0
      const overlapUs = Math.min(endTs, event.ts + wallUs) - Math.max(startTs, event.ts)
      if (overlapUs <= 0) continue
      const cpuUs = (event.tdur ?? 0) * (wallUs > 0 ? overlapUs / wallUs : 1)
      cpuUsByThread.set(key, (cpuUsByThread.get(key) ?? 0) + cpuUs)
    }
    windows.set(
      label,
      Object.fromEntries(
        [...cpuUsByThread]
          .filter(([, cpuUs]) => cpuUs >= 50)
          .sort((a, b) => b[1] - a[1])
          .map(([key, cpuUs]) => [key, Math.round(cpuUs / 10) / 100]),
      ),
    )
  }
  return windows
}
