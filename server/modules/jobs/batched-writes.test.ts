import { describe, expect, it } from 'vitest'
import { BatchedWrites } from './batched-writes'

describe('writes gathered into batches', () => {
  it('writes items added in one turn together, and those added meanwhile in the next', async () => {
    const batches: number[][] = []
    let release: () => void = () => {}
    const writes = new BatchedWrites<number>(async (items) => {
      batches.push(items)
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve))
    })
    const first = [writes.add(1), writes.add(2), writes.add(3)]
    // wait until the first batch is being written, then add while it is on its way
    while (batches.length === 0) await new Promise((resolve) => setImmediate(resolve))
    const later = [writes.add(4), writes.add(5)]
    release()
    await Promise.all([...first, ...later])
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ])
    await writes.flushed()
  })

  it('a failed write rejects only the items of its batch', async () => {
    let calls = 0
    const writes = new BatchedWrites<string>(async () => {
      calls++
      if (calls === 1) throw new Error('connection lost')
    })
    const lost = writes.add('a')
    await expect(lost).rejects.toThrow('connection lost')
    await expect(writes.add('b')).resolves.toBeUndefined()
    await writes.flushed()
    expect(calls).toBe(2)
  })
})
