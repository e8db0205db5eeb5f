import { useEffect } from 'react'
import { subscribe, useSnapshot } from 'valtio'
import type { LiveEvent } from '../../../api/iot-live'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { iotStore, onLiveEvent } from '../../bim4/iot/iot-store'
import { useCityServices } from '../city-services'
import { applyTrackingEvent, extendTrails, markersOf, trackingStore } from './tracking-store'

/** How often the location tabs ask for new positions and fence events while the stream is down. */
export const trackingPollMs = 2000

/**
 * While `isActive` (a location tab is shown), shows the open city project's location POIs
 * (positioned objects), fences and fence events: loaded once, then kept current by the project's
 * live stream (contract/iot-live.ts, opened by the editor) — positions, fence crossings and fence
 * changes arrive as they happen, and a `reset` (events missed) loads again. While the stream is
 * not live (connecting, or refused), they are polled every {@link trackingPollMs} instead. Draws
 * the markers with their live trails in the city scene; leaving clears them.
 */
export function useCityTracking(projectId: string | null, isActive: boolean): void {
  const engine = useEngine()
  const services = useCityServices()
  const { isOpen, projectId: openProjectId } = useSnapshot(sceneStore).city
  const live = useSnapshot(iotStore)
  const isLive = live.liveState === 'live' && live.projectId === projectId

  useEffect(() => {
    if (!projectId || !isActive) return
    trackingStore.projectId = projectId
    trackingStore.loadState = 'loading'
    return () => {
      trackingStore.playback = null
      trackingStore.trails.clear()
      trackingStore.loadState = 'idle'
    }
  }, [projectId, isActive])

  useEffect(() => {
    if (!projectId || !isActive) return
    let isCurrent = true
    let timer: ReturnType<typeof setTimeout> | undefined
    // Events that arrive while a load is answered are held and applied on top of its answer,
    // which may have been read before them (else a move seen live would be undone by the load).
    let loadsRunning = 0
    let heldEvents: LiveEvent[] = []
    const applyHeld = () => {
      if (loadsRunning > 0) return
      for (const event of heldEvents.splice(0)) applyTrackingEvent(trackingStore, projectId, event)
    }
    const load = async () => {
      loadsRunning += 1
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
      } finally {
        loadsRunning -= 1
        if (isCurrent) applyHeld()
      }
    }
    const poll = async () => {
      await load()
      if (isCurrent) timer = setTimeout(poll, trackingPollMs)
    }
    // going live (again) loads once: what happened while the stream was down is read back
    void (isLive ? load() : poll())
    const stopListening = isLive
      ? onLiveEvent((event: LiveEvent) => {
          if (event.type === 'reset') {
            heldEvents = []
            void load()
          } else if (loadsRunning > 0) heldEvents.push(event)
          else applyTrackingEvent(trackingStore, projectId, event)
        })
      : () => {}
    return () => {
      isCurrent = false
      clearTimeout(timer)
      stopListening()
    }
  }, [projectId, isActive, services, isLive])

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
