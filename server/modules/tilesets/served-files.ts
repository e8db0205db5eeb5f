import { join } from 'node:path'

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
