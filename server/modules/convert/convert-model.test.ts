import { readdirSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Box3, Matrix4, Vector3 } from 'three'
import { describe, expect, it } from 'vitest'
import { decodeSbm } from '../../../workers/sbm/decode-sbm'
import type { DecodedSbm } from '../../../workers/sbm/decoded-sbm'
import { convertDuck, convertTwoStoreys } from '../../../tools/make-sbm-fixtures'
import { writeGlb } from '../../../workers/sbm/glb'
import { type ConversionRefusal, ConversionError } from './conversion-error'
import { convertModelToSbm } from './convert-model'
import { type ModelInput, modelInputFromFiles } from './model-input'

const dataRoot = fileURLToPath(new URL('../../../../shared/data/', import.meta.url))
const modelExtensions = /\.(glb|gltf|dae|fbx|zae)$/i

async function listFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true })
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? listFiles(join(folder, entry.name)) : [join(folder, entry.name)],
    ),
  )
  return nested.flat()
}

/** The model as the server would get it: the model and every file uploaded beside it. */
async function uploadOf(path: string): Promise<ModelInput> {
  const folder = join(path, '..')
  const files = new Map<string, Uint8Array>()
  for (const file of await listFiles(folder))
    files.set(relative(folder, file), await readFile(file))
  return modelInputFromFiles(relative(folder, path), files)
}

function worldBounds(decoded: DecodedSbm): Box3 {
  const bounds = new Box3()
  for (const instance of decoded.instances) {
    const matrix = new Matrix4().fromArray(instance.matrixWorld)
    for (const primitiveId of decoded.meshes[instance.meshIndex]!.primitiveIds) {
      const [minX, minY, minZ, maxX, maxY, maxZ] = decoded.primitives[primitiveId]!.boundingBox
      bounds.union(
        new Box3(new Vector3(minX, minY, minZ), new Vector3(maxX, maxY, maxZ)).applyMatrix4(matrix),
      )
    }
  }
  return bounds
}

async function refusalOf(input: ModelInput): Promise<ConversionError> {
  try {
    await convertModelToSbm(input)
  } catch (error) {
    expect(error).toBeInstanceOf(ConversionError)
    return error as ConversionError
  }
  throw new Error(`${input.fileName} converted but should have been refused`)
}

/** Files that must be refused, and why. Every other model file in the folders must convert. */
const expectedRefusals: Record<
  string,
  { reason: ConversionRefusal; names?: string[]; says: RegExp }
> = {
  'dae/duck.zae': { reason: 'unsupportedInput', says: /zipped COLLADA.*unzip/ },
  'dae/teapots.DAE': {
    reason: 'missingResources',
    names: ['earthSpherical.jpg'],
    says: /missing: earthSpherical\.jpg/,
  },
  'fbx/spider.fbx': {
    reason: 'missingResources',
    names: ['drkwood2.jpg', 'wal67ar_small.jpg', 'engineflare1.jpg', 'SpiderTex.jpg'],
    says: /missing: drkwood2\.jpg, wal67ar_small\.jpg, engineflare1\.jpg, SpiderTex\.jpg/,
  },
  'gltf/edge-cases/glTF1.0-BoxTextured.glb': {
    reason: 'unsupportedGltfVersion',
    says: /unsupported glTF version 1\.0/,
  },
  'gltf/edge-cases/glTF1GlbWithoutBin.glb': {
    reason: 'unsupportedGltfVersion',
    says: /unsupported glTF version 1\.0/,
  },
  'gltf/edge-cases/CesiumTexturedBox.glb': {
    reason: 'unsupportedGltfVersion',
    says: /unsupported glTF version 1\.0/,
  },
  'gltf/edge-cases/MissingBin/BoxTextured.gltf': {
    reason: 'missingResources',
    names: ['BoxTextured0.bin', 'CesiumLogoFlat.png'],
    says: /missing: BoxTextured0\.bin, CesiumLogoFlat\.png/,
  },
  'gltf/edge-cases/glTF2GlbWithoutBin.glb': { reason: 'noMeshes', says: /no triangle meshes/ },
  'gltf/edge-cases/glTF2GlbWith5BytesBin.glb': { reason: 'noMeshes', says: /no triangle meshes/ },
}

function listFilesNow(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFilesNow(join(folder, entry.name)) : [join(folder, entry.name)],
  )
}

