import { nullDatumSchema, recordIdSchema, timestampSchema } from './common'
import { z } from 'zod'
import { parseJsonField, shapeLimitMessages } from './json-text'
import { zodMessage } from './messages'
import { documentedAs, formBoolean, formNumber, checkedList } from './form-fields'
import { webRoute } from './route'

/**
 * The city editor's server calls (SPEC §3 "Oblique photography item", "Single-building model",
 * §7 `/obliquephotograph/*`, GIS models, `/upload/uploadTiltModel`; decisions.md "Oblique
 * photography", "maps"): 3D Tiles tilesets uploaded as a zip or `.3tz`, the named building
 * selections made in them ("monomer" / GIS models), and each project's basemap setting with its
 * uploaded PMTiles files.
 *
 * Project scope: calls that list a project's records take `project_id` in the body; a public
 * preview may instead send the project token (`ProjectToken` header or `project_token` field),
 * which names its project by itself.
 *
 * Tiles and PMTiles are served under signed addresses (`root_url`, `url` below) that work
 * without headers, so MapLibre, deck.gl and loaders.gl can fetch them and resolve relative URIs.
 * An address stays valid 12 to 24 hours for a signed-in reader; one handed to a project-token
 * holder stays valid 1 to 2 hours and stops working within a minute of the token being revoked.
 * Ask `find` again for a fresh one before it expires.
 */

/** Where a tileset without its own georeference is placed (3D Tiles 1.1 samples have none). */
export const tilesetPlacementSchema = z.object({
  lng: formNumber(z.number().min(-180).max(180)),
  lat: formNumber(z.number().min(-90).max(90)),
  /** Metres added to the height, e.g. to sit a model on the terrain. */
  height_offset: formNumber(z.number().min(-100_000).max(100_000)).default(0),
  /** Degrees clockwise from north. */
  heading: formNumber(z.number().min(-360).max(360)).default(0),
})
export type TilesetPlacement = z.output<typeof tilesetPlacementSchema>

/** Tile content formats recognised by their magic bytes. */
export const tileFormats = ['b3dm', 'i3dm', 'pnts', 'cmpt', 'glb', 'subtree', 'json'] as const
export type TileFormat = (typeof tileFormats)[number]

/** What an accepted tileset holds. */
export const tilesetStatsSchema = z.object({
  /** Files in the tileset, the tileset JSON files included. */
  file_count: z.number().int(),
  /** Tile contents (b3dm, i3dm, pnts, cmpt, glb) in the archive. */
  tile_count: z.number().int(),
  /** Bytes on disk (gzip-on-disk files count compressed). */
  total_bytes: z.number().int(),
  /** Files per recognised format; anything else (textures, .gltf…) counts as 'other'. */
  formats: z.record(z.string(), z.number().int()),
  /** Files stored gzip-compressed on disk (served with `Content-Encoding: gzip`). */
  gzip_file_count: z.number().int(),
})
export type TilesetStats = z.infer<typeof tilesetStatsSchema>

/** A child of the root tile: the second layer of the oblique-photography tree. */
export const tilesetTopTileSchema = z.object({
  index: z.number().int(),
  /** The content's file name when it has one, else `Tile <n>`. */
  name: z.string(),
  /** The content URI relative to the root tileset JSON, or null. */
  content_uri: z.string().nullable(),
  /** The tile's 3D Tiles bounding volume (`box`, `region` or `sphere`) as the file states it. */
  bounding_volume: z.record(z.string(), z.unknown()).nullable(),
})
export type TilesetTopTile = z.infer<typeof tilesetTopTileSchema>

