import { Trans } from '@lingui/react/macro'
import { useCallback, useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { findLocationCategoryTree } from '../../../api/templates'
import {
  addTrackedObject,
  deleteTrackedObject,
  findTrackedObjects,
  type TrackedObject,
} from '../../../api/tracking'
import { reasonText } from '../../../components/feedback/error-text'
import {
  LocationPoiForm,
  type LocationPoiFormCalls,
} from '../../../components/location-pois/LocationPoiForm'
import { LocationPoiList } from '../../../components/location-pois/LocationPoiList'
import { useProjectPermissions } from '../../../components/project/project-permissions'
import { toast } from '../../../ui'
import { buildingSession } from '../building-session'
import '../../../components/region-list/region-list.css'

/** The location POI calls of the tab (component tests pass in-memory ones). */
export interface LocationPoiCalls extends LocationPoiFormCalls {
  find: (projectId: string) => Promise<TrackedObject[]>
  remove: (id: string) => Promise<void>
}

/** The real `/poi` location POI calls and the location category tree. */
export const defaultLocationPoiCalls: LocationPoiCalls = {
  find: findTrackedObjects,
  add: addTrackedObject,
  remove: deleteTrackedObject,
  findCategories: findLocationCategoryTree,
}

/**
 * The building's location POIs (SPEC §7 `creatLocationPoi`, `selLocationPoi`, `delLocationPoi`;
 * issue 18): the positioned objects of the building — people, vehicles, devices — each with its
 * category, coding and last reported position. An editor adds one (its device token shown once)
 * and deletes one; a reader sees the list. A building without a location is told why they are
 * not drawn.
 */
export function LocationPoisTab({ calls }: { calls: LocationPoiCalls }) {
  const session = useSnapshot(buildingSession)
  const { canEdit } = useProjectPermissions(session.project)
  const projectId = session.projectId
  const [objects, setObjects] = useState<TrackedObject[]>([])
  const [isLoaded, setIsLoaded] = useState(false)

  const refresh = useCallback(async () => {
    if (projectId === null) return
    try {
      const found = await calls.find(projectId)
      // an answer for a project the user left meanwhile is dropped
      if (buildingSession.projectId !== projectId) return
      setObjects(found)
      setIsLoaded(true)
    } catch (error) {
      toast.error(reasonText(error))
    }
  }, [calls, projectId])

  useEffect(() => {
    setObjects([])
    setIsLoaded(false)
    void refresh()
  }, [refresh])

  return (
    <div className="ts-anchors" data-testid="bim4-location-pois">
      <p className="ts-anchors__hint">
        <Trans>
          Positioned objects report where they are with their device token; the list shows their
          last positions.
        </Trans>
      </p>
      {session.project && !session.project.project_center && (
        // Without a location nothing ties the objects' longitudes and latitudes to the model
        // (use-building-tracking.ts draws none): said here, where they are looked for.
        <p className="ts-region__issue" role="note" data-testid="location-pois-unplaced">
          <Trans>
            The building has no location yet, so its positioned objects are not drawn in the scene.
          </Trans>{' '}
          <Trans>Please add an anchor point first.</Trans>
        </p>
      )}
      {canEdit && projectId !== null && (
        <LocationPoiForm projectId={projectId} calls={calls} onAdded={refresh} />
      )}
      <LocationPoiList
        objects={objects}
        isLoaded={isLoaded}
        headingClassName="ts-anchors__heading"
        onDelete={
          canEdit
            ? async (object) => {
                await calls.remove(object.id)
                await refresh()
              }
            : undefined
        }
      />
    </div>
  )
}
