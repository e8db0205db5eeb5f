import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import {
  collectContentReferences,
  detectTileFormat,
  isGzip,
  parseTilesetJson,
  peelGzipHead,
  resolveInArchive,
  summarizeTileset,
  TilesetJsonError,
} from './tileset-json'

const bytes = (text: string) => new TextEncoder().encode(text)

describe('tileset JSON checks', () => {
  it('recognises tile formats by magic, JSON by its first character, gzip by 1f 8b', () => {
    expect(detectTileFormat(bytes('b3dm....'))).toBe('b3dm')
    expect(detectTileFormat(bytes('glTF....'))).toBe('glb')
    expect(detectTileFormat(bytes('subt....'))).toBe('subtree')
    expect(detectTileFormat(bytes('\uFEFF  \n{"asset":{}}'))).toBe('json')
    expect(detectTileFormat(bytes('MZ\u0090\u0000'))).toBeUndefined()
    const gzipped = gzipSync(Buffer.concat([Buffer.from('pnts'), Buffer.alloc(5000, 3)]))
    expect(isGzip(gzipped)).toBe(true)
    expect(detectTileFormat(peelGzipHead(gzipped.subarray(0, 512)))).toBe('pnts')
  })

  it('resolves URIs inside the archive and refuses those that leave it', () => {
    expect(resolveInArchive('a/b', '../c/tile.b3dm?v=2#x', 'a/b/t.json')).toBe('a/c/tile.b3dm')
    expect(resolveInArchive('', 'sub%20dir/t.glb', 't.json')).toBe('sub dir/t.glb')
    expect(
      resolveInArchive('', 'data:application/octet-stream;base64,AAAA', 't.json'),
    ).toBeUndefined()
    for (const uri of [
      '../x.b3dm',
      '/etc/passwd',
      'https://example.com/x.b3dm',
      'a\\..\\..\\x',
      'a/%2e%2e/%2e%2e/x',
    ]) {
      expect(() => resolveInArchive('', uri, 't.json'), uri).toThrow(TilesetJsonError)
    }
  })

  it('collects contents, legacy url keys, contents[] and implicit templates', () => {
    const tileset = parseTilesetJson(
      bytes(
        JSON.stringify({
          asset: { version: '1.1' },
          root: {
            content: { url: 'root.b3dm' },
            children: [
              { contents: [{ uri: 'a.glb' }, { uri: 'b.glb' }] },
              {
                implicitTiling: { subtrees: { uri: 'subtrees/{level}.{x}.{y}.subtree' } },
                content: { uri: 'content/{level}_{x}_{y}.glb' },
              },
            ],
          },
        }),
      ),
      'folder/tileset.json',
    )
    const references = collectContentReferences(tileset, 'folder/tileset.json')
    expect(
      references.map((reference) => [reference.archivePath, reference.isTemplate]).sort(),
    ).toEqual([
      ['folder/a.glb', false],
      ['folder/b.glb', false],
      ['folder/content/{level}_{x}_{y}.glb', true],
      ['folder/root.b3dm', false],
      ['folder/subtrees/{level}.{x}.{y}.subtree', true],
    ])
  })

  it('parses gzip-on-disk JSON and refuses what is not a tileset', () => {
    const json = JSON.stringify({
      asset: { version: '1.0' },
      root: { transform: [], children: [{}] },
    })
    const parsed = parseTilesetJson(gzipSync(json), 'tileset.json')
    const summary = summarizeTileset(parsed, 10)
    expect(summary).toMatchObject({ assetVersion: '1.0', isGeoreferenced: true })
    expect(summary.topTiles).toEqual([
      { index: 0, name: 'Tile 1', content_uri: null, bounding_volume: null },
    ])
    expect(() => parseTilesetJson(bytes('[1,2]'), 't.json')).toThrow(/not an object/)
    expect(() => parseTilesetJson(bytes('{"asset":{"version":"1.0"}}'), 't.json')).toThrow(
      /no root/,
    )
    expect(() => parseTilesetJson(bytes('{oops'), 't.json')).toThrow(/not valid JSON/)
  })
})
