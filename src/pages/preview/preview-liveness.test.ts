import { describe, expect, it } from 'vitest'
import { ApiError } from '../../api/client'
import {
  isLinkRefused,
  type LivenessState,
  livenessIntervalMs,
  retryDelayMs,
  watchLiveness,
} from './preview-liveness'

const refusal = (httpStatus: number) =>
  new ApiError({
    reason: 'server',
    httpStatus,
    envelope: { code: 'project.tokenWrongProject', message: 'no', datum: null },
    fallbackMessage: 'no',
  })
const dropped = new ApiError({
  reason: 'network',
  httpStatus: null,
  envelope: null,
  fallbackMessage: 'offline',
})

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('preview liveness', () => {
  it('tells a refused link from an unreachable server', () => {
    expect([401, 403, 404].map((status) => isLinkRefused(refusal(status)))).toEqual([
      true,
      true,
      true,
    ])
    expect(isLinkRefused(refusal(503))).toBe(false)
    expect(isLinkRefused(dropped)).toBe(false)
    expect(isLinkRefused(new TypeError('Failed to fetch'))).toBe(false)
  })

  it('backs off 2 s, 4 s, 8 s … up to a minute', () => {
    expect([0, 1, 2, 3, 10].map(retryDelayMs)).toEqual([2000, 4000, 8000, 16000, 60000])
  })

  it('stays live, goes offline and back while the network drops, and ends on a refusal', async () => {
    const answers: Array<'ok' | Error> = ['ok', dropped, dropped, 'ok', refusal(403)]
    const delays: number[] = []
    const pending: Array<() => void> = []
    const states: LivenessState[] = []
    watchLiveness(
      async () => {
        const answer = answers.shift()
        if (answer !== 'ok') throw answer
      },
      (state) => states.push(state),
      {
        setTimeout: (callback, delayMs) => {
          delays.push(delayMs)
          pending.push(callback)
          return callback
        },
        clearTimeout: () => {},
      },
    )
    for (let step = 0; step < 5; step++) {
      await settle()
      pending.shift()?.()
    }
    await settle()
    expect(states).toEqual(['live', 'offline', 'live', 'ended'])
    expect(delays).toEqual([livenessIntervalMs, 2000, 4000, livenessIntervalMs])
    expect(pending).toEqual([])
  })

  it('asks again at once when the network comes back while offline, not when live', async () => {
    const answers: Array<'ok' | Error> = ['ok', dropped, 'ok']
    const delays: number[] = []
    const pending = new Set<() => void>()
    const states: LivenessState[] = []
    let backOnline = () => {}
    let checks = 0
    const stop = watchLiveness(
      async () => {
        checks++
        const answer = answers.shift()
        if (answer !== 'ok') throw answer
      },
      (state) => states.push(state),
      {
        setTimeout: (callback, delayMs) => {
          delays.push(delayMs)
          pending.add(callback)
          return callback
        },
        clearTimeout: (handle) => pending.delete(handle as () => void),
        onBackOnline: (listener) => {
          backOnline = listener
          return () => {
            backOnline = () => {}
          }
        },
      },
    )
    await settle()
    // live: the network event changes nothing, the half-minute schedule stays
    backOnline()
    await settle()
    expect(checks).toBe(1)
    const [scheduled] = pending
    pending.clear()
    scheduled?.()
    await settle()
    expect(states).toEqual(['live', 'offline'])
    // offline with a retry due in 2 s: the network is back, the check runs now
    backOnline()
    await settle()
    expect(states).toEqual(['live', 'offline', 'live'])
    expect(checks).toBe(3)
    expect(delays).toEqual([livenessIntervalMs, 2000, livenessIntervalMs])
    // the cancelled retry is gone; only the live schedule waits
    expect(pending.size).toBe(1)
    stop()
    expect(pending.size).toBe(0)
  })
})
