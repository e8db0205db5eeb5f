import { useCallback, useEffect, useRef } from 'react'
import { sceneStore } from '../../engine-bridge'
import { type EmbedActions, EmbedError, allowedEmbedOrigins, createEmbedApi } from './embed-api'

/** What the embedding API is told about: the engine and the preview's tour. */
interface EmbedHookOptions {
  run: (name: 'building.flyToPoi' | 'building.selectFloor', args: never) => Promise<unknown>
  startTour(): boolean
  stopTour(): void
  /** The address's query (for `embed_origin`). */
  search: string
}

/**
 * Hears the embedding page (embed-api.ts) while the preview runs inside an `<iframe>`; answers
 * `emit` to send events (ready, pick, tour) to it. Outside an iframe it does nothing.
 */
export function useEmbedApi(
  options: EmbedHookOptions,
): (event: 'ready' | 'pick' | 'tour', data: unknown) => void {
  const latest = useRef(options)
  latest.current = options
  const apiRef = useRef<ReturnType<typeof createEmbedApi> | null>(null)
  const { search } = options

  useEffect(() => {
    if (window.parent === window) return
    const actions: EmbedActions = {
      async flyToPoi(poiId) {
        try {
          await latest.current.run('building.flyToPoi', { id: poiId } as never)
        } catch (error) {
          throw new EmbedError('notFound', (error as Error).message)
        }
      },
      async selectFloor(floor) {
        const floors = sceneStore.building.floors
        const found =
          floor === null ? null : floors.find((each) => each.id === floor || each.name === floor)
        if (found === undefined) throw new EmbedError('notFound', `No floor '${floor}'.`)
        await latest.current.run('building.selectFloor', { floorId: found?.id ?? null } as never)
      },
      startTour: () => latest.current.startTour(),
      stopTour: () => latest.current.stopTour(),
    }
    const api = createEmbedApi({
      origins: allowedEmbedOrigins(search, window.location.origin),
      parent: window.parent,
      actions,
    })
    apiRef.current = api
    const onMessage = (event: MessageEvent) => void api.onMessage(event)
    window.addEventListener('message', onMessage)
    return () => {
      window.removeEventListener('message', onMessage)
      apiRef.current = null
    }
  }, [search])

  // stable: effects that emit need not run again on every render
  return useCallback((event, data) => apiRef.current?.emit(event, data), [])
}
