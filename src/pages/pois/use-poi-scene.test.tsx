import { renderHook, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createPoiStore } from '../../state/pois'
import { createFakePoiServer, poiRecord, sceneTemplate } from './testing/fake-poi-server'
import { usePoiScene } from './use-poi-scene'

describe('usePoiScene', () => {
  it("loads the project's POIs, draws them through the engine and clears them on leaving", async () => {
    const camera = sceneTemplate('t1', 'Camera')
    const server = createFakePoiServer(
      [camera],
      [poiRecord({ id: 'a', category_id: 't1' }, camera)],
    )
    const store = createPoiStore(server, { onError: vi.fn() })
    const run = vi.fn(async (_name: string, _args: unknown) => undefined)
    const engine = { run: run as never, hasCommand: (name: string) => name.startsWith('building.') }
    const { unmount } = renderHook(() => usePoiScene(engine, 'building', 'project-1', store))
    await waitFor(() =>
      expect(
        run.mock.calls.some(
          ([name, args]) =>
            name === 'building.setPois' && (args as { pois: unknown[] }).pois.length === 1,
        ),
      ).toBe(true),
    )
    expect(store.state.frame).toBe('building')
    unmount()
    expect(store.state.projectId).toBeNull()
  })
})
