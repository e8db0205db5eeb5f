import { zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConversionDatum, FloorUploadDatum } from '../../../contract/building'
import type { UploadJpgDatum } from '../../../contract/files'
import {
  jpegClaiming,
  pngClaiming,
  pngDeflateBomb,
  residentMiB,
  tgaRleBomb,
} from '../../testing/image-bombs'
import { createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'
import { duckGlb, sbmFixtureFiles, sharedFile, withEmbeddedImage } from './building-test-kit'
import { createProject, type MultipartPart, postMultipart, storedFiles } from './project-test-kit'

/**
 * Issue 13 class 2: every path that takes an image or a texture measures it from its header
 * before anything decodes it, and refuses dimension lies and decompression bombs quickly, with
 * the server's resident memory growing by at most 64 MiB for the request.
 */

const maxGrowthMiB = 64

const part = (name: string, fileName: string, value: Uint8Array): MultipartPart => ({
  name,
  fileName,
  value: Buffer.from(value),
})

describe('image and texture bombs', () => {
  let testApp: TestApp
  let editor: string
  let projectId: string
  let bombs: {
    claims60k: Buffer
    claims2to31: Buffer
    claimsNothing: Buffer
    deflate16k: Buffer
    jpeg60k: Buffer
    tga16k: Buffer
  }

  beforeAll(async () => {
    testApp = await createTestApp()
    editor = await signIn(testApp.app, testEditor)
    projectId = (await createProject(testApp.app, editor, { kind: 'building', name: 'Bombs' })).id
    bombs = {
      claims60k: pngClaiming(60_000, 60_000),
      claims2to31: pngClaiming(2 ** 31, 2 ** 31),
      claimsNothing: pngClaiming(0, 0),
      deflate16k: await pngDeflateBomb(16_384),
      jpeg60k: jpegClaiming(60_000, 60_000),
      tga16k: tgaRleBomb(16_384),
    }
    // small on the wire, as the issue describes
    expect(bombs.deflate16k.byteLength).toBeLessThan(2 * 1024 * 1024)
    expect(bombs.tga16k.byteLength).toBeLessThan(12 * 1024 * 1024)
    // warm up every path once with a good file, so lazily started parts (the conversion thread,
    // assimp, multipart) are not counted against the bombs
    const cover = await sharedFile('3dtiles/tools/contentTypes/content.jpg')
    await postMultipart(testApp.app, '/web/upload/uploadJpg', editor, [
      part('file', 'c.jpg', cover),
    ])
    const warm = await postMultipart(testApp.app, '/web/upload/uploadGltfForSbm', editor, [
      part('glbf_arr', 'duck.glb', await duckGlb()),
    ])
    expect(warm.envelope.code).toBe('0')
  }, 120_000)
  afterAll(async () => {
    await testApp?.close()
  })

  /** Sends the request and asserts a 4xx envelope, no new stored file, and bounded growth. */
  const expectRefused = async (url: string, parts: MultipartPart[], status: number[]) => {
    const storeBefore = await storedFiles(testApp.config.filesDir)
    const before = residentMiB()
    const answer = await postMultipart<unknown>(testApp.app, url, editor, parts)
    const grownMiB = residentMiB() - before
    expect(status).toContain(answer.statusCode)
    expect(answer.envelope.code).not.toBe('0')
    expect(grownMiB).toBeLessThanOrEqual(maxGrowthMiB)
    expect(await storedFiles(testApp.config.filesDir)).toEqual(storeBefore)
    return answer.envelope
  }

  describe('/upload/uploadJpg (covers, avatars, icons)', () => {
    it.each([
      ['a PNG claiming 60,000 × 60,000', () => bombs.claims60k, 413],
      ['a PNG claiming 2³¹ × 2³¹', () => bombs.claims2to31, 413],
      ['a PNG claiming 0 × 0', () => bombs.claimsNothing, 413],
      ['a complete 16,384² PNG deflate bomb', () => bombs.deflate16k, 413],
      ['a JPEG whose SOF claims 60,000 × 60,000', () => bombs.jpeg60k, 413],
      ['a PNG whose header is cut off', () => bombs.claims60k.subarray(0, 20), 415],
    ])('refuses %s as the image', async (_label, bytesOf, status) => {
      const envelope = await expectRefused(
        '/web/upload/uploadJpg',
        [part('file', 'cover.png', bytesOf())],
        [status],
      )
      expect(envelope.message).toMatch(/^file: /)
    })

    it('refuses a thumbnail whose header lies, keeping nothing of the image either', async () => {
      const cover = await sharedFile('3dtiles/tools/contentTypes/content.jpg')
      const envelope = await expectRefused(
        '/web/upload/uploadJpg',
        [part('file', 'cover.jpg', cover), part('thumbnail', 't.jpg', bombs.jpeg60k)],
        [413],
      )
      expect(envelope.message).toMatch(/^thumbnail: .*60000 × 60000/)
      expect(envelope).toMatchObject({
        messageId: 'image.tooManyPixels',
        params: { field: 'thumbnail', width: 60_000, height: 60_000, maxSide: 4096 },
      })
    })

    it('still takes a 2048 × 2048 claim (SPEC §9 recommends it)', async () => {
      const answer = await postMultipart<UploadJpgDatum>(
        testApp.app,
        '/web/upload/uploadJpg',
        editor,
        [part('file', 'ok.png', pngClaiming(2048, 2048))],
      )
      expect(answer.envelope.code).toBe('0')
    })
  })

  describe('textures of a conversion (/upload/uploadGltfForSbm)', () => {
    const duckGltf = async (imageUri: string) => {
      const json = JSON.parse((await sharedFile('gltf/Duck/Duck.gltf')).toString('utf8'))
      json.images = [{ uri: imageUri }]
      return Buffer.from(JSON.stringify(json))
    }
    const withTexture = async (fileName: string, texture: Uint8Array) => [
      part('glbf_arr', 'Duck.gltf', await duckGltf(fileName)),
      part('glbf_arr', 'Duck0.bin', await sharedFile('gltf/Duck/Duck0.bin')),
      part('glbf_arr', fileName, texture),
    ]

    it.each([
      ['a .gltf whose PNG claims 60,000 × 60,000', 'DuckCM.png', () => bombs.claims60k],
      ['a .gltf whose PNG is a 16,384² deflate bomb', 'DuckCM.png', () => bombs.deflate16k],
      ['a .gltf whose TGA is a 16,384² run-length bomb', 'DuckCM.tga', () => bombs.tga16k],
    ])('refuses %s before converting, naming the texture', async (_label, name, bytesOf) => {
      const envelope = await expectRefused(
        '/web/upload/uploadGltfForSbm',
        await withTexture(name, bytesOf()),
        [413],
      )
      expect(envelope.message).toMatch(
        new RegExp(`8192 pixels are not accepted: ${name.replace('.', '\\.')}`),
      )
    })

    it.each([
      ['a GLB embedding a 16,384² run-length TGA', () => bombs.tga16k, 'image/x-tga'],
      ['a GLB embedding a PNG claiming 2³¹ × 2³¹', () => bombs.claims2to31, 'image/png'],
    ])('refuses %s', async (_label, bytesOf, mimeType) => {
      const glb = withEmbeddedImage(await duckGlb(), bytesOf(), mimeType)
      const envelope = await expectRefused(
        '/web/upload/uploadGltfForSbm',
        [part('glbf_arr', 'duck.glb', glb)],
        [413],
      )
      expect(envelope.message).toMatch(/^Textures larger than 8192 × 8192 pixels/)
    })

    it('still converts a model whose texture is within the budget', async () => {
      const answer = await postMultipart<ConversionDatum>(
        testApp.app,
        '/web/upload/uploadGltfForSbm',
        editor,
        await withTexture('DuckCM.png', await sharedFile('gltf/Duck/DuckCM.png')),
      )
      expect(answer.envelope.code).toBe('0')
    })
  })

  describe('textures inside uploaded SBM files and ZIPs (/upload/uploadZip)', () => {
    it.each([
      ['an SBM embedding a PNG claiming 60,000 × 60,000', () => bombs.claims60k, false],
      ['an SBM embedding a 16,384² deflate bomb', () => bombs.deflate16k, false],
      ['a ZIP of an SBM embedding a 16,384² deflate bomb', () => bombs.deflate16k, true],
    ])(
      'refuses %s with the SBM message (naming the entry in a ZIP)',
      async (_label, bytesOf, isZipped) => {
        const { duck } = await sbmFixtureFiles()
        const sbm = withEmbeddedImage(duck, bytesOf(), 'image/png')
        const file = isZipped
          ? part('file', 'floors.zip', zipSync({ 'duck.sbm': sbm }))
          : part('file', 'duck.sbm', sbm)
        const envelope = await expectRefused(
          '/web/upload/uploadZip',
          [{ name: 'project_id', value: projectId }, file],
          [415],
        )
        expect(envelope.message).toBe(
          isZipped
            ? 'duck.sbm in floors.zip is not a valid SBM file.'
            : 'Failed to load a model, not a valid SBM file!',
        )
      },
    )

    it('still takes the fixture SBM with its own texture', async () => {
      const { duck } = await sbmFixtureFiles()
      const answer = await postMultipart<FloorUploadDatum>(
        testApp.app,
        '/web/upload/uploadZip',
        editor,
        [{ name: 'project_id', value: projectId }, part('file', 'duck.sbm', duck)],
      )
      expect(answer.envelope.code).toBe('0')
    })
  })
})
