import { proxy, ref } from 'valtio'
import type { DrawPosition, TrackMarker } from '../../../../engine/api'
import type { LiveEvent } from '../../../api/iot-live'
import type { FenceEvent, TrackedObject, TrackPosition } from '../../../api/tracking'

/** How many live positions a marker's trail keeps. */
export const liveTrailLength = 60

/** How many fence events the fence tab keeps (the newest; as many as it loads). */
export const keptFenceEvents = 50

/** A track being played back on the timeline. */
export interface TrackPlayback {
  objectId: string
  positions: TrackPosition[]
  /** The position shown now (index into `positions`). */
  index: number
  isPlaying: boolean
  /** Positions advanced per tick (×1 ×2 ×3 ×5). */
  rate: 1 | 2 | 3 | 5
}

/** The open city project's fences, positioned objects and their trails (issue 18). */
export interface TrackingStore {
  projectId: string | null
  fenceIds: string[]
  objects: TrackedObject[]
  events: FenceEvent[]
  /** Positions seen live per object, oldest first (not reactive: only the markers read them). */
  trails: Map<string, DrawPosition[]>
  playback: TrackPlayback | null
  loadState: 'idle' | 'loading' | 'ready' | 'failed'
}

/** One store for the GPS positioning and electronic fence tabs. */
export const trackingStore = proxy<TrackingStore>({
  projectId: null,
  fenceIds: [],
  objects: [],
  events: [],
  trails: ref(new Map()),
  playback: null,
  loadState: 'idle',
})

/** A stable colour per object, so a marker keeps its colour across polls. */
export function colorOfObject(id: string): string {
  const palette = ['#007aff', '#34c759', '#ff9500', '#af52de', '#5ac8fa', '#ffcc00', '#ff2d55']
  let hash = 0
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0
  return palette[hash % palette.length]!
}

/** Adds each object's newest position to its live trail (a repeat of the last is skipped). */
export function extendTrails(
  trails: Map<string, DrawPosition[]>,
  objects: readonly TrackedObject[],
): void {
  const ids = new Set(objects.map((object) => object.id))
  for (const id of trails.keys()) if (!ids.has(id)) trails.delete(id)
  for (const object of objects) {
    const position = object.last_position
    if (!position) continue
    const trail = trails.get(object.id) ?? []
    const last = trail[trail.length - 1]
    if (!last || last[0] !== position.lng || last[1] !== position.lat)
      trail.push([position.lng, position.lat])
    trails.set(object.id, trail.slice(-liveTrailLength))
  }
}

/**
 * Applies one event of the project's live stream to the store (issue 18): a location POI added
 * or moved (its trail grows), deleted, a fence crossed (newest first), the fences changed.
 * Events of another project, and events of other areas, are left alone.
 */
export function applyTrackingEvent(
  store: Pick<TrackingStore, 'objects' | 'trails' | 'events' | 'fenceIds' | 'playback'>,
  projectId: string,
  event: LiveEvent,
): void {
  switch (event.type) {
    case 'positioned': {
      const { object } = event
      if (object.project_id !== projectId) return
      const index = store.objects.findIndex((candidate) => candidate.id === object.id)
      if (index >= 0) store.objects[index] = object
      else store.objects.push(object)
      extendTrails(store.trails, store.objects)
      return
    }
    case 'positionedDeleted':
      store.objects = store.objects.filter((object) => object.id !== event.id)
      store.trails.delete(event.id)
      if (store.playback?.objectId === event.id) store.playback = null
      return
    case 'fenceEvent':
      if (event.event.project_id !== projectId) return
      if (store.events.some((known) => known.id === event.event.id)) return
      store.events = [event.event, ...store.events].slice(0, keptFenceEvents)
      return
    case 'fences':
      store.fenceIds = event.draw_ids
      return
    default:
      return
  }
}

/**
 * The markers the map shows: while a track is played back, only that object at the played
 * position with the track before it as its trail; otherwise every object at its last position
 * with its live trail (the trail's last point is the marker itself, so it is left out).
 */
export function markersOf(
  store: Pick<TrackingStore, 'objects' | 'trails' | 'playback'>,
): TrackMarker[] {
  const { playback } = store
  if (playback) {
    const position = playback.positions[playback.index]
    if (!position) return []
    return [
      {
        id: playback.objectId,
        lng: position.lng,
        lat: position.lat,
        heading: position.heading,
        trail: playback.positions
          .slice(0, playback.index)
          .map((item) => [item.lng, item.lat] as const),
        color: colorOfObject(playback.objectId),
        isInsideFence: false,
      },
    ]
  }
  return store.objects.flatMap((object) => {
    const position = object.last_position
    if (!position) return []
    return [
      {
        id: object.id,
        lng: position.lng,
        lat: position.lat,
        heading: position.heading,
        trail: (store.trails.get(object.id) ?? []).slice(0, -1),
        color: colorOfObject(object.id),
        isInsideFence: object.inside_fence_ids.length > 0,
      },
    ]
  })
}
