import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

// `gc` in every isolate made from here on, worker threads' too (as node --expose-gc)
setFlagsFromString('--expose-gc')

/**
 * A full collection of this thread's heap, so a memory sample shows what is held, not garbage
 * that happens not to be collected yet.
 */
export const forceGc = runInNewContext('gc') as () => void

/**
 * The growth a least-squares line through the samples predicts from the first sample's time to
 * the last's: a sawtooth of collections and caches filling and emptying has none, a leak has.
 */
export function fittedGrowth(samples: readonly { x: number; y: number }[]): number | null {
  if (samples.length < 3) return null
  const meanX = samples.reduce((sum, sample) => sum + sample.x, 0) / samples.length
  const meanY = samples.reduce((sum, sample) => sum + sample.y, 0) / samples.length
  let covariance = 0
  let variance = 0
  for (const sample of samples) {
    covariance += (sample.x - meanX) * (sample.y - meanY)
    variance += (sample.x - meanX) ** 2
  }
  if (variance === 0) return 0
  return (covariance / variance) * (samples.at(-1)!.x - samples[0]!.x)
}
