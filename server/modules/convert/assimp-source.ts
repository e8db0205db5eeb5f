import { createRequire } from 'node:module'
import type { ModelCodecs } from './codecs'
import { ConversionError } from './conversion-error'
import { fbxToGltfMatrix, isAsciiFbx, isBinaryFbx, readFbxAxisSettings } from './fbx-settings'
import { readPreparedJson, type SourceDocument, type SourceOptions, splitGlb } from './gltf-source'
import type { ModelInput } from './model-input'
import { type ServerMessage, serverMessage } from '../../../contract/messages'

const require = createRequire(import.meta.url)

/** The slice of assimpjs's Emscripten API the converter uses. */
interface AssimpFile {
  GetContent(): Uint8Array
}
interface AssimpResult {
  IsSuccess(): boolean
  GetErrorCode(): string
  FileCount(): number
  GetFile(index: number): AssimpFile
  delete?(): void
}
interface AssimpFileList {
  AddFile(name: string, content: Uint8Array): void
  delete?(): void
}
interface Assimp {
  FileList: new () => AssimpFileList
  ConvertFileList(files: AssimpFileList, format: string): AssimpResult
}

let assimp: Promise<Assimp> | null = null

/**
 * assimp compiled to WebAssembly, started once per process. It runs on the server (and in the
 * CLI), not in the browser: the module is several MB that the web app would otherwise download,
 * and the server must convert anyway to store the SBM (SPEC §7 `/convertSbm`).
 */
function loadAssimp(): Promise<Assimp> {
  assimp ??= (require('assimpjs') as () => Promise<Assimp>)()
  return assimp
}

/** A DAE or FBX read into a glTF-Transform document, plus the transform to metres and +Y up. */
export interface AssimpSourceDocument extends SourceDocument {
  /** Column-major root transform still to apply (FBX), or null when assimp already did (DAE). */
  rootMatrix: number[] | null
}

/**
 * Decodes a DAE's bytes as UTF-8 text for assimp, whose XML reader only takes 8-bit encodings:
 * UTF-16 (with a byte-order mark, or detectable from `<?xml` in UTF-16) is transcoded and its
 * XML declaration rewritten. Returns null for bytes that are not a COLLADA document.
 */
export function colladaAsUtf8(
  bytes: Uint8Array,
): { bytes: Uint8Array; wasTranscoded: boolean } | null {
  let encoding: 'utf-8' | 'utf-16le' | 'utf-16be' = 'utf-8'
  if (bytes[0] === 0xff && bytes[1] === 0xfe) encoding = 'utf-16le'
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) encoding = 'utf-16be'
  else if (bytes[0] === 0x3c && bytes[1] === 0x00) encoding = 'utf-16le'
  else if (bytes[0] === 0x00 && bytes[1] === 0x3c) encoding = 'utf-16be'
  let text: string
  try {
    text = new TextDecoder(encoding, { fatal: encoding !== 'utf-8' }).decode(bytes)
  } catch {
    throw new ConversionError(
      'unsupportedEncoding',
      `the DAE file claims ${encoding.toUpperCase()} but is not valid ${encoding.toUpperCase()} text`,
    )
  }
  text = text.replace(/^\uFEFF/, '')
  if (!/<COLLADA[\s>]/.test(text.slice(0, 4096))) return null
  if (encoding === 'utf-8') return { bytes, wasTranscoded: false }
  const declared = text.replace(/^(<\?xml[^>]*encoding=["'])[^"']*(["'])/, '$1UTF-8$2')
  return { bytes: new TextEncoder().encode(declared), wasTranscoded: true }
}

/**
 * assimp's glTF 2 exporter fails on some COLLADA animations (e.g. Blender's nested ones). A
 * building model does not need them, so the converter retries without `<library_animations>`.
 */
function withoutAnimations(bytes: Uint8Array): Uint8Array | null {
  const text = new TextDecoder().decode(bytes)
  const stripped = text.replace(/<library_animations[\s>][\s\S]*?<\/library_animations>/g, '')
  return stripped === text ? null : new TextEncoder().encode(stripped)
}

function runAssimp(engine: Assimp, fileName: string, bytes: Uint8Array): Uint8Array | string {
  const files = new engine.FileList()
  let result: AssimpResult | null = null
  try {
    files.AddFile(fileName, bytes)
    result = engine.ConvertFileList(files, 'glb2')
    if (!result.IsSuccess() || result.FileCount() === 0) return result.GetErrorCode()
    return result.GetFile(0).GetContent().slice()
  } finally {
    // Embind objects live in the WebAssembly heap until deleted.
    result?.delete?.()
    files.delete?.()
  }
}

/**
 * Converts one DAE or FBX file to glTF with assimp, then reads it like any glTF: textures are
 * looked up next to the model (by relative path, else by base name), missing ones are named.
 * COLLADA units and up axis are applied by assimp; FBX ones are read from GlobalSettings and
 * returned as {@link AssimpSourceDocument.rootMatrix}.
 */
export async function readAssimpSource(
  input: ModelInput,
  format: 'dae' | 'fbx',
  codecs: ModelCodecs,
  options: SourceOptions,
): Promise<AssimpSourceDocument> {
  const warnings: ServerMessage[] = []
  let bytes = input.bytes
  let rootMatrix: number[] | null = null
  if (format === 'dae') {
    const utf8 = colladaAsUtf8(bytes)
    if (!utf8) {
      throw new ConversionError(
        'unsupportedInput',
        `${input.fileName} is not a COLLADA (DAE) document`,
      )
    }
    if (utf8.wasTranscoded) warnings.push(serverMessage('convert.daeReadAsUtf8'))
    bytes = utf8.bytes
  } else {
    if (!isBinaryFbx(bytes) && !isAsciiFbx(bytes)) {
      throw new ConversionError('unsupportedInput', `${input.fileName} is not an FBX file`)
    }
    rootMatrix = fbxToGltfMatrix(readFbxAxisSettings(bytes))
  }

  const engine = await loadAssimp()
  let output = runAssimp(engine, input.fileName, bytes)
  if (typeof output === 'string' && output === 'export_error' && format === 'dae') {
    const stripped = withoutAnimations(bytes)
    if (stripped) {
      output = runAssimp(engine, input.fileName, stripped)
      if (typeof output !== 'string')
        warnings.push(serverMessage('convert.exportDroppedAnimations'))
    }
  }
  if (typeof output === 'string') {
    throw new ConversionError(
      'unreadableModel',
      `the ${format.toUpperCase()} importer could not read ${input.fileName} (${output})`,
    )
  }
  const { json, bin } = splitGlb(output, input.fileName)
  const source = await readPreparedJson(json, bin, input, codecs, options)
  return { ...source, warnings: [...warnings, ...source.warnings], rootMatrix }
}
