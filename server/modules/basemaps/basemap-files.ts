/** The name of a basemap's PMTiles archive in the store's `basemaps` area. */
export function basemapFileName(fileKey: string): string {
  return `${fileKey}.pmtiles`
}
