import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFileStorage } from '../../plugins/storage'
import { isNotModified, parseRange, sendStoredFile } from './send-file'

describe('byte ranges', () => {
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

describe('conditional requests (what a CDN or reverse proxy revalidates with)', () => {
  const etag = '"abc"'
  const modifiedMs = Date.UTC(2026, 0, 2, 3, 4, 5, 678)

  it('matches the tag strongly or weakly, or any tag for *', () => {
    expect(isNotModified({ 'if-none-match': '"abc"' }, etag, modifiedMs)).toBe(true)
    expect(isNotModified({ 'if-none-match': 'W/"abc"' }, etag, modifiedMs)).toBe(true)
    expect(isNotModified({ 'if-none-match': '"x", "abc"' }, etag, modifiedMs)).toBe(true)
    expect(isNotModified({ 'if-none-match': '*' }, etag, modifiedMs)).toBe(true)
    expect(isNotModified({ 'if-none-match': '"abd"' }, etag, modifiedMs)).toBe(false)
  })

  it('uses If-Modified-Since only without If-None-Match, to the second', () => {
    const stamp = new Date(modifiedMs).toUTCString()
    expect(isNotModified({ 'if-modified-since': stamp }, etag, modifiedMs)).toBe(true)
    const earlier = new Date(modifiedMs - 1000).toUTCString()
    expect(isNotModified({ 'if-modified-since': earlier }, etag, modifiedMs)).toBe(false)
    expect(isNotModified({ 'if-modified-since': 'yesterday' }, etag, modifiedMs)).toBe(false)
    expect(
      isNotModified({ 'if-none-match': '"other"', 'if-modified-since': stamp }, etag, modifiedMs),
    ).toBe(false)
  })
})

describe('a stored file as a cache sees it', () => {
  const app = Fastify()
  let folder: string
  let sha256: string

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'served-files-'))
    const storage = await createFileStorage(folder)
    sha256 = (await storage.put(Buffer.from('tile bytes'))).sha256
    app.get('/file', (request, reply) =>
      sendStoredFile(request, reply, storage, {
        sha256,
        contentType: 'application/octet-stream',
        cacheControl: 'public, max-age=31536000, immutable',
      }),
    )
  })
  afterAll(async () => {
    await app.close()
    await rm(folder, { recursive: true, force: true })
  })

  it('answers immutable with its hash as ETag, a Last-Modified, and no Vary', async () => {
    const answer = await app.inject({ method: 'GET', url: '/file' })
    expect(answer.statusCode).toBe(200)
    expect(answer.body).toBe('tile bytes')
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(answer.headers.etag).toBe(`"${sha256}"`)
    expect(answer.headers.vary).toBeUndefined()
    const lastModified = String(answer.headers['last-modified'])
    expect(Number.isNaN(Date.parse(lastModified))).toBe(false)

    for (const headers of [
      { 'if-none-match': `W/"${sha256}"` },
      { 'if-modified-since': lastModified },
    ]) {
      const again = await app.inject({ method: 'GET', url: '/file', headers })
      expect(again.statusCode).toBe(304)
      expect(again.body).toBe('')
      expect(again.headers.etag).toBe(`"${sha256}"`)
      expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    }
  })
})