/** An oblique-photography tileset of a project (SPEC §3 "id, name", and what the viewer needs). */
export const obliquePhotographSchema = z.object({
  id: recordIdSchema,
  project_id: recordIdSchema,
  name: z.string(),
  /** Signed address of the root tileset JSON, or null while nothing was uploaded. */
  root_url: z.string().nullable(),
  is_visible: z.boolean(),
  /** Null: use the tileset's own georeference. */
  placement: tilesetPlacementSchema.nullable(),
  /** True when the root tile has a `transform` or a `region` volume (placed on the globe). */
  is_georeferenced: z.boolean(),
  /** `asset.version` of the root tileset JSON ('1.0', '1.1'…), or null. */
  asset_version: z.string().nullable(),
  stats: tilesetStatsSchema.nullable(),
  top_tiles: z.array(tilesetTopTileSchema),
  /** Things accepted but worth knowing, e.g. a referenced content missing from the archive. */
  warnings: z.array(z.string()),
  /** The original file name of the current upload, or null. */
  file_name: z.string().nullable(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
})
export type ObliquePhotograph = z.infer<typeof obliquePhotographSchema>

/** SPEC §7 `findObliquePhotograph`: the list of id and name. */
export const obliquePhotographListItemSchema = z.object({ id: recordIdSchema, name: z.string() })
export type ObliquePhotographListItem = z.infer<typeof obliquePhotographListItemSchema>

/** The project scope of list calls (see the module comment). */
export const projectScopeBodySchema = z.object({
  project_id: recordIdSchema.optional(),
  project_token: z.string().max(100).optional(),
})

/** `/obliquephotograph/add`: a named, empty tileset record; `uploadTiltModel` with its id fills it. */
export const addObliquePhotographBodySchema = z.object({
  project_id: recordIdSchema,
  name: z.string().trim().min(1).max(100),
  placement: tilesetPlacementSchema.optional(),
  is_visible: formBoolean().default(true),
})
export type AddObliquePhotographBody = z.input<typeof addObliquePhotographBodySchema>

/** `/obliquephotograph/update`: rename, show/hide, place (null placement: use its own). */
export const updateObliquePhotographBodySchema = z.object({
  id: recordIdSchema,
  name: z.string().trim().min(1).max(100).optional(),
  placement: tilesetPlacementSchema.nullable().optional(),
  is_visible: formBoolean().optional(),
})
export type UpdateObliquePhotographBody = z.input<typeof updateObliquePhotographBodySchema>

/** `/obliquephotograph/del`, `/gismodel/delete`, `/basemap/del`. */
export const idBodySchema = z.object({ id: recordIdSchema })

/** `/obliquephotograph/find`: the project's tilesets in full, or one when `id` is given. */
export const findObliquePhotographBodySchema = projectScopeBodySchema.extend({
  id: recordIdSchema.optional(),
})

/**
 * `POST /web/upload/uploadTiltModel` fields (multipart with one `file`, or form/JSON with the
 * `upload_id` of a finished resumable upload). Without `id` a new tileset is made (named `name`
 * or after the file); with `id` that tileset's content is replaced, keeping id, name and
 * placement. The previous content keeps being served until the new one is fully accepted.
 */
export const uploadTiltModelFieldsSchema = z.object({
  project_id: recordIdSchema,
  id: recordIdSchema.optional(),
  name: z.string().trim().min(1).max(100).optional(),
  upload_id: z.string().min(1).max(200).optional(),
})
export type UploadTiltModelFields = z.input<typeof uploadTiltModelFieldsSchema>

/** Most features one GIS model selects. */
export const gisModelMaxFeatureIds = 100_000

/**
 * Largest body of `/gismodel/add` and `/gismodel/update` (the server's default is 64 KiB):
 * 100,000 feature ids of a few digits plus 64 KB of properties.
 */
export const gisModelBodyMaxBytes = 1_048_576

const digitsOnly = /^\d+$/

/** A batch id (a whole number, or its digits from a form) or a feature id (1–200 characters). */
function readFeatureId(value: unknown): number | string | undefined {
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && value >= 0 ? value : undefined
  if (typeof value !== 'string' || value.length === 0 || value.length > 200) return undefined
  if (!digitsOnly.test(value)) return value
  const number = Number(value)
  return Number.isSafeInteger(number) ? number : value
}

const featureIdsSchema = checkedList({
  maxItems: gisModelMaxFeatureIds,
  acceptsBareItem: true,
  readItem: readFeatureId,
  describeItem: z.union([z.number().int().min(0), z.string().min(1).max(200)]),
})

/** A stored model's feature ids, checked in one loop like the input (answers are checked too). */
const storedFeatureIdsSchema = z
  .custom<Array<number | string>>(
    (value) =>
      Array.isArray(value) &&
      value.every((item) => typeof item === 'number' || typeof item === 'string'),
  )
  .meta(documentedAs(z.array(z.union([z.number().int(), z.string()]))))

/**
 * A single-building ("monomer") model: a named selection of features (b3dm batch ids or feature
 * ids) in one of the project's tilesets, with properties the user attached.
 */
export const gisModelSchema = z.object({
  id: recordIdSchema,
  /** SPEC §3 "Single-building model: id, modelname". */
  modelname: z.string(),
  project_id: recordIdSchema,
  tileset_id: recordIdSchema.nullable(),
  /** Batch ids (numbers) or feature ids (strings) of the selected features. */
  feature_ids: storedFeatureIdsSchema,
  properties: z.record(z.string(), z.unknown()),
  created_at: timestampSchema,
  updated_at: timestampSchema,
})
export type GisModel = z.infer<typeof gisModelSchema>

/** Properties travel as an object (JSON) or as its JSON text (form). */
const propertiesSchema = z
  .union([
    z.record(z.string(), z.unknown()),
    z.string().transform((text, context) => {
      // JSON text nothing checked as a body: its shape is bounded the same way.
      const parsed = parseJsonField(text)
      if ('value' in parsed) {
        const { value } = parsed
        if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
          return value as Record<string, unknown>
        }
      } else if (parsed.problem !== 'malformed') {
        const { id, maximum } = shapeLimitMessages[parsed.problem]
        context.addIssue({ code: 'custom', message: id, params: { maximum } })
        return z.NEVER
      }
      context.addIssue({ code: 'custom', message: zodMessage('input.jsonObject') })
      return z.NEVER
    }),
  ])
  .refine(
    (value) => JSON.stringify(value).length <= 64 * 1024,
    zodMessage('input.propertiesTooLarge'),
  )

