import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openUrlSigner, readerGrantStepMs, tokenGrantStepMs } from './url-signer'

describe('the URL signer', () => {
  let folder: string | undefined
  afterEach(async () => {
    if (folder) await rm(folder, { recursive: true, force: true })
  })

  it('keeps addresses stable for a while, expires them, and ties each to one resource', async () => {
    folder = await mkdtemp(join(tmpdir(), 'signer-'))
    const keyFile = join(folder, 'keys', 'url-signing.key')
    const signer = openUrlSigner(keyFile)
    expect((await stat(keyFile)).mode & 0o077).toBe(0)
    const nowMs = Date.parse('2026-11-26T01:00:00Z')
    const grant = signer.grant('tiles/a/b', null, nowMs)
    expect(signer.grant('tiles/a/b', null, nowMs + 60_000)).toBe(grant)
    expect(signer.verify('tiles/a/b', grant, nowMs + readerGrantStepMs - 1)).toEqual({
      scope: null,
    })
    expect(signer.verify('tiles/a/b', grant, nowMs + 2 * readerGrantStepMs)).toBeUndefined()
    expect(signer.verify('tiles/a/c', grant, nowMs)).toBeUndefined()
    expect(signer.verify('tiles/a/b', `${grant.slice(0, -2)}xx`, nowMs)).toBeUndefined()
    // a restarted server (or a second one on the same data folder) accepts it; another key not
    expect(openUrlSigner(keyFile).verify('tiles/a/b', grant, nowMs)).toEqual({ scope: null })
    expect(
      openUrlSigner(join(folder, 'other.key')).verify('tiles/a/b', grant, nowMs),
    ).toBeUndefined()
  })

  it('binds a token holder’s address to the token, for a shorter time', async () => {
    folder = await mkdtemp(join(tmpdir(), 'signer-'))
    const signer = openUrlSigner(join(folder, 'key'))
    const nowMs = Date.parse('2026-11-26T01:00:00Z')
    const tokenId = '6f1c4d2e-8a0b-4c3d-9e2f-1a2b3c4d5e6f'
    const grant = signer.grant('model:x:1', tokenId, nowMs)
    expect(signer.verify('model:x:1', grant, nowMs)).toEqual({ scope: tokenId })
    expect(signer.verify('model:x:1', grant, nowMs + 2 * tokenGrantStepMs)).toBeUndefined()
    // the scope is signed: swapping it for "signed-in reader" breaks the signature
    const [expiry, , signature] = grant.split('.')
    expect(signer.verify('model:x:1', `${expiry}.-.${signature}`, nowMs)).toBeUndefined()
  })
})
