import { useEffect } from 'react'
import { subscribe, useSnapshot } from 'valtio'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { useCityServices } from '../city-services'
import { extendTrails, markersOf, trackingStore } from './tracking-store'

/** How often the location tabs ask for new positions and fence events. */
export const trackingPollMs = 2000

/**
 * While `isActive` (a location tab is shown), polls the open city project's positioned objects,
 * fences and fence events every {@link trackingPollMs}, keeps each object's live trail, and
 * draws the markers in the city scene; leaving clears the markers. A failed poll keeps what was
 * shown and tries again next time.
 */
export function useCityTracking(projectId: string | null, isActive: boolean): void {
  const engine = useEngine()
  const services = useCityServices()
  const { isOpen, projectId: openProjectId } = useSnapshot(sceneStore).city

  useEffect(() => {
    if (!projectId || !isActive) return
    trackingStore.projectId = projectId
    trackingStore.loadState = 'loading'
    let isCurrent = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const poll = async () => {
      try {
        const [objects, fenceIds, events] = await Promise.all([
          services.findTrackedObjects(projectId),
          services.findFences(projectId),
          services.findFenceEvents(projectId),
        ])
        if (!isCurrent) return
        extendTrails(trackingStore.trails, objects)
        trackingStore.objects = objects
        trackingStore.fenceIds = fenceIds
        trackingStore.events = events
        trackingStore.loadState = 'ready'
      } catch {
        if (isCurrent && trackingStore.loadState === 'loading') trackingStore.loadState = 'failed'
      }
      if (isCurrent) timer = setTimeout(poll, trackingPollMs)
    }
    void poll()
    return () => {
      isCurrent = false
      clearTimeout(timer)
      trackingStore.playback = null
      trackingStore.trails.clear()
      trackingStore.loadState = 'idle'
    }
  }, [projectId, isActive, services])

  useEffect(() => {
    if (!isOpen || !openProjectId || !isActive) return
    const send = () => {
      engine.run('track.setMarkers', { markers: markersOf(trackingStore) }).catch(() => {
        // an engine failure lands in snapshot.lastError
      })
    }
    send()
    const unsubscribe = subscribe(trackingStore, send)
    return () => {
      unsubscribe()
      engine.run('track.setMarkers', { markers: [] }).catch(() => {})
    }
  }, [engine, isOpen, openProjectId, isActive])
}