/** `/gismodel/add`. */
export const addGisModelBodySchema = z.object({
  project_id: recordIdSchema,
  modelname: z.string().trim().min(1).max(100),
  tileset_id: recordIdSchema.optional(),
  feature_ids: featureIdsSchema.default([]),
  properties: propertiesSchema.default({}),
})
export type AddGisModelBody = z.input<typeof addGisModelBodySchema>

/** `/gismodel/update`. */
export const updateGisModelBodySchema = z.object({
  id: recordIdSchema,
  modelname: z.string().trim().min(1).max(100).optional(),
  tileset_id: recordIdSchema.nullable().optional(),
  feature_ids: featureIdsSchema.optional(),
  properties: propertiesSchema.optional(),
})
export type UpdateGisModelBody = z.input<typeof updateGisModelBodySchema>

/** An uploaded PMTiles basemap of a project. */
export const basemapFileSchema = z.object({
  id: recordIdSchema,
  name: z.string(),
  size_bytes: z.number().int(),
  /** Signed address (HTTP Range capable); MapLibre uses it as `pmtiles://<absolute url>`. */
  url: z.string(),
  created_at: timestampSchema,
})
export type BasemapFile = z.infer<typeof basemapFileSchema>

/** The basemap kinds (decisions.md "maps"). */
export const basemapKinds = ['offline', 'online', 'pmtiles'] as const

/** A project's basemap setting. */
export const basemapSettingSchema = z.object({
  kind: z.enum(basemapKinds),
  /** The MapLibre style of an 'online' basemap. */
  style_url: z.string().nullable(),
  /** The uploaded PMTiles of a 'pmtiles' basemap. */
  pmtiles_id: recordIdSchema.nullable(),
})
export type BasemapSetting = z.infer<typeof basemapSettingSchema>

/** `/basemap/find` answer: the setting (offline when never saved) and the uploaded files. */
export const basemapFindDatumSchema = z.object({
  setting: basemapSettingSchema,
  /** The signed address of the chosen PMTiles, or null. */
  pmtiles_url: z.string().nullable(),
  /**
   * The chosen online style's address through this server's map proxy (signed, relative), or
   * null: browsers never fetch a style's own host (the page's CSP allows only the server).
   */
  style_proxy_url: z.string().nullable(),
  files: z.array(basemapFileSchema),
})
export type BasemapFindDatum = z.infer<typeof basemapFindDatumSchema>

