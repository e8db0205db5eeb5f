import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DownloadError, fetchWithProgress } from './fetch-with-progress'

/** A real HTTP server: one file sent in chunks, with and without Content-Length. */
const body = new Uint8Array(300_000).map((_, index) => (index * 7) % 251)
let server: Server
let baseUrl = ''

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/missing') {
      response.writeHead(404).end()
      return
    }
    const headers: Record<string, string> = { 'content-type': 'application/octet-stream' }
    if (request.url === '/sized') headers['content-length'] = String(body.byteLength)
    response.writeHead(200, headers)
    // Several writes, so the reader sees several chunks.
    for (let start = 0; start < body.byteLength; start += 64 * 1024) {
      response.write(body.subarray(start, start + 64 * 1024))
    }
    response.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('fetchWithProgress', () => {
  it('returns the exact bytes and reports growing progress up to the total', async () => {
    const reports: [number, number][] = []
    const buffer = await fetchWithProgress(`${baseUrl}/sized`, {
      onProgress: (done, total) => reports.push([done, total]),
    })
    expect(new Uint8Array(buffer)).toEqual(body)
    expect(reports[0]).toEqual([0, body.byteLength])
    expect(reports.at(-1)).toEqual([body.byteLength, body.byteLength])
    for (let index = 1; index < reports.length; index++) {
      expect(reports[index]![0]).toBeGreaterThanOrEqual(reports[index - 1]![0])
    }
  })

  it('uses the expected size when the server sends no Content-Length, and grows past it', async () => {
    const reports: [number, number][] = []
    const buffer = await fetchWithProgress(`${baseUrl}/chunked`, {
      expectedSizeBytes: 100_000,
      onProgress: (done, total) => reports.push([done, total]),
    })
    expect(buffer.byteLength).toBe(body.byteLength)
    expect(new Uint8Array(buffer)).toEqual(body)
    expect(reports[0]).toEqual([0, 100_000])
    expect(reports.every(([done, total]) => done <= total)).toBe(true)
  })

  it('fails with a DownloadError on an HTTP error or an unreachable server', async () => {
    await expect(fetchWithProgress(`${baseUrl}/missing`)).rejects.toThrow(DownloadError)
    await expect(fetchWithProgress(`${baseUrl}/missing`)).rejects.toThrow(/HTTP 404/)
    await expect(fetchWithProgress('http://127.0.0.1:9/model.sbm')).rejects.toThrow(DownloadError)
  })
})
