import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { crc32, inflateRawSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { crc32Combine, deflatePiece, finalBlock, sumOfPieces } from './deflated-pieces'

/**
 * The pieces a package entry is deflated from (the POI list deflated once for pois.json and the
 * viewer's data.js): one deflate stream when put one after the other, with the checksum and
 * size of the bytes they hold.
 */
describe('deflated pieces', () => {
  it('combines two checksums into the checksum of both runs of bytes', () => {
    const runs = [Buffer.alloc(0), Buffer.from('a'), randomBytes(1000), randomBytes(70_001)]
    for (const first of runs) {
      for (const second of runs) {
        expect(crc32Combine(crc32(first), crc32(second), second.byteLength)).toBe(
          crc32(Buffer.concat([first, second])),
        )
      }
    }
  })

  it('inflates pieces put one after the other back to the bytes they held, in order', async () => {
    const texts = [
      Buffer.from('window.twinscapePackage({"pois":'),
      Buffer.from(JSON.stringify(Array.from({ length: 5000 }, (_, index) => ({ index })))),
      Buffer.from('})\n'),
    ]
    const pieces = texts.map((text) => deflatePiece(Readable.from([text])))
    const deflated = await Promise.all(pieces.map((piece) => buffer(piece.deflated)))
    const sum = sumOfPieces(await Promise.all(pieces.map((piece) => piece.sum)))
    const whole = Buffer.concat(texts)
    expect(inflateRawSync(Buffer.concat([...deflated, finalBlock])).equals(whole)).toBe(true)
    expect(sum).toEqual({ crc32: crc32(whole), size: whole.byteLength })
  })

  it('fails the deflated bytes when the source fails', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('the database went away'))
      },
    })
    const piece = deflatePiece(failing)
    await expect(buffer(piece.deflated)).rejects.toThrow('the database went away')
    await expect(piece.sum).rejects.toThrow('the database went away')
  })
})