const httpUrlSchema = z
  .string()
  .max(2000)
  .refine((text) => {
    try {
      return ['http:', 'https:'].includes(new URL(text).protocol)
    } catch {
      return false
    }
  }, zodMessage('input.httpAddress'))

/** `/basemap/save`: 'online' needs `style_url`, 'pmtiles' needs `pmtiles_id`. */
export const saveBasemapBodySchema = z
  .object({
    project_id: recordIdSchema,
    kind: z.enum(basemapKinds),
    style_url: httpUrlSchema.optional(),
    pmtiles_id: recordIdSchema.optional(),
  })
  .superRefine((body, context) => {
    if (body.kind === 'online' && body.style_url === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['style_url'],
        message: zodMessage('input.requiredForOnline'),
      })
    }
    if (body.kind === 'pmtiles' && body.pmtiles_id === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['pmtiles_id'],
        message: zodMessage('input.requiredForPmtiles'),
      })
    }
  })
export type SaveBasemapBody = z.input<typeof saveBasemapBodySchema>

/** `POST /web/upload/uploadBasemap` fields: multipart `file` (.pmtiles v3) or `upload_id`. */
export const uploadBasemapFieldsSchema = z.object({
  project_id: recordIdSchema,
  name: z.string().trim().min(1).max(100).optional(),
  upload_id: z.string().min(1).max(200).optional(),
})
export type UploadBasemapFields = z.input<typeof uploadBasemapFieldsSchema>

/** Number of `top_tiles` listed at most (huge flat roots list only the first ones). */
export const maxTopTiles = 500

/**
 * `/mapproxy/keepRegion`: fetch an online style's tiles over an area and zoom range into the
 * server's map cache, so the region stays drawn with no network (docs/configuration.md).
 */
export const keepMapRegionBodySchema = z
  .object({
    style_url: httpUrlSchema,
    west: formNumber(z.number().min(-180).max(180)),
    south: formNumber(z.number().min(-85.0511).max(85.0511)),
    east: formNumber(z.number().min(-180).max(180)),
    north: formNumber(z.number().min(-85.0511).max(85.0511)),
    min_zoom: formNumber(z.number().int().min(0).max(22)),
    max_zoom: formNumber(z.number().int().min(0).max(22)),
  })
  .superRefine((body, context) => {
    if (body.west >= body.east) {
      context.addIssue({ code: 'custom', path: ['east'], message: 'Must be east of west' })
    }
    if (body.south >= body.north) {
      context.addIssue({ code: 'custom', path: ['north'], message: 'Must be north of south' })
    }
    if (body.min_zoom > body.max_zoom) {
      context.addIssue({
        code: 'custom',
        path: ['max_zoom'],
        message: 'Must not be below min_zoom',
      })
    }
  })
export type KeepMapRegionBody = z.input<typeof keepMapRegionBodySchema>

/** What `/mapproxy/keepRegion` fetched. */
export const keepMapRegionDatumSchema = z.object({
  /** Tiles asked for (every source of the style, every zoom of the range). */
  tiles: z.number().int(),
  /** Of those, how many could not be fetched (they are tried again when drawn). */
  failed: z.number().int(),
  /** The map cache's size afterwards. */
  cache_bytes: z.number().int(),
})
export type KeepMapRegionDatum = z.infer<typeof keepMapRegionDatumSchema>

