/**
 * The page side of bench/lib/quiet-rounds.ts for benchmarks whose rounds loop inside a browser
 * page: the driver exposes `benchRoundStart`/`benchRoundEnd` (exposeQuietRounds), and the page
 * wraps each round in {@link quietRound}, so each waits for a quiet machine and gets its load
 * record. Outside such a driver (a page opened by hand) the round just runs.
 */
declare global {
  interface Window {
    benchRoundStart?: (label: string, timed?: boolean) => Promise<void>
    benchRoundEnd?: () => Promise<void>
  }
}

/** Runs one round between the driver's quiet wait and its end-of-round record. */
export async function quietRound<T>(
  label: string,
  run: () => Promise<T>,
  timed = true,
): Promise<T> {
  await window.benchRoundStart?.(label, timed)
  try {
    return await run()
  } finally {
    await window.benchRoundEnd?.()
  }
}
