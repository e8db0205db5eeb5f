import { describe, expect, it } from 'vitest'
import type { ConversionDatum } from '../../api/building'
import { createBatchQueue, zipEntryNames } from './batch-queue'

const datumOf = (name: string) =>
  ({ uuid: name, sbmName: `${name}.sbm`, downloadName: `${name}.sbm` }) as ConversionDatum

/** A converter the test answers by hand, one file at a time. */
function handConverter() {
  const pending: Array<{
    name: string
    resolve(datum: ConversionDatum): void
    reject(e: unknown): void
  }> = []
  const convert = (file: File) =>
    new Promise<ConversionDatum>((resolve, reject) =>
      pending.push({ name: file.name, resolve, reject }),
    )
  return { pending, convert }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('batch conversion queue', () => {
  it('converts one file at a time, goes on after a failure, and retries failures', async () => {
    const converter = handConverter()
    const queue = createBatchQueue(converter.convert)
    queue.add(['a.dae', 'b.fbx', 'c.glb'].map((name) => new File(['x'], name)))
    expect(converter.pending.map((call) => call.name)).toEqual(['a.dae'])
    converter.pending.shift()!.resolve(datumOf('a'))
    await settle()
    expect(converter.pending.map((call) => call.name)).toEqual(['b.fbx'])
    converter.pending.shift()!.reject(new Error('refused'))
    await settle()
    converter.pending.shift()!.resolve(datumOf('c'))
    await settle()
    expect(queue.store.get().map((item) => item.state)).toEqual([
      'succeeded',
      'failed',
      'succeeded',
    ])

    queue.retry()
    expect(queue.store.get()[1]!.state).toBe('uploading')
    converter.pending.shift()!.resolve(datumOf('b'))
    await settle()
    expect(queue.store.get().every((item) => item.state === 'succeeded')).toBe(true)
  })

  it('names ZIP entries so that none replaces another', () => {
    expect(zipEntryNames(['duck.sbm', 'Duck.sbm', 'box.sbm', 'duck.sbm'])).toEqual([
      'duck.sbm',
      'Duck (2).sbm',
      'box.sbm',
      'duck (3).sbm',
    ])
  })
})
