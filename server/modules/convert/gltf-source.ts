import { posix } from 'node:path'
import type { Document, JSONDocument } from '@gltf-transform/core'
import { ALL_EXTENSIONS } from '@gltf-transform/extensions'
import { parseGlb, peekGlbVersion } from '../../../workers/sbm/glb'
import { SbmError } from '../../../workers/sbm/sbm-error'
import type { ModelCodecs } from './codecs'
import { ConversionError } from './conversion-error'
import { findResource, type ModelInput, resourceCandidates } from './model-input'
import { encodePng } from './png'
import { checkTexturePixels, looksLikeTga, type TextureBytes } from './textures'
import { type ServerMessage, serverMessage } from '../../../contract/messages'

/** glTF-Transform's resource key for the GLB's BIN chunk (buffer 0 without a URI). */
const GLB_BUFFER_KEY = '@glb.bin'

/**
 * Required extensions glTF-Transform reads but whose data no browser path here can show:
 * KTX2/Basis textures need a transcoder this product does not ship.
 */
const UNSHOWABLE_EXTENSIONS = new Set(['KHR_texture_basisu'])

const knownExtensions = new Set(ALL_EXTENSIONS.map((extension) => extension.EXTENSION_NAME))

/** Options shared by every source format. */
export interface SourceOptions {
  /**
   * Convert even when textures are missing, leaving those materials untextured. Off by default:
   * a silently grey model is worse than a refusal that names the missing files.
   */
  allowMissingTextures?: boolean
}

/** A source read into glTF-Transform, with notes for the conversion summary. */
export interface SourceDocument {
  document: Document
  warnings: ServerMessage[]
}

type Json = Record<string, unknown>

/** Splits a GLB into JSON and BIN, turning container damage into a conversion refusal. */
export function splitGlb(
  bytes: Uint8Array,
  fileName: string,
): { json: Json; bin: Uint8Array | null } {
  const version = peekGlbVersion(bytes)
  if (version !== null && version !== 2) {
    throw new ConversionError(
      'unsupportedGltfVersion',
      `unsupported glTF version ${version}.0 in ${fileName}: convert it to glTF 2.0 first`,
    )
  }
  try {
    const { json, bin } = parseGlb(bytes)
    return { json, bin }
  } catch (error) {
    const detail = error instanceof SbmError ? error.detail : (error as Error).message
    throw new ConversionError(
      'unreadableModel',
      `${fileName} is not a readable GLB file: ${detail}`,
    )
  }
}

/** Reads a .gltf or .glb (with its sibling files) into a glTF-Transform document. */
export async function readGltfSource(
  input: ModelInput,
  codecs: ModelCodecs,
  options: SourceOptions,
): Promise<SourceDocument> {
  const isBinary = peekGlbVersion(input.bytes) !== null
  let json: Json
  let bin: Uint8Array | null = null
  if (isBinary) {
    ;({ json, bin } = splitGlb(input.bytes, input.fileName))
  } else {
    try {
      const text = new TextDecoder('utf-8', { fatal: true })
        .decode(input.bytes)
        .replace(/^\uFEFF/, '')
      const parsed: unknown = JSON.parse(text)
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error()
      json = parsed as Json
    } catch {
      throw new ConversionError(
        'unreadableModel',
        `${input.fileName} is neither a GLB file nor glTF JSON`,
      )
    }
  }
  checkGltfVersion(json, input.fileName)
  return readPreparedJson(json, bin, input, codecs, options)
}

function checkGltfVersion(json: Json, fileName: string): void {
  const asset = json.asset as Json | undefined
  const version = typeof asset?.version === 'string' ? asset.version : null
  if (version === null) {
    // glTF 1.0 files without an asset block still carry 1.0-only sections.
    const looksLikeVersion1 = 'techniques' in json || 'programs' in json || 'shaders' in json
    throw new ConversionError(
      looksLikeVersion1 ? 'unsupportedGltfVersion' : 'unreadableModel',
      looksLikeVersion1
        ? `unsupported glTF version 1.0 in ${fileName}: convert it to glTF 2.0 first`
        : `${fileName} has no glTF asset version`,
    )
  }
  if (!version.startsWith('2.')) {
    throw new ConversionError(
      'unsupportedGltfVersion',
      `unsupported glTF version ${version} in ${fileName}: convert it to glTF 2.0 first`,
    )
  }
}

