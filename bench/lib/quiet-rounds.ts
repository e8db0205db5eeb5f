import { readdirSync, readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'

/**
 * Honest rounds (issue 23.1): before each timed round a benchmark waits, up to a bound, for the
 * machine to be quiet, and records the load at the start and end of the round; a round during
 * which the machine was not quiet is `noisy`, and so is a result that has one.
 *
 * "Quiet" is judged from what *other* processes use, not from the load average: the 1-minute
 * load average lags by a minute and counts the benchmark's own previous round (a browser bench
 * keeps it near 2 on 2 cores by itself), so it would never fall below any useful threshold
 * between rounds. Instead the kernel's CPU counters (/proc/stat) are read over a short window
 * and this process tree's own CPU time (/proc/<pid>/stat of this process and every descendant:
 * Chromium, servers, child processes) is taken away; what is left is the other processes' use,
 * in cores. The load averages are still recorded at both ends of every round, as a second
 * opinion a reader knows.
 *
 * Settings (environment): `BENCH_QUIET_MAX_WAIT_S` (default 60; 0 = never wait, only record),
 * `BENCH_QUIET_SHARE` (default 0.25: quiet means others use at most this share of the cores).
 */

/** How quiet the machine must be and how long to wait for it. */
export interface QuietSettings {
  /** Longest wait before one round, in ms; after it the round runs anyway and is noisy. */
  maxWaitMs: number
  /** Others may use at most this share of all cores (0.25 on 2 cores = half a core). */
  othersShareAtMost: number
  /** Window over which others' use is measured while waiting, in ms. */
  sampleMs: number
}

/** The load around one round. */
export interface RoundLoad {
  label: string
  /** False for an unmeasured warm-up round: it waits for quiet too, but cannot make a result noisy. */
  timed: boolean
  /** How long the round waited for quiet before it started. */
  waitedMs: number
  /** Cores used by other processes in the last window before the round started. */
  othersCoresAtStart: number | null
  /** Cores used by other processes on average while the round ran. */
  othersCoresDuring: number | null
  loadAverageAtStart: number[]
  loadAverageAtEnd: number[]
  durationMs: number
  /** The machine was not quiet at the start or during the round. */
  noisy: boolean
}

/** The load record a result file carries (`load`), beside its top-level `noisy`. */
export interface LoadRecord {
  method: string
  cpuCount: number
  settings: QuietSettings
  /** others' cores must stay at or below this for a round to be quiet. */
  othersCoresAtMost: number
  /** Timed rounds, and how many of them were noisy (warm-ups are listed but not counted). */
  roundCount: number
  noisyRoundCount: number
  /** Longest and total time spent waiting for quiet. */
  longestWaitMs: number
  totalWaitMs: number
  /** Highest 1-minute load average seen at any round's start or end. */
  highestLoadAverage: number
  rounds: RoundLoad[]
}

/** Reads the settings from the environment (see the module comment). */
export function quietSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): QuietSettings {
  const maxWaitS = Number(env.BENCH_QUIET_MAX_WAIT_S ?? 60)
  const share = Number(env.BENCH_QUIET_SHARE ?? 0.25)
  return {
    maxWaitMs: Number.isFinite(maxWaitS) && maxWaitS >= 0 ? maxWaitS * 1000 : 60_000,
    othersShareAtMost: Number.isFinite(share) && share > 0 ? share : 0.25,
    sampleMs: 1000,
  }
}

/** CPU time in clock ticks: all cores busy, all cores total, and this process tree's. */
interface CpuCounters {
  busyTicks: number
  totalTicks: number
  oursTicks: number
  atMs: number
}

function systemTicks(): { busy: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!
    // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest is in user).
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1, 9)
      .map(Number) as number[]
    const busy = user! + nice! + system! + irq! + softirq! + steal!
    return { busy, total: busy + idle! + iowait! }
  } catch {
    return null
  }
}

/** utime + stime (+ reaped children's) of this process and every live descendant, in ticks. */
export function processTreeTicks(rootPid: number): number {
  const parentOf = new Map<number, number>()
  const ticksOf = new Map<number, number>()
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isInteger(pid)) continue
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      // Fields after the command name, which may itself hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      parentOf.set(pid, Number(fields[1]))
      // utime stime cutime cstime: an exited child's time moves into its parent's c-fields.
      ticksOf.set(
        pid,
        Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]),
      )
    } catch {
      // The process ended while the table was read.
    }
  }
  let total = 0
  for (const [pid, ticks] of ticksOf) {
    let ancestor: number | undefined = pid
    for (let depth = 0; ancestor !== undefined && ancestor > 1 && depth < 64; depth++) {
      if (ancestor === rootPid) {
        total += ticks
        break
      }
      ancestor = parentOf.get(ancestor)
    }
  }
  return total
}

function readCounters(): CpuCounters | null {
  const system = systemTicks()
  if (!system) return null
  return {
    busyTicks: system.busy,
    totalTicks: system.total,
    oursTicks: processTreeTicks(process.pid),
    atMs: performance.now(),
  }
}

