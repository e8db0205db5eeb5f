import { describe, expect, it } from 'vitest'
import { type KioskSoakOutcome, kioskSoakFailures } from './kiosk-soak-verdict'

const resources = { geometries: 10, textures: 5, programs: 4 }
const met: KioskSoakOutcome = {
  heapGrowthPercent: 1.94,
  gpuResources: { first: resources, last: resources },
  uncaughtErrors: [],
  contextLosses: 0,
  isDrawnAtEnd: true,
  recoveredAfterOfflineAndRestart: true,
}

describe('kiosk soak verdict (R8, what fails CI)', () => {
  it('passes a run that met every goal, also one that lost its context and came back', () => {
    expect(kioskSoakFailures(met)).toEqual([])
    expect(kioskSoakFailures({ ...met, contextLosses: 2 })).toEqual([])
    expect(kioskSoakFailures({ ...met, recoveredAfterOfflineAndRestart: null })).toEqual([])
  })

  it('fails heap growth over 5 % and any growth of live GPU resources past 5 %', () => {
    expect(kioskSoakFailures({ ...met, heapGrowthPercent: 5.01 })).toEqual([
      'JS heap grew 5.01 % after the first tour (at most 5 %)',
    ])
    // CI's short run bounds the heap more loosely (its growth is mostly warm-up), GPU alike
    expect(kioskSoakFailures({ ...met, heapGrowthPercent: 9 }, 25)).toEqual([])
    expect(kioskSoakFailures({ ...met, heapGrowthPercent: 30 }, 25)).toEqual([
      'JS heap grew 30 % after the first tour (at most 25 %)',
    ])
    const last = { ...resources, textures: 6 }
    expect(kioskSoakFailures({ ...met, gpuResources: { first: resources, last } })).toEqual([
      'live GPU textures grew from 5 to 6 (at most 5 %)',
    ])
  })

  it('fails uncaught errors, a lost context that did not come back, and no recovery after the cut', () => {
    expect(
      kioskSoakFailures({
        ...met,
        uncaughtErrors: ['boom', 'again'],
        contextLosses: 1,
        isDrawnAtEnd: false,
        recoveredAfterOfflineAndRestart: false,
      }),
    ).toEqual([
      '2 uncaught error(s), first: boom',
      'the WebGL context was lost 1 time(s) and the scene did not come back',
      'the preview did not come back live after the network cut and the server restart',
    ])
  })
})
