import { join } from 'node:path'

/**
 * The folders the city area keeps its files in, under DATA_DIR: `tilesets` and `basemaps` are
 * the store's areas of those names on a folder store (with STORAGE_URL they are in the bucket
 * and these folders stay empty); `incoming` is always this machine's.
 */
export function cityDirectories(dataDir: string) {
  const tilesets = join(dataDir, 'tilesets')
  const basemaps = join(dataDir, 'basemaps')
  return {
    tilesets,
    basemaps,
    /**
     * Uploads being received or inspected, on the same file system as a folder store's areas
     * (a received basemap becomes a second name of the same bytes there).
     */
    incoming: join(dataDir, 'city-incoming'),
  }
}
