import { renderHook, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { TrackedObject } from '../../../api/tracking'
import type { EngineHandle } from '../../../engine-bridge'
import { useBuildingTracking } from './use-building-tracking'

/**
 * The building's positioned objects in its scene (issue 18): while the location module is shown
 * and the building has a location, the objects with a position are handed to the scene around
 * that origin; leaving the module takes them off; without a location nothing is drawn.
 */

const center = { lng: 126.978, lat: 37.5665 }

function object(id: string, position: { lng: number; lat: number } | null): TrackedObject {
  return {
    id,
    project_id: 'building-1',
    name: id,
    category: 'person',
    category_id: '',
    coding: '',
    last_position: position && { ...position, heading: 90, at: '2026-11-27T21:00:00.000Z' },
    inside_fence_ids: [],
    created_at: '2026-11-27T20:00:00.000Z',
  }
}

function fakeEngine() {
  const run = vi.fn(async (..._args: unknown[]) => undefined)
  return { run, engine: { run } as unknown as EngineHandle }
}

describe('useBuildingTracking', () => {
  it("draws the objects with a position around the building's location, and takes them off on leaving", async () => {
    const { run, engine } = fakeEngine()
    const find = vi.fn(async () => [
      object('walker', { lng: 126.9781, lat: 37.5666 }),
      object('silent', null),
    ])
    const { rerender } = renderHook(
      ({ isActive }) => useBuildingTracking(engine, 'building-1', isActive, center, find),
      { initialProps: { isActive: true } },
    )
    await waitFor(() => expect(run).toHaveBeenCalled())
    expect(find).toHaveBeenCalledWith('building-1')
    expect(run).toHaveBeenLastCalledWith('building.setTrackMarkers', {
      origin: center,
      markers: [
        expect.objectContaining({ id: 'walker', lng: 126.9781, lat: 37.5666, heading: 90 }),
      ],
    })
    rerender({ isActive: false })
    expect(run).toHaveBeenLastCalledWith('building.setTrackMarkers', {
      origin: center,
      markers: [],
    })
  })

  it('draws nothing for a building without a location', () => {
    const { run, engine } = fakeEngine()
    const find = vi.fn(async () => [object('walker', center)])
    // the effect would ask for the objects at once (before any await)
    renderHook(() => useBuildingTracking(engine, 'building-1', true, null, find))
    expect(find).not.toHaveBeenCalled()
    expect(run).not.toHaveBeenCalled()
  })
})
