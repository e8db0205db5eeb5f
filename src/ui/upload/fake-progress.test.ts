import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startFakeProgress, startFakeRowProgress } from './fake-progress'
import { uploadStore } from './upload-store'

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  vi.useRealTimers()
  uploadStore.close()
})

describe('startFakeProgress', () => {
  it('starts at 10 %, climbs one step per 16 ms tick and holds at 90 %', () => {
    const seen: number[] = []
    startFakeProgress((percent) => seen.push(percent))
    expect(seen).toEqual([10])
    vi.advanceTimersByTime(16)
    expect(seen).toEqual([10, 11])
    vi.advanceTimersByTime(16 * 79)
    expect(seen.at(-1)).toBe(90)
    expect(seen).toHaveLength(81)
    vi.advanceTimersByTime(10_000)
    expect(seen).toHaveLength(81)
  })

  it('stops when told, e.g. when the real answer arrives', () => {
    const seen: number[] = []
    const stop = startFakeProgress((percent) => seen.push(percent))
    vi.advanceTimersByTime(16 * 5)
    stop()
    vi.advanceTimersByTime(1000)
    expect(seen.at(-1)).toBe(15)
  })

  it('drives an upload-window row', () => {
    uploadStore.add({ id: 'tiles', name: 'tiles.zip', sizeBytes: 100 })
    startFakeRowProgress('tiles')
    expect(uploadStore.rows[0]).toMatchObject({ status: 'uploading', progressPercent: 10 })
    vi.advanceTimersByTime(16 * 100)
    expect(uploadStore.rows[0]?.progressPercent).toBe(90)
  })
})
