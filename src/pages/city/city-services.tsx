import { createContext, type ReactNode, useContext } from 'react'
import * as cityApi from '../../api/city'
import * as drawApi from '../../api/draw'
import * as trackingApi from '../../api/tracking'
import * as templatesApi from '../../api/templates'
import * as viewTourApi from '../../api/view-tour'
import { type AnchorCalls, defaultAnchorCalls } from '../../components/anchors/use-saved-anchors'
import { cityRoutes } from '../../../contract/city'
import { api } from '../../api'
import type { RequestOptions } from '../../api/client'
import { findProjectInfo } from '../../api/project'
import { uploadResumable } from '../../api/resumable-upload'

/**
 * The server calls the city editor makes, as one object handed down through context: the app
 * uses the real `/web/` client, component tests pass an in-memory server with the same shape.
 */
export interface CityServices {
  findProjectInfo: typeof findProjectInfo
  findObliquePhotographs: typeof cityApi.findObliquePhotographs
  uploadTiltModel: typeof cityApi.uploadTiltModel
  /** A named tileset record without content yet (`/obliquephotograph/add`). */
  addObliquePhotograph: typeof cityApi.addObliquePhotograph
  updateObliquePhotograph: typeof cityApi.updateObliquePhotograph
  deleteObliquePhotograph: typeof cityApi.deleteObliquePhotograph
  selectGisModels: typeof cityApi.selectGisModels
  addGisModel: typeof cityApi.addGisModel
  updateGisModel: typeof cityApi.updateGisModel
  deleteGisModel: typeof cityApi.deleteGisModel
  findBasemap: typeof cityApi.findBasemap
  saveBasemap: typeof cityApi.saveBasemap
  uploadBasemap: typeof cityApi.uploadBasemap
  /** Areas and paths (issue 18). */
  findAreaDraws: typeof drawApi.findAreaDraws
  addAreaDraw: typeof drawApi.addAreaDraw
  updateAreaDraw: typeof drawApi.updateAreaDraw
  deleteAreaDraw: typeof drawApi.deleteAreaDraw
  /** Electronic fences and positioned objects (issue 18). */
  findFences: typeof trackingApi.findFences
  setFence: typeof trackingApi.setFence
  findFenceEvents: typeof trackingApi.findFenceEvents
  findTrackedObjects: typeof trackingApi.findTrackedObjects
  addTrackedObject: typeof trackingApi.addTrackedObject
  deleteTrackedObject: typeof trackingApi.deleteTrackedObject
  findTrack: typeof trackingApi.findTrack
  /** The location category tree, for a location POI's category (issue 18). */
  findLocationCategories: typeof templatesApi.findLocationCategoryTree
  /** Anchor points of the tilesets (issue 18, `/poi` location mapping). */
  anchors: AnchorCalls
  /** The view tour's viewpoints (issue 18). */
  tour: {
    find: typeof viewTourApi.findTourViewpoints
    add: typeof viewTourApi.addTourViewpoint
    remove: typeof viewTourApi.deleteTourViewpoint
  }
  /** Sends a file in resumable chunks with real byte progress; answers the upload's id. */
  uploadResumable: (
    file: File,
    options: {
      purpose: 'tileset' | 'basemap'
      onProgress: (sentBytes: number, totalBytes: number) => void
      signal?: AbortSignal
    },
  ) => Promise<{ uploadId: string }>
}

/**
 * A finished resumable upload is claimed with plain JSON fields: the server reads `upload_id`
 * only from a non-multipart body (server/routes/web/city.ts `receiveUpload`).
 */
function claimOptions(signal: AbortSignal | undefined): RequestOptions {
  return { encoding: 'json', ...(signal ? { signal } : {}) }
}

/** The real calls. */
export const defaultCityServices: CityServices = {
  findProjectInfo,
  findObliquePhotographs: cityApi.findObliquePhotographs,
  uploadTiltModel: (input, signal) =>
    'uploadId' in input
      ? api
          .call(
            cityRoutes.uploadTiltModel,
            {
              project_id: input.projectId,
              id: input.id,
              name: input.name,
              upload_id: input.uploadId,
            },
            claimOptions(signal),
          )
          .then(({ datum }) => datum)
      : cityApi.uploadTiltModel(input, signal),
  addObliquePhotograph: cityApi.addObliquePhotograph,
  updateObliquePhotograph: cityApi.updateObliquePhotograph,
  deleteObliquePhotograph: cityApi.deleteObliquePhotograph,
  selectGisModels: cityApi.selectGisModels,
  addGisModel: cityApi.addGisModel,
  updateGisModel: cityApi.updateGisModel,
  deleteGisModel: cityApi.deleteGisModel,
  findBasemap: cityApi.findBasemap,
  saveBasemap: cityApi.saveBasemap,
  uploadBasemap: (input, signal) =>
    'uploadId' in input
      ? api
          .call(
            cityRoutes.uploadBasemap,
            { project_id: input.projectId, name: input.name, upload_id: input.uploadId },
            claimOptions(signal),
          )
          .then(({ datum }) => datum)
      : cityApi.uploadBasemap(input, signal),
  uploadResumable: (file, options) => uploadResumable(file, options),
  findAreaDraws: drawApi.findAreaDraws,
  addAreaDraw: drawApi.addAreaDraw,
  updateAreaDraw: drawApi.updateAreaDraw,
  deleteAreaDraw: drawApi.deleteAreaDraw,
  findFences: trackingApi.findFences,
  setFence: trackingApi.setFence,
  findFenceEvents: trackingApi.findFenceEvents,
  findTrackedObjects: trackingApi.findTrackedObjects,
  addTrackedObject: trackingApi.addTrackedObject,
  deleteTrackedObject: trackingApi.deleteTrackedObject,
  findTrack: trackingApi.findTrack,
  findLocationCategories: templatesApi.findLocationCategoryTree,
  anchors: defaultAnchorCalls,
  tour: {
    find: viewTourApi.findTourViewpoints,
    add: viewTourApi.addTourViewpoint,
    remove: viewTourApi.deleteTourViewpoint,
  },
}

const CityServicesContext = createContext<CityServices>(defaultCityServices)

/** Provides the city editor's server calls (tests pass their own). */
export function CityServicesProvider({
  services,
  children,
}: {
  services: CityServices
  children: ReactNode
}) {
  return <CityServicesContext value={services}>{children}</CityServicesContext>
}

/** The city editor's server calls. */
export function useCityServices(): CityServices {
  return useContext(CityServicesContext)
}
