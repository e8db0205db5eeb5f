import { Format } from '@gltf-transform/core'
import { EXTMeshoptCompression } from '@gltf-transform/extensions'
import type { SbmFloor, SbmHeader, SbmSource } from '../../../workers/sbm/sbm-header'
import { writeSbm } from '../../../workers/sbm/write-sbm'
import { readAssimpSource } from './assimp-source'
import { buildDocumentBvhs } from './build-bvhs'
import { loadModelCodecs } from './codecs'
import { ConversionError } from './conversion-error'
import { extensionOf, readGltfSource, type SourceDocument } from './gltf-source'
import type { ModelInput } from './model-input'
import { countSceneTriangles, normalizeDocument } from './normalize-document'
import { renderPreviewPng } from './preview-image'
import { normalizeTextures } from './textures'
import { type ServerMessage, serverMessage } from '../../../contract/messages'

/** How to mark and pack the SBM. */
export interface ConvertOptions {
  role?: SbmHeader['role']
  floors?: SbmFloor[]
  /** Compress geometry and BVHs with meshopt (default). Off gives raw buffers, e.g. to compare. */
  isCompressed?: boolean
  /** See {@link SourceDocument}: convert with missing textures left out instead of refusing. */
  allowMissingTextures?: boolean
}

/** What a conversion produced, for the API answer, the CLI and logs. */
export interface ConversionSummary {
  sourceFormat: SbmSource['format']
  meshCount: number
  primitiveCount: number
  triangleCount: number
  textureCount: number
  /** Primitives whose BVH is stored in the file. */
  bvhCount: number
  sizeBytes: number
  /**
   * Things the user may want to know (dropped animations, converted textures, transcoding), as
   * catalogue messages so the console says them in the user's language.
   */
  warnings: ServerMessage[]
}

/** The SBM file, its preview and its summary. */
export interface ConversionResult {
  sbm: Uint8Array<ArrayBuffer>
  /** A small PNG of the model (the model library's thumbnail); null when it has no triangles. */
  preview: Uint8Array | null
  summary: ConversionSummary
}

const supportedFormats = ['glb', 'gltf', 'dae', 'fbx'] as const

/**
 * Converts a glTF/GLB (with sibling .bin and textures, or data URIs) or one DAE/FBX file (with
 * its textures) into an SBM file: metres and +Y up, textures embedded as PNG/JPEG/WebP,
 * geometry and BVHs meshopt-compressed, one stored BVH per triangle primitive.
 * Runs on the server and in the CLI (Node): assimp and the encoders are WebAssembly modules too
 * large for the web app, and the server stores the result anyway.
 * Throws {@link ConversionError} with a reason the user can act on.
 */
export async function convertModelToSbm(
  input: ModelInput,
  options: ConvertOptions = {},
): Promise<ConversionResult> {
  const extension = extensionOf(input.fileName)
  if (extension === 'zae') {
    throw new ConversionError(
      'unsupportedInput',
      'a .zae (zipped COLLADA) is not accepted: unzip it and convert the .dae with its textures',
    )
  }
  if (!supportedFormats.includes(extension as (typeof supportedFormats)[number])) {
    throw new ConversionError(
      'unsupportedInput',
      `${input.fileName} is not a model this converter reads (use .glb, .gltf, .dae or .fbx)`,
    )
  }
  if (input.bytes.byteLength === 0) {
    throw new ConversionError('unreadableModel', `${input.fileName} is empty`)
  }
  const format = extension as SbmSource['format']
  const codecs = await loadModelCodecs()
  const sourceOptions = { allowMissingTextures: options.allowMissingTextures === true }

  let source: SourceDocument
  let rootMatrix: number[] | null = null
  if (format === 'dae' || format === 'fbx') {
    const assimpSource = await readAssimpSource(input, format, codecs, sourceOptions)
    source = assimpSource
    rootMatrix = assimpSource.rootMatrix
  } else {
    source = await readGltfSource(input, codecs, sourceOptions)
  }
  const { document } = source
  const warnings = [...source.warnings]

  const converted = normalizeTextures(document)
  if (converted.length > 0) {
    warnings.push(serverMessage('convert.texturesConvertedToPng', { names: converted.join(', ') }))
  }
  warnings.push(...(await normalizeDocument(document, rootMatrix, codecs.meshoptEncoder)))
  const bvhEntries = buildDocumentBvhs(document)
  const preview = renderPreviewPng(document)

  const isCompressed = options.isCompressed !== false
  const meshopt = document
    .getRoot()
    .listExtensionsUsed()
    .find((used): used is EXTMeshoptCompression => used instanceof EXTMeshoptCompression)
  if (isCompressed) {
    // QUANTIZE without a quantize() pass keeps float attributes exact: lossless meshopt, so the
    // stored BVHs keep matching the decoded vertices bit for bit.
    ;(meshopt ?? document.createExtension(EXTMeshoptCompression))
      .setRequired(true)
      .setEncoderOptions({ method: EXTMeshoptCompression.EncoderMethod.QUANTIZE })
  } else {
    meshopt?.dispose()
  }

  const written = await codecs.io.writeJSON(document, { format: Format.GLB })
  const bin = Object.values(written.resources)[0] ?? null
  const json = written.json as unknown as Record<string, unknown>
  checkBvhNumbering(json, bvhEntries)
  const sbm = writeSbm({
    json,
    bin,
    header: {
      role: options.role ?? 'model',
      ...(options.floors ? { floors: options.floors } : {}),
      source: { name: input.fileName, format },
    },
    bvhEntries,
    ...(isCompressed ? { bvhEncoder: codecs.meshoptEncoder } : {}),
  })

  const root = document.getRoot()
  return {
    sbm,
    preview,
    summary: {
      sourceFormat: format,
      meshCount: root.listMeshes().length,
      primitiveCount: root
        .listMeshes()
        .reduce((sum, mesh) => sum + mesh.listPrimitives().length, 0),
      triangleCount: countSceneTriangles(document),
      textureCount: root.listTextures().length,
      bvhCount: bvhEntries.length,
      sizeBytes: sbm.byteLength,
      warnings,
    },
  }
}

/**
 * The BVH entries carry mesh/primitive numbers from the document's order; this proves the writer
 * used the same numbering, so a stored BVH can never be attached to the wrong geometry.
 */
function checkBvhNumbering(
  json: Record<string, unknown>,
  entries: ReturnType<typeof buildDocumentBvhs>,
): void {
  const meshes = (json.meshes ?? []) as { primitives: { indices?: number }[] }[]
  const accessors = (json.accessors ?? []) as { count: number }[]
  for (const entry of entries) {
    const indices = meshes[entry.meshIndex]?.primitives[entry.primitiveIndex]?.indices
    const count = indices === undefined ? undefined : accessors[indices]?.count
    if (count !== entry.triangleCount * 3) {
      throw new Error(
        `internal: BVH of mesh ${entry.meshIndex} primitive ${entry.primitiveIndex} lost its geometry`,
      )
    }
  }
}
