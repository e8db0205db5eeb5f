import { useEffect } from 'react'
import type { DrawPosition } from '../../../../engine/api'
import { findTrackedObjects, type TrackedObject } from '../../../api/tracking'
import type { EngineHandle } from '../../../engine-bridge'
import { extendTrails, markersOf } from '../../city/draw/tracking-store'
import { trackingPollMs } from '../../city/draw/use-city-tracking'

/**
 * While `isActive` (the location module is shown), draws the building project's positioned
 * objects in the building scene (issue 18): each at its last reported position around the
 * building, placed by the project's location (`center`, set by its anchor points; without one
 * nothing can be placed and nothing is drawn), with the trail it came along while shown. Asked
 * again every {@link trackingPollMs}; leaving takes the markers off.
 */
export function useBuildingTracking(
  engine: EngineHandle | null,
  projectId: string | null,
  isActive: boolean,
  center: { lng: number; lat: number } | null | undefined,
  find: (projectId: string) => Promise<TrackedObject[]> = findTrackedObjects,
): void {
  const lng = center?.lng
  const lat = center?.lat
  useEffect(() => {
    if (!engine || !projectId || !isActive || lng === undefined || lat === undefined) return
    const origin = { lng, lat }
    const trails = new Map<string, DrawPosition[]>()
    let isCurrent = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const show = async () => {
      try {
        const objects = await find(projectId)
        if (!isCurrent) return
        extendTrails(trails, objects)
        await engine.run('building.setTrackMarkers', {
          origin,
          markers: markersOf({ objects, trails, playback: null }),
        })
      } catch {
        // asked again at the next turn; the location tab says why a list cannot be read
      }
      if (isCurrent) timer = setTimeout(show, trackingPollMs)
    }
    void show()
    return () => {
      isCurrent = false
      clearTimeout(timer)
      void engine.run('building.setTrackMarkers', { origin, markers: [] }).catch(() => {})
    }
  }, [engine, projectId, isActive, lng, lat, find])
}
