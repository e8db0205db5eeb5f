import { open, rm } from 'node:fs/promises'
import { join } from 'node:path'

/** Removes a folder tree; missing is fine. */
export async function removeTree(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true })
}

/** Reads the first bytes of a file (fewer when it is shorter). */
export async function readHead(path: string, lengthBytes: number): Promise<Buffer> {
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(lengthBytes)
    const { bytesRead } = await handle.read(buffer, 0, lengthBytes, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** The folders the city area keeps its files in, under DATA_DIR. */
export function cityDirectories(dataDir: string) {
  const tilesets = join(dataDir, 'tilesets')
  const basemaps = join(dataDir, 'basemaps')
  return {
    tilesets,
    basemaps,
    /** Uploads being received or inspected, on the same file system as the stores. */
    incoming: join(dataDir, 'city-incoming'),
  }
}
