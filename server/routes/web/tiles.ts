import type { FastifyInstance } from 'fastify'
import type { CityServices } from '../../deps'
import { AppError } from '../../http/app-error'
import { sendNamedFile } from '../../modules/tilesets/send-file'

/** Content types by extension; tiles without a registered type are plain binary. */
const contentTypes: Record<string, string> = {
  json: 'application/json',
  b3dm: 'application/octet-stream',
  i3dm: 'application/octet-stream',
  pnts: 'application/octet-stream',
  cmpt: 'application/octet-stream',
  subtree: 'application/octet-stream',
  glb: 'model/gltf-binary',
  gltf: 'model/gltf+json',
  bin: 'application/octet-stream',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  ktx2: 'image/ktx2',
  geojson: 'application/geo+json',
}

/** The content type a served tileset file gets. */
export function tileContentType(path: string): string {
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase()
  return contentTypes[extension] ?? 'application/octet-stream'
}

/** Version folders never change, so a file at a versioned address can be cached for good. */
const immutableCache = 'private, max-age=31536000, immutable'

/**
 * Serving of tileset files and PMTiles basemaps at the signed addresses `find` hands out:
 *
 * - `GET /web/tiles/<tilesetId>/<versionId>/<grant>/<path inside the tileset>`: relative
 *   content URIs of tileset.json resolve below the same prefix, so loaders.gl, deck.gl and
 *   3DTilesRendererJS load whole tilesets with no headers or query parameters.
 *   Gzip-on-disk files are sent as stored with `Content-Encoding: gzip`.
 * - `GET /web/basemaps/<fileKey>/<grant>/<name>.pmtiles`: for `pmtiles://` sources.
 *
 * Both: strong ETag, `Range` (206/416), immutable caching, 403 for a wrong or expired grant,
 * 404 for anything not there; `..` and links never leave the folder. Tileset files and
 * basemaps are the store's (a folder or a bucket): with STORAGE_SERVE=redirect a tile or a
 * basemap is a redirect to the store's signed address, which answers the same bytes, type,
 * encoding and caching, and `Range` (PMTiles readers fetch the archive by ranges).
 */
export function registerTileRoutes(
  app: FastifyInstance,
  {
    tilesets,
    tilesetFiles,
    basemaps,
    basemapFiles,
  }: Pick<CityServices, 'tilesets' | 'tilesetFiles' | 'basemaps' | 'basemapFiles'>,
): void {
  app.get<{ Params: { tilesetId: string; versionId: string; grant: string; '*': string } }>(
    '/web/tiles/:tilesetId/:versionId/:grant/*',
    { config: { auth: 'public' } },
    async (request, reply) => {
      const { tilesetId, versionId, grant } = request.params
      const name = await tilesets.servedName(tilesetId, versionId, grant, request.params['*'])
      if (name === undefined) {
        const root = await tilesets.servedName(tilesetId, versionId, grant, 'tileset.json')
        if (root === undefined) {
          throw new AppError('forbidden', 'tileset.addressExpired')
        }
        throw new AppError('notFound', 'tileset.noSuchFile')
      }
      return sendNamedFile(request, reply, tilesetFiles, {
        name,
        contentType: tileContentType(name),
        cacheControl: immutableCache,
        etagSeed: versionId.slice(0, 8),
        missing: 'tileset.noSuchFile',
      })
    },
  )

  app.get<{ Params: { fileKey: string; grant: string; name: string } }>(
    '/web/basemaps/:fileKey/:grant/:name',
    { config: { auth: 'public' } },
    async (request, reply) => {
      const { fileKey, grant } = request.params
      const name = await basemaps.servedName(fileKey, grant)
      if (name === undefined) throw new AppError('forbidden', 'tileset.addressExpired')
      return sendNamedFile(request, reply, basemapFiles, {
        name,
        contentType: 'application/vnd.pmtiles',
        cacheControl: immutableCache,
        etagSeed: fileKey.slice(0, 8),
        missing: 'file.notFound',
      })
    },
  )
}