/**
 * Checks a glTF JSON's required extensions and outside files, then reads it with glTF-Transform.
 * Used for .gltf/.glb uploads and for the GLB that assimp makes from DAE/FBX, whose texture paths
 * are whatever the authoring tool wrote (often absolute Windows paths).
 */
export async function readPreparedJson(
  json: Json,
  bin: Uint8Array | null,
  input: ModelInput,
  codecs: ModelCodecs,
  options: SourceOptions,
): Promise<SourceDocument> {
  const warnings: ServerMessage[] = []
  const required = Array.isArray(json.extensionsRequired)
    ? (json.extensionsRequired as unknown[]).map(String)
    : []
  const unsupported = required.filter(
    (name) =>
      !knownExtensions.has(name) ||
      UNSHOWABLE_EXTENSIONS.has(name) ||
      (name === 'KHR_draco_mesh_compression' && !codecs.hasDracoDecoder),
  )
  if (unsupported.length > 0) {
    throw new ConversionError(
      'unsupportedExtensions',
      `the model requires glTF extensions this converter cannot decode: ${unsupported.join(', ')}`,
      unsupported,
    )
  }

  const resources: JSONDocument['resources'] = {}
  if (bin) resources[GLB_BUFFER_KEY] = ownBuffer(bin)
  const missing: string[] = []
  const placeholderUris = new Set<string>()
  const outsideTextures: TextureBytes[] = []
  const resolve = async (resource: Json, isImage: boolean) => {
    const uri = resource.uri
    if (typeof uri !== 'string' || uri.startsWith('data:') || uri in resources) return
    const found = await findResource(input, uri)
    if (found) {
      resources[uri] = ownBuffer(found.bytes)
      if (isImage) {
        const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType : ''
        outsideTextures.push({
          label: found.path,
          bytes: found.bytes,
          isTga: looksLikeTga(mimeType, uri),
        })
      }
      return
    }
    const name = resourceCandidates(uri).at(-1) ?? uri
    if (isImage && options.allowMissingTextures) {
      resources[uri] = placeholderPng()
      placeholderUris.add(uri)
      warnings.push(serverMessage('convert.textureMissing', { name }))
      return
    }
    missing.push(name)
  }
  for (const buffer of asRecords(json.buffers)) await resolve(buffer, false)
  for (const image of asRecords(json.images)) await resolve(image, true)
  if (missing.length > 0) {
    throw new ConversionError(
      'missingResources',
      `files the model refers to are missing: ${missing.join(', ')} (upload them next to ${input.fileName})`,
      missing,
    )
  }
  // textures beside the model are measured before glTF-Transform reads anything
  checkTexturePixels(outsideTextures)

  let document: Document
  try {
    const jsonDocument: JSONDocument = { json: json as unknown as JSONDocument['json'], resources }
    document = await codecs.io.readJSON(jsonDocument)
  } catch (error) {
    throw new ConversionError(
      'unreadableModel',
      `${input.fileName} could not be read as glTF: ${(error as Error).message}`,
    )
  }
  // The placeholders only kept glTF-Transform's reader happy; the materials lose the texture.
  for (const texture of document.getRoot().listTextures()) {
    if (placeholderUris.has(texture.getURI())) texture.dispose()
  }
  return { document, warnings }
}

function asRecords(value: unknown): Json[] {
  return Array.isArray(value)
    ? value.filter((item): item is Json => typeof item === 'object' && item !== null)
    : []
}

let placeholder: Uint8Array<ArrayBuffer> | null = null
function placeholderPng(): Uint8Array<ArrayBuffer> {
  placeholder ??= ownBuffer(encodePng(new Uint8Array([255, 255, 255, 255]), 1, 1))
  return placeholder
}

/** glTF-Transform wants views over plain ArrayBuffers; Node's Buffers already are, others copy. */
function ownBuffer(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer
    ? (bytes as Uint8Array<ArrayBuffer>)
    : new Uint8Array(bytes)
}

/** The file extension, lower case, without the dot. */
export function extensionOf(fileName: string): string {
  return posix.extname(fileName).slice(1).toLowerCase()
}
