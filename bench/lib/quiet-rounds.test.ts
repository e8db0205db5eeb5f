import { describe, expect, it } from 'vitest'
import { QuietRounds, quietSettingsFromEnv } from './quiet-rounds'

describe('quiet rounds', () => {
  it('reads its bounds from the environment, falling back on nonsense', () => {
    expect(quietSettingsFromEnv({ BENCH_QUIET_MAX_WAIT_S: '5', BENCH_QUIET_SHARE: '0.5' })).toEqual(
      { maxWaitMs: 5000, othersShareAtMost: 0.5, sampleMs: 1000 },
    )
    expect(
      quietSettingsFromEnv({ BENCH_QUIET_MAX_WAIT_S: 'soon', BENCH_QUIET_SHARE: '-1' }),
    ).toEqual({ maxWaitMs: 60_000, othersShareAtMost: 0.25, sampleMs: 1000 })
  })

  it('records the load around every round; warm-ups wait but do not count', async () => {
    // A limit no machine reaches: every round is quiet, so the record itself is what is tested.
    const rounds = new QuietRounds({ maxWaitMs: 0, othersShareAtMost: 1000, sampleMs: 20 })
    await rounds.round('warm-up', () => undefined, false)
    const value = await rounds.round('round 1', async () => 42)
    expect(value).toBe(42)
    const record = rounds.record()
    expect(record.roundCount).toBe(1)
    expect(record.noisyRoundCount).toBe(0)
    expect(record.rounds.map((round) => [round.label, round.timed])).toEqual([
      ['warm-up', false],
      ['round 1', true],
    ])
    for (const round of record.rounds) {
      expect(round.loadAverageAtStart).toHaveLength(3)
      expect(round.loadAverageAtEnd).toHaveLength(3)
      expect(round.othersCoresAtStart).toBeGreaterThanOrEqual(0)
      expect(round.othersCoresDuring).toBeGreaterThanOrEqual(0)
      expect(round.noisy).toBe(false)
    }
  })

  it('gives up waiting after the bound and calls the round noisy when others were above the limit', async () => {
    const rounds = new QuietRounds({ maxWaitMs: 0, othersShareAtMost: 1e-6, sampleMs: 100 })
    await rounds.beforeRound('bounded')
    const round = rounds.afterRound()
    // One measuring window, not more: the bound is 0.
    expect(round.waitedMs).toBeLessThan(1000)
    const limit = rounds.othersCoresAtMost
    expect(round.noisy).toBe(round.othersCoresAtStart! > limit || round.othersCoresDuring! > limit)
    expect(rounds.record().noisyRoundCount).toBe(round.noisy ? 1 : 0)
  })
})
