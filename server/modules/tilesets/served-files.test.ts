import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseRange } from './send-file'
import { grantStepMs, openUrlSigner } from './served-files'

describe('signed addresses and ranges', () => {
  const folders: string[] = []
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true })
  })

  it('grants expire between one and two steps later and bind the resource', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'signer-'))
    folders.push(folder)
    const signer = await openUrlSigner(join(folder, 'key'), folder)
    const nowMs = Date.parse('2026-11-26T01:00:00Z')
    const grant = signer.grant('tiles/a/b', nowMs)
    expect(signer.grant('tiles/a/b', nowMs + 60_000)).toBe(grant)
    expect(signer.verify('tiles/a/b', grant, nowMs + grantStepMs - 1)).toBe(true)
    expect(signer.verify('tiles/a/b', grant, nowMs + 2 * grantStepMs)).toBe(false)
    expect(signer.verify('tiles/a/c', grant, nowMs)).toBe(false)
    expect(signer.verify('tiles/a/b', `${grant.slice(0, -2)}xx`, nowMs)).toBe(false)
    // a second server on the same data folder accepts it, a server with another key does not
    expect(
      (await openUrlSigner(join(folder, 'key'), folder)).verify('tiles/a/b', grant, nowMs),
    ).toBe(true)
    expect(
      (await openUrlSigner(join(folder, 'other-key'), folder)).verify('tiles/a/b', grant, nowMs),
    ).toBe(false)
  })

  it('parses single byte ranges as RFC 9110 says', () => {
    expect(parseRange(undefined, 100)).toBeUndefined()
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 })
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 })
    expect(parseRange('bytes=95-200', 100)).toEqual({ start: 95, end: 99 })
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 })
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 })
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable')
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable')
    expect(parseRange('bytes=0-1,5-6', 100)).toBeUndefined()
    expect(parseRange('items=0-1', 100)).toBeUndefined()
  })
})
