import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  createUrlSigner,
  deferredUrlSigner,
  readerGrantStepMs,
  signingKeyOfText,
  tokenGrantStepMs,
} from './url-signer'

describe('the URL signer', () => {
  it('keeps addresses stable for a while, expires them, and ties each to one resource', () => {
    const key = randomBytes(32)
    const signer = createUrlSigner(key)
    const nowMs = Date.parse('2026-11-26T01:00:00Z')
    const grant = signer.grant('tiles/a/b', null, nowMs)
    expect(signer.grant('tiles/a/b', null, nowMs + 60_000)).toBe(grant)
    expect(signer.verify('tiles/a/b', grant, nowMs + readerGrantStepMs - 1)).toEqual({
      scope: null,
    })
    expect(signer.verify('tiles/a/b', grant, nowMs + 2 * readerGrantStepMs)).toBeUndefined()
    expect(signer.verify('tiles/a/c', grant, nowMs)).toBeUndefined()
    expect(signer.verify('tiles/a/b', `${grant.slice(0, -2)}xx`, nowMs)).toBeUndefined()
    // a restarted server (or another one with the same key) accepts it; another key not
    expect(createUrlSigner(Buffer.from(key)).verify('tiles/a/b', grant, nowMs)).toEqual({
      scope: null,
    })
    expect(createUrlSigner(randomBytes(32)).verify('tiles/a/b', grant, nowMs)).toBeUndefined()
  })

  it('binds a token holder’s address to the token, for a shorter time', () => {
    const signer = createUrlSigner(randomBytes(32))
    const nowMs = Date.parse('2026-11-26T01:00:00Z')
    const tokenId = '6f1c4d2e-8a0b-4c3d-9e2f-1a2b3c4d5e6f'
    const grant = signer.grant('model:x:1', tokenId, nowMs)
    expect(signer.verify('model:x:1', grant, nowMs)).toEqual({ scope: tokenId })
    expect(signer.verify('model:x:1', grant, nowMs + 2 * tokenGrantStepMs)).toBeUndefined()
    // the scope is signed: swapping it for "signed-in reader" breaks the signature
    const [expiry, , signature] = grant.split('.')
    expect(signer.verify('model:x:1', `${expiry}.-.${signature}`, nowMs)).toBeUndefined()
  })

  it('signs nothing before its key is loaded, then as a signer with that key', () => {
    const signer = deferredUrlSigner()
    const nowMs = Date.parse('2026-11-26T01:00:00Z')
    expect(() => signer.grant('tiles/a/b', null, nowMs)).toThrow(/not loaded/)
    const key = randomBytes(32)
    signer.load(key)
    const grant = signer.grant('tiles/a/b', null, nowMs)
    expect(createUrlSigner(key).verify('tiles/a/b', grant, nowMs)).toEqual({ scope: null })
  })

  it('reads a configured key as hex or base64 of at least 32 bytes', () => {
    const key = randomBytes(32)
    expect(signingKeyOfText(key.toString('hex'))).toEqual(key)
    expect(signingKeyOfText(key.toString('base64'))).toEqual(key)
    expect(signingKeyOfText(key.toString('base64url'))).toEqual(key)
    expect(signingKeyOfText(randomBytes(31).toString('base64'))).toBeUndefined()
    expect(signingKeyOfText('correct horse battery staple correct horse')).toBeUndefined()
    expect(signingKeyOfText('')).toBeUndefined()
  })
})