describe('every model in ../shared/data converts, or is refused with a reason', () => {
  const models = ['gltf', 'dae', 'fbx']
    .flatMap((folder) => listFilesNow(join(dataRoot, folder)))
    .filter((path) => modelExtensions.test(path))
    .map((path) => relative(dataRoot, path))
    .sort()

  it('finds the shared models', () => {
    expect(models.length).toBeGreaterThanOrEqual(25)
  })

  it.each(models)('%s', async (model) => {
    const input = await uploadOf(join(dataRoot, model))
    const refusal = expectedRefusals[model]
    if (refusal) {
      const error = await refusalOf(input)
      expect(error.reason).toBe(refusal.reason)
      expect(error.message).toMatch(refusal.says)
      expect(error.code).toBe(`convert.${refusal.reason}`)
      if (refusal.names) expect(error.names).toEqual(refusal.names)
      return
    }
    const { sbm, summary } = await convertModelToSbm(input)
    const decoded = await decodeSbm(sbm)
    expect(decoded.stats.triangleCount).toBeGreaterThan(0)
    expect(decoded.stats.triangleCount).toBe(summary.triangleCount)
    // Every triangle primitive's BVH comes from the file; the loader never builds one.
    expect(decoded.stats.builtBvhCount).toBe(0)
    expect(decoded.stats.storedBvhCount).toBe(summary.bvhCount)
    expect(summary.sizeBytes).toBe(sbm.byteLength)
    expect(decoded.header.source?.name).toBe(input.fileName)
    expect(worldBounds(decoded).isEmpty()).toBe(false)
  })
})

describe('units, axes and textures', () => {
  it('scales the centimetre COLLADA duck to metres and embeds its TGA texture as PNG', async () => {
    const { sbm, summary } = await convertModelToSbm(await uploadOf(join(dataRoot, 'dae/duck.dae')))
    const decoded = await decodeSbm(sbm)
    const size = worldBounds(decoded).getSize(new Vector3())
    expect(size.y).toBeCloseTo(1.54, 2)
    expect(summary.warnings.map((warning) => warning.id)).toContain(
      'convert.texturesConvertedToPng',
    )
    const [image] = decoded.images
    expect(image?.mimeType).toBe('image/png')
    const bytes = decoded.imageBytes!.subarray(image!.byteOffset, image!.byteOffset + 4)
    expect([...bytes]).toEqual([0x89, 0x50, 0x4e, 0x47])
    expect(decoded.materials[0]?.baseColorTexture).not.toBeNull()
  })

  it('turns a Z-up 3ds Max FBX upright (+Y up) in metres', async () => {
    const model = 'fbx/ascii/box_ascii_embedded_texture.FBX'
    const decoded = await decodeSbm(
      (await convertModelToSbm(await uploadOf(join(dataRoot, model)))).sbm,
    )
    const bounds = worldBounds(decoded)
    // The box stands on its base: in the file it spans z 0..47.24 inches at 0.025 scale.
    expect(bounds.min.y).toBeCloseTo(0, 3)
    expect(bounds.max.y).toBeCloseTo(47.24 * 0.025, 1)
    expect(bounds.max.x - bounds.min.x).toBeCloseTo(47.24 * 0.025, 1)
    expect(decoded.images[0]?.mimeType).toMatch(/image\/(png|jpeg)/)
  })

  it('reads the multi-file Duck the same as the single-file one', async () => {
    const gltf = await decodeSbm(
      (await convertModelToSbm(await uploadOf(join(dataRoot, 'gltf/Duck/Duck.gltf')))).sbm,
    )
    const glb = await decodeSbm(
      (await convertModelToSbm(await uploadOf(join(dataRoot, 'gltf/Duck/Duck.glb')))).sbm,
    )
    expect(gltf.stats).toEqual(glb.stats)
    expect(gltf.positions).toEqual(glb.positions)
    expect(gltf.images.length).toBe(1)
  })

  it('reads UTF-16 COLLADA like its UTF-8 twin, saying it transcoded', async () => {
    const utf16 = await convertModelToSbm(await uploadOf(join(dataRoot, 'dae/cube_UTF16LE.dae')))
    const utf8 = await convertModelToSbm(await uploadOf(join(dataRoot, 'dae/cube_UTF8BOM.dae')))
    expect(utf16.summary.warnings).toContainEqual({ id: 'convert.daeReadAsUtf8', params: {} })
    expect(utf16.summary.triangleCount).toBe(utf8.summary.triangleCount)
    const [a, b] = await Promise.all([decodeSbm(utf16.sbm), decodeSbm(utf8.sbm)])
    expect(worldBounds(a)).toEqual(worldBounds(b))
  })

  it('says what it dropped from animated and morphing models', async () => {
    const cube = await convertModelToSbm(
      await uploadOf(join(dataRoot, 'gltf/AnimatedMorphCube/AnimatedMorphCube.gltf')),
    )
    expect(cube.summary.warnings.map((warning) => warning.id)).toEqual(
      expect.arrayContaining(['convert.animationsDropped', 'convert.morphTargetsDropped']),
    )
    const nested = await convertModelToSbm(
      await uploadOf(join(dataRoot, 'dae/box_nested_animation.dae')),
    )
    expect(nested.summary.warnings.map((warning) => warning.id)).toContain(
      'convert.exportDroppedAnimations',
    )
  })

  it('converts a model with missing textures only when asked to, and says so', async () => {
    const input = await uploadOf(join(dataRoot, 'fbx/spider.fbx'))
    const { sbm, summary } = await convertModelToSbm(input, { allowMissingTextures: true })
    expect(
      summary.warnings.filter(
        (warning) =>
          warning.id === 'convert.textureMissing' && warning.params.name === 'SpiderTex.jpg',
      ),
    ).toHaveLength(1)
    expect(summary.textureCount).toBe(0)
    expect((await decodeSbm(sbm)).stats.triangleCount).toBe(summary.triangleCount)
  })
})