/** The /web/ routes of this area (the route table: contract/route.ts, contract/routes.ts). */
export const cityRoutes = {
  uploadTiltModel: webRoute({
    method: 'POST',
    path: '/web/upload/uploadTiltModel',
    auth: 'editor',
    summary: 'Upload or update oblique photography: a 3D Tiles zip or .3tz',
    description:
      'Multipart `project_id`, optional `id` (the tileset to update) and `name`, and one `file`; or form/JSON with `upload_id` of a finished resumable upload instead of the file. The archive is inspected before anything is extracted; the previous version stays served until the new one is complete.',
    tags: ['upload'],
    body: uploadTiltModelFieldsSchema,
    datum: obliquePhotographSchema,
    fileFields: ['file'],
  }),
  uploadBasemap: webRoute({
    method: 'POST',
    path: '/web/upload/uploadBasemap',
    auth: 'editor',
    summary: 'Upload a PMTiles (v3) basemap for a city project',
    description:
      'Multipart `project_id`, optional `name` and one `file`; or form/JSON with `upload_id` of a finished resumable upload. Choose it with /basemap/save.',
    tags: ['upload'],
    body: uploadBasemapFieldsSchema,
    datum: basemapFileSchema,
    fileFields: ['file'],
  }),
  obliquephotographAdd: webRoute({
    method: 'POST',
    path: '/web/obliquephotograph/add',
    auth: 'editor',
    summary: 'Add an oblique photography record (content comes with uploadTiltModel and its id)',
    body: addObliquePhotographBodySchema,
    datum: obliquePhotographSchema,
  }),
  obliquephotographUpdate: webRoute({
    method: 'POST',
    path: '/web/obliquephotograph/update',
    auth: 'editor',
    summary: 'Rename, show/hide or place an oblique photography tileset',
    body: updateObliquePhotographBodySchema,
    datum: obliquePhotographSchema,
  }),
  obliquephotographDel: webRoute({
    method: 'POST',
    path: '/web/obliquephotograph/del',
    auth: 'editor',
    summary: 'Delete an oblique photography tileset and its files',
    body: idBodySchema,
    datum: nullDatumSchema,
  }),
  obliquephotographFind: webRoute({
    method: 'POST',
    path: '/web/obliquephotograph/find',
    auth: 'public',
    summary: "A project's oblique photography in full, with signed tileset addresses",
    description:
      'Owner or admin Token, or the project token (`ProjectToken` header or `project_token`). `root_url` is a signed address valid 12–24 h that loads without headers.',
    body: findObliquePhotographBodySchema,
    datum: z.array(obliquePhotographSchema),
  }),
  findObliquePhotograph: webRoute({
    method: 'POST',
    path: '/web/findObliquePhotograph',
    auth: 'public',
    summary: "A project's oblique photography as a list of id and name (SPEC §7)",
    body: projectScopeBodySchema,
    datum: z.array(obliquePhotographListItemSchema),
  }),
  gismodelSelect: webRoute({
    method: 'POST',
    path: '/web/gismodel/select',
    auth: 'public',
    summary: "A project's single-building (monomer) models: id, modelname, tileset and features",
    body: projectScopeBodySchema,
    datum: z.array(gisModelSchema),
  }),
  gismodelAdd: webRoute({
    method: 'POST',
    path: '/web/gismodel/add',
    auth: 'editor',
    summary: 'Save picked features of a tileset as a named single-building model',
    body: addGisModelBodySchema,
    datum: gisModelSchema,
  }),
  gismodelUpdate: webRoute({
    method: 'POST',
    path: '/web/gismodel/update',
    auth: 'editor',
    summary: 'Rename a single-building model or change its features and properties',
    body: updateGisModelBodySchema,
    datum: gisModelSchema,
  }),
  gismodelDelete: webRoute({
    method: 'POST',
    path: '/web/gismodel/delete',
    auth: 'editor',
    summary: 'Delete a single-building model',
    body: idBodySchema,
    datum: nullDatumSchema,
  }),
  basemapFind: webRoute({
    method: 'POST',
    path: '/web/basemap/find',
    auth: 'public',
    summary: "A project's basemap setting (offline by default) and its uploaded PMTiles",
    body: projectScopeBodySchema,
    datum: basemapFindDatumSchema,
  }),
  basemapSave: webRoute({
    method: 'POST',
    path: '/web/basemap/save',
    auth: 'editor',
    summary: "Save a project's basemap: offline, an online style URL, or an uploaded PMTiles",
    body: saveBasemapBodySchema,
    datum: basemapFindDatumSchema,
  }),
  basemapDel: webRoute({
    method: 'POST',
    path: '/web/basemap/del',
    auth: 'editor',
    summary: 'Delete an uploaded PMTiles basemap (refused while it is the chosen basemap)',
    body: idBodySchema,
    datum: nullDatumSchema,
  }),
}
