import type { BasemapFile, BasemapFindDatum, GisModel, ObliquePhotograph } from '../../../api/city'
import type { ProjectInfo } from '../../../../contract/project'
import type { CityServices } from '../city-services'
import type { AreaDraw } from '../../../api/draw'
import type { FenceEvent, TrackedObject, TrackPosition } from '../../../api/tracking'
import type { LocationAnchor } from '../../../api/location'
import type { CategoryNode } from '../../../api/templates'
import type { TourViewpointRecord } from '../../../api/view-tour'
import { measureDrawing } from '../../../../workers/geodesy/draw-geometry'

/**
 * An in-memory stand-in for the city part of the server, for component tests: it keeps
 * tilesets, models and the basemap setting like the real routes do, refuses an archive named
 * `ambiguous.zip` the way the server refuses several candidate roots, and reports upload
 * progress in four steps.
 */
export function createMemoryCityServer(projectId: string) {
  const tilesets: ObliquePhotograph[] = []
  const gisModels: GisModel[] = []
  const drawings: AreaDraw[] = []
  const fenceIds = new Set<string>()
  const trackedObjects: TrackedObject[] = []
  const tracks = new Map<string, TrackPosition[]>()
  const fenceEvents: FenceEvent[] = []
  const anchors: LocationAnchor[] = []
  const viewpoints: TourViewpointRecord[] = []
  /** The location category tree the GPS tab offers (tests fill it). */
  const locationCategories: CategoryNode[] = []
  const uploads = new Map<string, File>()
  const progressSeen: number[] = []
  let basemap: BasemapFindDatum = {
    setting: { kind: 'offline', style_url: null, pmtiles_id: null },
    pmtiles_url: null,
    style_proxy_url: null,
    files: [],
  }
  let sequence = 0
  const now = '2026-01-01T00:00:00.000Z'
  const nextId = (prefix: string) => {
    sequence += 1
    return `${prefix}-${sequence}`
  }

  const services: CityServices = {
    findProjectInfo: async (id) =>
      ({
        id,
        name: 'Harbour district',
        kind: 'city',
        project_center: { lng: 121.6, lat: 31.2 },
        // the test user owns the project: every control is offered
        permissions: {
          canRead: true,
          canEdit: true,
          canDelete: true,
          canShare: true,
          canCopy: true,
        },
      }) as ProjectInfo,
    findObliquePhotographs: async () => structuredClone(tilesets),
    uploadResumable: async (file, { onProgress }) => {
      for (const step of [1, 2, 3, 4]) {
        const sent = Math.round((file.size * step) / 4)
        progressSeen.push(sent)
        onProgress(sent, file.size)
      }
      const uploadId = nextId('upload')
      uploads.set(uploadId, file)
      return { uploadId }
    },
    uploadTiltModel: async (input) => {
      const file = 'uploadId' in input ? uploads.get(input.uploadId) : undefined
      if (!file) throw new Error('Unknown upload')
      if (file.name === 'ambiguous.zip') {
        throw new Error(
          'The archive has no tileset.json and several candidate root files: tilesetA.json, tilesetB.json',
        )
      }
      const existing = input.id ? tilesets.find((tileset) => tileset.id === input.id) : undefined
      const tileset: ObliquePhotograph = {
        id: existing?.id ?? nextId('tileset'),
        project_id: input.projectId,
        name: existing?.name ?? file.name.replace(/\.[^.]+$/, ''),
        root_url: `/web/tiles/${nextId('version')}/tileset.json`,
        is_visible: true,
        placement: existing?.placement ?? null,
        is_georeferenced: true,
        asset_version: '1.0',
        stats: {
          file_count: 8,
          tile_count: 6,
          total_bytes: file.size,
          formats: { b3dm: 5 },
          gzip_file_count: 0,
        },
        top_tiles: [
          { index: 0, name: 'city', content_uri: 'city/tileset.json', bounding_volume: null },
          { index: 1, name: 'building', content_uri: 'building.b3dm', bounding_volume: null },
        ],
        warnings: [],
        file_name: file.name,
        created_at: now,
        updated_at: now,
      }
      if (existing) tilesets[tilesets.indexOf(existing)] = tileset
      else tilesets.push(tileset)
      return structuredClone(tileset)
    },
    addObliquePhotograph: async (body) => {
      const tileset: ObliquePhotograph = {
        id: nextId('tileset'),
        project_id: body.project_id,
        name: body.name.trim(),
        root_url: null,
        is_visible: true,
        placement: null,
        is_georeferenced: false,
        asset_version: null,
        stats: null,
        top_tiles: [],
        warnings: [],
        file_name: null,
        created_at: now,
        updated_at: now,
      }
      tilesets.push(tileset)
      return structuredClone(tileset)
    },
    updateObliquePhotograph: async (body) => {
      const tileset = tilesets.find((candidate) => candidate.id === body.id)
      if (!tileset) throw new Error('Not found')
      if (body.name !== undefined) tileset.name = body.name
      if (body.is_visible !== undefined) tileset.is_visible = Boolean(body.is_visible)
      if (body.placement !== undefined) {
        tileset.placement = body.placement
          ? {
              lng: Number(body.placement.lng),
              lat: Number(body.placement.lat),
              height_offset: Number(body.placement.height_offset ?? 0),
              heading: Number(body.placement.heading ?? 0),
            }
          : null
      }
      return structuredClone(tileset)
    },
    deleteObliquePhotograph: async (id) => {
      const index = tilesets.findIndex((tileset) => tileset.id === id)
      if (index === -1) throw new Error('Not found')
      tilesets.splice(index, 1)
    },
    selectGisModels: async () => structuredClone(gisModels),
    addGisModel: async (body) => {
      const model: GisModel = {
        id: nextId('model'),
        modelname: body.modelname,
        project_id: body.project_id,
        tileset_id: body.tileset_id ?? null,
        feature_ids: (body.feature_ids ?? []) as (number | string)[],
        properties: (body.properties ?? {}) as Record<string, unknown>,
        created_at: now,
        updated_at: now,
      }
      gisModels.push(model)
      return structuredClone(model)
    },
    updateGisModel: async (body) => {
      const model = gisModels.find((candidate) => candidate.id === body.id)
      if (!model) throw new Error('Not found')
      if (body.modelname !== undefined) model.modelname = body.modelname
      return structuredClone(model)
    },
    deleteGisModel: async (id) => {
      const index = gisModels.findIndex((model) => model.id === id)
      if (index === -1) throw new Error('Not found')
      gisModels.splice(index, 1)
    },
    findAreaDraws: async (_projectId, kind) =>
      structuredClone(drawings.filter((drawing) => kind === undefined || drawing.kind === kind)),
    addAreaDraw: async (body) => {
      const points = body.points as [number, number][]
      const measure = measureDrawing(Number(body.type), points)
      const drawing: AreaDraw = {
        id: nextId('draw'),
        project_id: body.project_id,
        kind: body.kind ?? 'area',
        name: body.name,
        description: body.description ?? '',
        type: Number(body.type),
        points,
        acreage: measure.areaSquareMeters,
        length: measure.lengthMeters,
        radius: measure.radiusMeters,
        style: {
          fill_color: '#ffffff80',
          outline_color: '#1e88e5ff',
          outline_width: 2,
          display_mode: 1,
          ...(body.style as Partial<AreaDraw['style']>),
        },
        is_visible: true,
        created_at: now,
        updated_at: now,
      }
      drawings.push(drawing)
      return structuredClone(drawing)
    },
    updateAreaDraw: async (body) => {
      const drawing = drawings.find((candidate) => candidate.id === body.id)
      if (!drawing) throw new Error('Not found')
      if (body.name !== undefined) drawing.name = body.name
      if (body.description !== undefined) drawing.description = body.description
      if (body.style !== undefined)
        drawing.style = { ...drawing.style, ...(body.style as Partial<AreaDraw['style']>) }
      if (body.is_visible !== undefined) drawing.is_visible = Boolean(body.is_visible)
      return structuredClone(drawing)
    },
    deleteAreaDraw: async (id) => {
      const index = drawings.findIndex((drawing) => drawing.id === id)
      if (index === -1) throw new Error('Not found')
      drawings.splice(index, 1)
    },
    findFences: async () => [...fenceIds],
    setFence: async (drawId, isFence) => {
      if (isFence) fenceIds.add(drawId)
      else fenceIds.delete(drawId)
    },
    findFenceEvents: async () => structuredClone(fenceEvents),
    findTrackedObjects: async () => structuredClone(trackedObjects),
    addTrackedObject: async (body) => {
      const object: TrackedObject = {
        id: nextId('tracked'),
        project_id: body.project_id,
        name: body.name,
        // as the server does: the location category's name stands for an empty text
        category:
          body.category ||
          locationCategories.find((node) => node.id === body.category_id)?.category_name ||
          '',
        category_id: body.category_id ?? '',
        coding: body.coding ?? '',
        last_position: null,
        inside_fence_ids: [],
        created_at: now,
      }
      trackedObjects.push(object)
      return { object: structuredClone(object), token: `token-${object.id}` }
    },
    deleteTrackedObject: async (id) => {
      const index = trackedObjects.findIndex((object) => object.id === id)
      if (index === -1) throw new Error('Not found')
      trackedObjects.splice(index, 1)
    },
    findTrack: async (id) => structuredClone(tracks.get(id) ?? []),
    findLocationCategories: async () => structuredClone(locationCategories),
    tour: {
      find: async () => structuredClone(viewpoints),
      add: async (body) => {
        const viewpoint: TourViewpointRecord = {
          id: nextId('viewpoint'),
          project_id: body.project_id,
          seq: viewpoints.length + 1,
          name: body.name,
          lng: Number(body.lng),
          lat: Number(body.lat),
          zoom: Number(body.zoom),
          pitch: Number(body.pitch),
          bearing: Number(body.bearing),
          dwell_seconds: Number(body.dwell_seconds ?? 3),
          created_at: now,
        }
        viewpoints.push(viewpoint)
        return structuredClone(viewpoint)
      },
      remove: async (id) => {
        const index = viewpoints.findIndex((viewpoint) => viewpoint.id === id)
        if (index === -1) throw new Error('Not found')
        viewpoints.splice(index, 1)
        viewpoints.forEach((viewpoint, position) => {
          viewpoint.seq = position + 1
        })
      },
    },
    anchors: {
      find: async (_projectId, target) =>
        structuredClone(anchors.filter((anchor) => anchor.target === target)),
      add: async (body) => {
        const anchor: LocationAnchor = {
          id: nextId('anchor'),
          project_id: body.project_id,
          target: body.target ?? '',
          name: body.name,
          x: Number(body.x),
          y: Number(body.y),
          z: Number(body.z ?? 0),
          lng: Number(body.lng),
          lat: Number(body.lat),
          offset: Number(body.offset ?? 0),
          created_at: now,
          updated_at: now,
        }
        anchors.push(anchor)
        return structuredClone(anchor)
      },
      remove: async (id) => {
        const index = anchors.findIndex((anchor) => anchor.id === id)
        if (index === -1) throw new Error('Not found')
        anchors.splice(index, 1)
      },
    },
    findBasemap: async () => structuredClone(basemap),
    saveBasemap: async (body) => {
      const file = basemap.files.find((candidate) => candidate.id === body.pmtiles_id)
      basemap = {
        setting: {
          kind: body.kind,
          style_url: body.kind === 'online' ? (body.style_url ?? null) : null,
          pmtiles_id: body.kind === 'pmtiles' ? (body.pmtiles_id ?? null) : null,
        },
        pmtiles_url: body.kind === 'pmtiles' && file ? file.url : null,
        style_proxy_url:
          body.kind === 'online'
            ? `/web/mapproxy/g/s/o/${encodeURIComponent(body.style_url ?? '')}`
            : null,
        files: basemap.files,
      }
      return structuredClone(basemap)
    },
    uploadBasemap: async (input) => {
      const file: BasemapFile = {
        id: nextId('pmtiles'),
        name:
          'uploadId' in input
            ? (uploads.get(input.uploadId)?.name ?? 'map.pmtiles')
            : 'map.pmtiles',
        size_bytes: 1024,
        url: `/web/basemaps/${sequence}.pmtiles`,
        created_at: now,
      }
      basemap.files.push(file)
      return structuredClone(file)
    },
  }

  return {
    projectId,
    services,
    tilesets,
    anchors,
    viewpoints,
    gisModels,
    get basemap() {
      return basemap
    },
    progressSeen,
    drawings,
    fenceIds,
    trackedObjects,
    tracks,
    fenceEvents,
    locationCategories,
  }
}