/** Cores other processes used between two readings (never below 0: counters tick unevenly). */
function othersCoresBetween(start: CpuCounters, end: CpuCounters, cpuCount: number): number {
  const totalTicks = end.totalTicks - start.totalTicks
  if (totalTicks <= 0) return 0
  const othersTicks = end.busyTicks - start.busyTicks - (end.oursTicks - start.oursTicks)
  return Math.round(Math.max(0, (othersTicks / totalTicks) * cpuCount) * 100) / 100
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const loadNow = () => loadavg().map((value) => Math.round(value * 100) / 100)

/**
 * The rounds of one benchmark run: call {@link beforeRound} right before each timed round (it
 * waits for quiet) and {@link afterRound} right after it, or wrap the round in {@link round};
 * put {@link record} in the result (writeBenchResult does). Untimed warm-up rounds may use it
 * too: they then wait for quiet as well, which keeps the timed round after them honest.
 */
export class QuietRounds {
  readonly settings: QuietSettings
  private readonly cpuCount = cpus().length
  private readonly rounds: RoundLoad[] = []
  private current: {
    label: string
    timed: boolean
    waitedMs: number
    othersAtStart: number | null
    counters: CpuCounters | null
    loadAtStart: number[]
  } | null = null

  constructor(settings: QuietSettings = quietSettingsFromEnv()) {
    this.settings = settings
  }

  /** The most other processes may use (in cores) for the machine to count as quiet. */
  get othersCoresAtMost(): number {
    return this.settings.othersShareAtMost * this.cpuCount
  }

  /** Waits (bounded) until others' use over one window is quiet, then starts the round's record. */
  async beforeRound(label: string, timed = true): Promise<void> {
    if (this.current) this.afterRound()
    const startedAtMs = performance.now()
    let othersAtStart: number | null = null
    for (;;) {
      const before = readCounters()
      if (!before) break
      await sleep(this.settings.sampleMs)
      const after = readCounters()
      if (!after) break
      othersAtStart = othersCoresBetween(before, after, this.cpuCount)
      if (othersAtStart <= this.othersCoresAtMost) break
      if (performance.now() - startedAtMs + this.settings.sampleMs > this.settings.maxWaitMs) break
    }
    this.current = {
      label,
      timed,
      waitedMs: Math.round(performance.now() - startedAtMs),
      othersAtStart,
      counters: readCounters(),
      loadAtStart: loadNow(),
    }
  }

  /** Ends the round started by {@link beforeRound} and returns its record. */
  afterRound(): RoundLoad {
    const current = this.current
    if (!current) throw new Error('afterRound without beforeRound')
    this.current = null
    const end = readCounters()
    const othersDuring =
      current.counters && end ? othersCoresBetween(current.counters, end, this.cpuCount) : null
    const limit = this.othersCoresAtMost
    const round: RoundLoad = {
      label: current.label,
      timed: current.timed,
      waitedMs: current.waitedMs,
      othersCoresAtStart: current.othersAtStart,
      othersCoresDuring: othersDuring,
      loadAverageAtStart: current.loadAtStart,
      loadAverageAtEnd: loadNow(),
      durationMs: Math.round(end && current.counters ? end.atMs - current.counters.atMs : 0),
      // Without /proc nothing is known, so nothing can be called quiet.
      noisy:
        current.othersAtStart === null ||
        othersDuring === null ||
        current.othersAtStart > limit ||
        othersDuring > limit,
    }
    this.rounds.push(round)
    return round
  }

  /** Runs one round between {@link beforeRound} and {@link afterRound}. */
  async round<T>(label: string, run: () => Promise<T> | T, timed = true): Promise<T> {
    await this.beforeRound(label, timed)
    try {
      return await run()
    } finally {
      this.afterRound()
    }
  }

  /** The record of every round so far, for the result file. */
  record(): LoadRecord {
    if (this.current) this.afterRound()
    const waits = this.rounds.map((round) => round.waitedMs)
    return {
      method:
        'others = CPU ticks of all cores (/proc/stat) minus this process tree (/proc/<pid>/stat), in cores; load averages recorded beside',
      cpuCount: this.cpuCount,
      settings: this.settings,
      othersCoresAtMost: this.othersCoresAtMost,
      roundCount: this.rounds.filter((round) => round.timed).length,
      noisyRoundCount: this.rounds.filter((round) => round.timed && round.noisy).length,
      longestWaitMs: Math.max(0, ...waits),
      totalWaitMs: waits.reduce((sum, wait) => sum + wait, 0),
      highestLoadAverage: Math.max(
        0,
        ...this.rounds.flatMap((round) => [
          round.loadAverageAtStart[0]!,
          round.loadAverageAtEnd[0]!,
        ]),
      ),
      rounds: this.rounds,
    }
  }
}

/** The part of a playwright Page that {@link exposeQuietRounds} uses. */
export interface QuietRoundsPage {
  exposeFunction(name: string, callback: (...args: never[]) => unknown): Promise<unknown>
}

/**
 * For benchmarks whose rounds loop inside a browser page: exposes `benchRoundStart(label)` and
 * `benchRoundEnd()` to the page (bench/lib/page-rounds.ts calls them), so the page waits for
 * quiet from Node while it is idle itself. Call before `page.goto`.
 */
export async function exposeQuietRounds(page: QuietRoundsPage, rounds: QuietRounds): Promise<void> {
  await page.exposeFunction('benchRoundStart', (label: string, timed?: boolean) =>
    rounds.beforeRound(label, timed ?? true),
  )
  await page.exposeFunction('benchRoundEnd', () => {
    rounds.afterRound()
  })
}
