import { posix } from 'node:path'

/**
 * A model to convert: the main file plus a way to fetch the files it refers to (a .gltf's .bin
 * and textures, a DAE's or FBX's textures). The server answers from the uploaded file map, the
 * CLI from the disk next to the input.
 */
export interface ModelInput {
  /** File name of the main file, e.g. 'Duck.gltf'; its extension picks the importer. */
  fileName: string
  bytes: Uint8Array
  /** Bytes of a file by its path relative to the main file's folder, or null when absent. */
  readResource: (relativePath: string) => Promise<Uint8Array | null>
}

/**
 * The relative paths to try for a URI found in a model, best first. Models made on Windows carry
 * `file://` URLs, backslashes and absolute paths (`D:\\textures\\wood.jpg`); the user can only
 * have uploaded such a file next to the model, so absolute paths fall back to the base name.
 */
export function resourceCandidates(uri: string): string[] {
  let path = uri.trim().replace(/^file:\/*/i, '')
  try {
    path = decodeURIComponent(path)
  } catch {
    // A stray '%' is a literal character in a file name, not an escape.
  }
  path = path.replace(/\\/g, '/')
  const baseName = posix.basename(path)
  const isAbsolute = path.startsWith('/') || /^[a-z]:\//i.test(path)
  if (isAbsolute) return baseName ? [baseName] : []
  const relative = posix.normalize(path).replace(/^(\.\/)+/, '')
  return relative === baseName ? [relative] : [relative, baseName]
}

/**
 * A {@link ModelInput} over uploaded files, keyed by their path inside the upload. Lookups are
 * confined to the map (no path can escape it) and fall back to a case-insensitive match, since
 * models made on Windows often differ in case from the files beside them.
 */
export function modelInputFromFiles(
  entryPath: string,
  files: ReadonlyMap<string, Uint8Array>,
): ModelInput {
  const bytes = files.get(entryPath)
  if (!bytes) throw new Error(`the upload has no file '${entryPath}'`)
  const folder = posix.dirname(entryPath)
  const byLowerCase = new Map<string, Uint8Array>()
  for (const [path, content] of files) byLowerCase.set(path.toLowerCase(), content)
  return {
    fileName: posix.basename(entryPath),
    bytes,
    readResource: async (relativePath) => {
      const path = posix.normalize(posix.join(folder, relativePath)).replace(/^(\.\/)+/, '')
      if (path.startsWith('../')) return null
      return files.get(path) ?? byLowerCase.get(path.toLowerCase()) ?? null
    },
  }
}

/** Tries each candidate path of a URI in turn; returns the first file found and its path. */
export async function findResource(
  input: ModelInput,
  uri: string,
): Promise<{ path: string; bytes: Uint8Array } | null> {
  for (const candidate of resourceCandidates(uri)) {
    const bytes = await input.readResource(candidate)
    if (bytes) return { path: candidate, bytes }
  }
  return null
}