describe('compression', () => {
  it('is lossless: meshopt and raw SBMs decode to the same vertices and triangles', async () => {
    const input = await uploadOf(join(dataRoot, 'gltf/Duck/Duck.glb'))
    const compressed = await convertModelToSbm(input)
    const raw = await convertModelToSbm(input, { isCompressed: false })
    expect(compressed.sbm.byteLength).toBeLessThan(raw.sbm.byteLength)
    const [a, b] = await Promise.all([decodeSbm(compressed.sbm), decodeSbm(raw.sbm)])
    expect(a.positions).toEqual(b.positions)
    expect(a.normals).toEqual(b.normals)
    // meshopt's index codec may rotate a triangle's corners; the triangle and its order stay.
    const sortedCorners = (decoded: DecodedSbm) =>
      Array.from({ length: decoded.indices.length / 3 }, (_, triangle) =>
        [...decoded.indices.subarray(triangle * 3, triangle * 3 + 3)].sort((x, y) => x - y).join(),
      )
    expect(sortedCorners(a)).toEqual(sortedCorners(b))
  })
})

describe('refusals for bad input', () => {
  const inputOf = (fileName: string, bytes: Uint8Array): ModelInput => ({
    fileName,
    bytes,
    readResource: async () => null,
  })
  const gltfJson = (json: unknown) => new TextEncoder().encode(JSON.stringify(json))

  it('names required extensions it cannot decode', async () => {
    const error = await refusalOf(
      inputOf(
        'billboard.gltf',
        gltfJson({
          asset: { version: '2.0' },
          extensionsUsed: ['KHR_techniques_webgl', 'KHR_texture_basisu'],
          extensionsRequired: ['KHR_techniques_webgl', 'KHR_texture_basisu'],
        }),
      ),
    )
    expect(error.reason).toBe('unsupportedExtensions')
    expect(error.names).toEqual(['KHR_techniques_webgl', 'KHR_texture_basisu'])
    expect(error.message).toMatch(/cannot decode: KHR_techniques_webgl, KHR_texture_basisu/)
  })

  it('refuses empty, renamed and unknown files with a reason', async () => {
    const png = await readFile(join(dataRoot, 'gltf/BoxTextured/separate/CesiumLogoFlat.png'))
    expect((await refusalOf(inputOf('model.glb', new Uint8Array(0)))).message).toMatch(/empty/)
    expect((await refusalOf(inputOf('model.glb', png))).reason).toBe('unreadableModel')
    expect((await refusalOf(inputOf('model.fbx', png))).message).toMatch(/not an FBX file/)
    expect((await refusalOf(inputOf('model.dae', png))).message).toMatch(/not a COLLADA/)
    expect((await refusalOf(inputOf('model.obj', png))).message).toMatch(/use \.glb, \.gltf/)
  })

  it('refuses a GLB whose chunk lengths lie without crashing', async () => {
    const glb = writeGlb({ json: { asset: { version: '2.0' } }, bin: new Uint8Array(16) })
    new DataView(glb.buffer).setUint32(28, 1 << 30, true)
    const error = await refusalOf(inputOf('liar.glb', glb))
    expect(error.reason).toBe('unreadableModel')
    expect(error.message).toMatch(/not a readable GLB/)
  })

  it('answers only from the uploaded files, whatever path the model names', async () => {
    const files = new Map([
      [
        'model/scene.gltf',
        gltfJson({
          asset: { version: '2.0' },
          buffers: [{ uri: '../../../../../etc/passwd', byteLength: 4 }],
        }),
      ],
    ])
    const error = await refusalOf(modelInputFromFiles('model/scene.gltf', files))
    expect(error.reason).toBe('missingResources')
    expect(error.names).toEqual(['passwd'])
  })
})

describe('the committed test fixtures', () => {
  const committed = (name: string) =>
    readFile(new URL(`../../../workers/sbm/fixtures/${name}`, import.meta.url))

  it('still equal fresh conversions (regenerate with tools/make-sbm-fixtures.ts)', async () => {
    const { sbm } = await convertTwoStoreys()
    expect(Buffer.from(sbm).equals(await committed('two-storeys.sbm'))).toBe(true)
    expect(Buffer.from(await convertDuck()).equals(await committed('duck.sbm'))).toBe(true)
  })
})
