import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Engine } from '../../../engine-bridge'
import {
  type MemoryCityServer,
  renderCityEditorAt,
  withCampusTileset,
} from '../testing/render-city-editor'
import { closeProject, currentProject } from '../../../state/project'
import type { TrackedObject } from '../../../api/tracking'
import { applyLiveEvent, iotStore } from '../../bim4/iot/iot-store'
import { pickTilesetAnchorAt, tilesetAnchorPick } from './tileset-anchor-pick'
import { trackingStore } from './tracking-store'

/**
 * The location tabs of the city editor (issue 18): GPS positioning (add a location POI and see
 * its device token once, its last position, its track played back; delete it; follow it on the
 * project's live stream), the electronic fence (make an area a fence, read the enter and leave
 * events) and the anchor point set (typed, or picked on the tileset).
 */

/**
 * Marks the project's live stream as open, as the editor's stream does once connected, and waits
 * for the one load that going live makes (`load` is a spied service call of it) to be answered,
 * so it cannot overwrite the events a test sends next.
 */
async function goLive(load: { mock: { calls: unknown[] } }) {
  const before = load.mock.calls.length
  iotStore.projectId = 'project-1'
  iotStore.liveState = 'live'
  await waitFor(() => expect(load.mock.calls.length).toBeGreaterThan(before))
  // the in-memory answers come within a few microtasks: one turn of the event loop is enough
  await new Promise((resolve) => setTimeout(resolve, 0))
}

/** A location POI as the stream carries it. */
function walkerAt(position: TrackedObject['last_position'], insideFenceIds: string[] = []) {
  return {
    id: 'tracked-live',
    project_id: 'project-1',
    name: 'Walker',
    category: 'Guards',
    category_id: 'category-1',
    coding: 'W-1',
    last_position: position,
    inside_fence_ids: insideFenceIds,
    created_at: '2026-01-01T00:00:00.000Z',
  } satisfies TrackedObject
}

let engine: Engine

beforeEach(() => {
  engine = new Engine()
  currentProject.projectId = 'project-1'
  currentProject.projectToken = 'token'
})

afterEach(() => {
  vi.restoreAllMocks()
  iotStore.liveState = 'stopped'
  iotStore.projectId = null
  tilesetAnchorPick.tilesetId = null
  engine.dispose()
  closeProject()
  window.location.hash = ''
})

/** The city editor at `path` (see renderCityEditorAt). */
const renderAt = (path: string, prepare?: (server: MemoryCityServer) => void) =>
  renderCityEditorAt(engine, path, { prepare })

describe('GPS positioning tab', () => {
  it('adds an object showing its token once, plays its track, and deletes it after confirming', async () => {
    const user = userEvent.setup()
    const server = await renderAt('/home/location/gps')
    await screen.findByText('No positioned objects yet')
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Walker')
    await user.type(screen.getByRole('textbox', { name: /^Category/ }), 'person')
    await user.click(screen.getByRole('button', { name: 'Add' }))

    const token = await screen.findByTestId('tracked-token')
    expect(token.textContent).toContain('The device token of Walker is shown only now.')
    expect(token.textContent).toMatch(/POST http.*\/api\/v1\/token-tracked-\d+\/position/)
    const item = await screen.findByTestId('tracked-item')
    expect(item.textContent).toContain('Walker')
    expect(item.textContent).toContain('no position yet')
    await user.click(within(token).getByRole('button', { name: 'Done' }))
    expect(screen.queryByTestId('tracked-token')).toBeNull()

    // A position and a track arrive (as the position reports would leave them).
    const object = server.trackedObjects[0]!
    object.last_position = { lng: 126.975, lat: 37.565, heading: 90, at: new Date().toISOString() }
    object.inside_fence_ids = ['draw-1']
    server.tracks.set(object.id, [
      { lng: 126.971, lat: 37.565, heading: 90, at: '2026-01-01T00:00:00.000Z' },
      { lng: 126.973, lat: 37.565, heading: 90, at: '2026-01-01T00:00:10.000Z' },
      { lng: 126.975, lat: 37.565, heading: 90, at: '2026-01-01T00:00:20.000Z' },
    ])
    await screen.findByTestId('tracked-inside', {}, { timeout: 5000 })
    expect(screen.getByTestId('tracked-item').textContent).toContain('last seen')

    await user.click(screen.getByRole('button', { name: 'Play the track of Walker' }))
    const playback = await screen.findByTestId('track-playback')
    expect(playback.textContent).toContain('Track of Walker')
    // It plays from the first position; the slider goes straight to the last.
    await user.click(within(playback).getByRole('button', { name: 'Pause' }))
    const slider = within(playback).getByRole('slider', { name: 'Time' })
    expect(slider.getAttribute('max')).toBe('2')
    await user.click(within(playback).getByRole('button', { name: '×5' }))
    await user.click(within(playback).getByRole('button', { name: 'Play' }))
    await waitFor(() =>
      expect(screen.getByTestId('track-playback-time').textContent).toContain('(3/3)'),
    )
    expect(within(playback).getByRole('button', { name: 'Play' })).toBeTruthy()
    await user.click(within(playback).getByRole('button', { name: 'Close' }))
    expect(screen.queryByTestId('track-playback')).toBeNull()

    await user.click(
      within(screen.getByTestId('tracked-item')).getByRole('button', { name: 'Delete Walker' }),
    )
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    )
    await screen.findByText('No positioned objects yet')
    expect(server.trackedObjects).toHaveLength(0)
  })

  it('says so when the browser cannot get the user’s location', async () => {
    const user = userEvent.setup()
    Object.defineProperty(navigator, 'geolocation', {
      configurable: true,
      value: {
        getCurrentPosition: (_ok: unknown, fail: (error: { code: number }) => void) =>
          fail({ code: 1 }),
      },
    })
    await renderAt('/home/location/gps')
    await user.click(await screen.findByRole('button', { name: 'My location' }))
    expect(await screen.findByText('The browser cannot get your location.')).toBeTruthy()
  })
})

describe('GPS positioning tab on the live stream', () => {
  it('files a new object under a location category, then follows its moves, fence crossings and deletion live', async () => {
    const user = userEvent.setup()
    const server = await renderAt('/home/location/gps', (memory) => {
      memory.locationCategories.push({
        id: 'category-1',
        pid: '0',
        category_name: 'Guards',
        value: 'category-1',
        kind: 'location',
        piddes: 'category-1',
        level: 1,
        is_system: false,
        can_edit: true,
        created_at: '2026-01-01T00:00:00.000Z',
        children: [],
      })
    })
    const find = vi.spyOn(server.services, 'findTrackedObjects')
    await screen.findByText('No positioned objects yet')
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Guard')
    await user.click(screen.getByRole('combobox', { name: 'Location category' }))
    await user.click(await screen.findByRole('option', { name: 'Guards' }))
    await user.type(screen.getByRole('textbox', { name: /^Coding/ }), 'G-1')
    await user.click(screen.getByRole('button', { name: 'Add' }))
    await screen.findByTestId('tracked-token')
    expect(server.trackedObjects[0]).toMatchObject({ category_id: 'category-1', coding: 'G-1' })
    server.trackedObjects.splice(0)

    // going live reads the objects once (what happened while the stream was down)
    await goLive(find)
    await waitFor(() => expect(screen.queryAllByTestId('tracked-item')).toHaveLength(0))
    const calls = find.mock.calls.length
    applyLiveEvent({
      type: 'positioned',
      object: walkerAt({ lng: 126.975, lat: 37.565, heading: 90, at: new Date().toISOString() }, [
        'draw-1',
      ]),
    })
    const item = await screen.findByTestId('tracked-item')
    expect(item.textContent).toContain('Walker')
    expect(item.textContent).toContain('Guards · W-1')
    expect(within(item).getByTestId('tracked-inside')).toBeTruthy()
    // another project's object is not this one's
    applyLiveEvent({
      type: 'positioned',
      object: { ...walkerAt(null), id: 'elsewhere', project_id: 'project-2', name: 'Stranger' },
    })
    applyLiveEvent({ type: 'positionedDeleted', id: 'tracked-live' })
    await screen.findByText('No positioned objects yet')
    expect(screen.queryByText('Stranger')).toBeNull()
    // all of it without asking the server again; a reset asks once
    expect(find.mock.calls.length).toBe(calls)
    applyLiveEvent({ type: 'reset' })
    await waitFor(() => expect(find.mock.calls.length).toBe(calls + 1))
  })
})

describe('GPS positioning tab while reading again', () => {
  it('keeps a move seen live while the objects are being read again', async () => {
    const server = await renderAt('/home/location/gps')
    await screen.findByText('No positioned objects yet')
    // the next reads are held until the test answers them (with what was read before the move)
    const answers: Array<(objects: TrackedObject[]) => void> = []
    vi.spyOn(server.services, 'findTrackedObjects').mockImplementation(
      () => new Promise<TrackedObject[]>((resolve) => answers.push(resolve)),
    )
    iotStore.projectId = 'project-1'
    iotStore.liveState = 'live'
    await waitFor(() => expect(answers.length).toBeGreaterThan(0))
    applyLiveEvent({
      type: 'positioned',
      object: walkerAt({ lng: 126.975, lat: 37.565, heading: 0, at: '2026-01-01T00:00:00.000Z' }),
    })
    for (const answer of answers) answer([])
    // one turn of the event loop: the read's answer is in the store by then
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(trackingStore.objects.map((object) => object.name)).toEqual(['Walker'])
    expect((await screen.findByTestId('tracked-item')).textContent).toContain('Walker')
  })
})

describe('electronic fence tab', () => {
  it('shows fence changes and crossings from the live stream as they come', async () => {
    const server = await renderAt('/home/location/fence')
    const item = await screen.findByTestId('fence-item')
    await goLive(vi.spyOn(server.services, 'findFences'))
    await screen.findByText('No fence events yet')
    applyLiveEvent({ type: 'fences', draw_ids: ['draw-1'] })
    await waitFor(() =>
      expect(
        within(item).getByRole('button', { name: 'Fence: Yard' }).getAttribute('aria-pressed'),
      ).toBe('true'),
    )
    applyLiveEvent({
      type: 'positioned',
      object: walkerAt({
        lng: 126.975,
        lat: 37.565,
        heading: null,
        at: '2026-01-01T00:00:00.000Z',
      }),
    })
    const event = {
      id: 'live-1',
      project_id: 'project-1',
      fence_id: 'draw-1',
      object_id: 'tracked-live',
      kind: 'enter' as const,
      lng: 126.975,
      lat: 37.565,
      at: '2026-01-01T00:00:00.000Z',
    }
    applyLiveEvent({ type: 'fenceEvent', event })
    // the same event twice (a resumed stream) is listed once
    applyLiveEvent({ type: 'fenceEvent', event })
    const rows = await screen.findAllByTestId('fence-event')
    expect(rows.map((row) => row.querySelector('.ts-region__item-name')?.textContent)).toEqual([
      'Walker entered Yard',
    ])
  })

  it('makes an area a fence and lists enter and leave events by name', async () => {
    const user = userEvent.setup()
    const server = await renderAt('/home/location/fence')
    const item = await screen.findByTestId('fence-item')
    // Only areas can be fences: the path is not listed.
    expect(screen.getAllByTestId('fence-item')).toHaveLength(1)
    expect(item.textContent).toContain('Yard')
    expect(item.textContent).toContain('Not a fence')
    const toggle = within(item).getByRole('button', { name: 'Fence: Yard' })
    expect(toggle.getAttribute('aria-pressed')).toBe('false')
    await user.click(toggle)
    await waitFor(() => expect(toggle.getAttribute('aria-pressed')).toBe('true'))
    expect([...server.fenceIds]).toEqual(['draw-1'])
    expect(screen.getByText('No fence events yet')).toBeTruthy()

    const { object } = await server.services.addTrackedObject({
      project_id: 'project-1',
      name: 'Walker',
      category: '',
      coding: '',
    })
    server.trackedObjects[0] = object
    const event = {
      project_id: 'project-1',
      fence_id: 'draw-1',
      object_id: object.id,
      lng: 126.975,
      lat: 37.565,
    }
    server.fenceEvents.push(
      { ...event, id: 'e2', kind: 'leave', at: '2026-01-01T00:01:00.000Z' },
      { ...event, id: 'e1', kind: 'enter', at: '2026-01-01T00:00:00.000Z' },
    )
    const events = await screen.findAllByTestId('fence-event', {}, { timeout: 5000 })
    expect(events.map((row) => row.querySelector('.ts-region__item-name')?.textContent)).toEqual([
      'Walker left Yard',
      'Walker entered Yard',
    ])
  })
})

describe('path navigation tab', () => {
  it('lists the saved paths with their lengths to navigate', async () => {
    await renderAt('/home/path/navigation')
    const item = await screen.findByTestId('navigation-item')
    expect(item.textContent).toContain('Patrol')
    expect(item.textContent).toMatch(/\d+(\.\d+)? m/)
    expect(screen.getByRole('button', { name: 'Navigate Patrol' })).toBeTruthy()
    expect(screen.getByRole('button', { name: '×1' }).getAttribute('aria-pressed')).toBe('true')
  })
})

describe('view tour tab', () => {
  it('saves the current view as viewpoints in order, opens the tour through them and deletes one', async () => {
    const user = userEvent.setup()
    const run = vi.spyOn(engine, 'run')
    const server = await renderAt('/home/visit/tour')
    await screen.findByText('No viewpoints yet')
    expect(screen.getByRole('button', { name: 'Open the tour' })).toHaveProperty('disabled', true)
    for (const name of ['Gate', 'Tower']) {
      await user.type(screen.getByRole('textbox', { name: /^Name/ }), name)
      await user.click(screen.getByRole('button', { name: 'Add the current view' }))
      await waitFor(() =>
        expect(screen.getAllByTestId('tour-item')).toHaveLength(server.viewpoints.length),
      )
    }
    const camera = engine.getSnapshot().city.camera
    expect(server.viewpoints.map((item) => [item.seq, item.name, item.lng, item.zoom])).toEqual([
      [1, 'Gate', camera.lng, camera.zoom],
      [2, 'Tower', camera.lng, camera.zoom],
    ])
    expect(screen.getAllByTestId('tour-item')[1]!.textContent).toContain('2. Tower')

    await user.click(screen.getByRole('button', { name: '8 s' }))
    await user.click(screen.getByRole('button', { name: 'Open the tour' }))
    const opened = run.mock.calls.find(([command]) => command === 'tour.open')
    expect(opened?.[1]).toMatchObject({
      transitionSeconds: 8,
      viewpoints: [
        { lng: camera.lng, zoom: camera.zoom, dwellSeconds: 3 },
        { lng: camera.lng, zoom: camera.zoom, dwellSeconds: 3 },
      ],
    })

    await user.click(screen.getByRole('button', { name: 'Delete Gate' }))
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    )
    await waitFor(() => expect(server.viewpoints.map((item) => item.name)).toEqual(['Tower']))
    await waitFor(() => expect(screen.getAllByTestId('tour-item')).toHaveLength(1))
    expect(screen.getByTestId('tour-item').textContent).toContain('1. Tower')
  })
})

describe('anchor point set tab', () => {
  it('asks for anchors first, saves three and solves them with residuals, refuses collinear ones, and places the tileset', async () => {
    const user = userEvent.setup()
    const server = await renderAt('/home/location/anchor', withCampusTileset)
    expect(await screen.findByText('Please add an anchor point first.')).toBeTruthy()

    // A model turned 30° clockwise (heading 30), its origin at lng 127, lat 37.5.
    const origin = { lng: 127, lat: 37.5 }
    const metresPerDegree = { lng: 88_345, lat: 110_996 }
    const heading = (30 * Math.PI) / 180
    const place = (x: number, y: number) => {
      const east = x * Math.cos(heading) + y * Math.sin(heading)
      const north = -x * Math.sin(heading) + y * Math.cos(heading)
      return {
        lng: origin.lng + east / metresPerDegree.lng,
        lat: origin.lat + north / metresPerDegree.lat,
      }
    }
    // Pasted, not typed key by key: 5 fields × 4 anchors of long numbers.
    const fill = async (field: HTMLElement, text: string) => {
      await user.click(field)
      await user.paste(text)
    }
    const addAnchor = async (name: string, x: number, y: number) => {
      const at = place(x, y)
      await fill(screen.getByRole('textbox', { name: /^Name/ }), name)
      await fill(screen.getByRole('spinbutton', { name: /^Model x/ }), String(x))
      await fill(screen.getByRole('spinbutton', { name: /^Model y/ }), String(y))
      await fill(screen.getByRole('spinbutton', { name: /^Longitude/ }), at.lng.toFixed(8))
      await fill(screen.getByRole('spinbutton', { name: /^Latitude/ }), at.lat.toFixed(8))
      await user.click(screen.getByRole('button', { name: 'Add anchor point' }))
      // saved first, then listed
      await waitFor(() => expect(server.anchors.map((anchor) => anchor.name)).toContain(name))
      await waitFor(() =>
        expect(screen.getAllByTestId('anchor-item')).toHaveLength(server.anchors.length),
      )
    }
    await addAnchor('A', 0, 0)
    await addAnchor('B', 100, 0)
    expect(screen.getByText('Add at least 3 anchor points (2 so far).')).toBeTruthy()
    await addAnchor('C', 200, 0)
    expect(
      screen.getByText(/The anchor points lie on one line, so the orientation is undetermined/),
    ).toBeTruthy()
    await user.click(
      within(screen.getAllByTestId('anchor-item')[2]!).getByRole('button', { name: 'Delete C' }),
    )
    await waitFor(() => expect(server.anchors).toHaveLength(2))
    await addAnchor('C', 0, 80)
    // each anchor is saved for this tileset (`/poi` location mapping)
    expect(server.anchors.map((anchor) => [anchor.name, anchor.target])).toEqual([
      ['A', 'tileset-1'],
      ['B', 'tileset-1'],
      ['C', 'tileset-1'],
    ])
    const residuals = screen.getAllByTestId('anchor-residual')
    expect(residuals).toHaveLength(3)
    // The flat-earth truth above is good to a few centimetres over 100 m.
    const rms = Number.parseFloat(screen.getByTestId('anchor-rms').textContent ?? '')
    expect(rms).toBeLessThan(0.5)

    await user.click(screen.getByRole('button', { name: 'Place the tileset' }))
    await waitFor(() => expect(server.tilesets[0]!.placement).not.toBeNull())
    const placement = server.tilesets[0]!.placement!
    expect(placement.lng).toBeCloseTo(origin.lng, 5)
    expect(placement.lat).toBeCloseTo(origin.lat, 5)
    expect(placement.heading).toBeCloseTo(30, 0)
  }, 60_000)

  it("fills an anchor's model coordinates from a point picked on the tileset", async () => {
    const user = userEvent.setup()
    const position = { lng: 127.0001, lat: 37.5001, heightMeters: 41 }
    let answer: unknown = null
    const run = engine.run.bind(engine) as (...args: unknown[]) => Promise<unknown>
    vi.spyOn(engine, 'run').mockImplementation((async (...args: unknown[]) =>
      args[0] === 'city.pickTilesetPoint' ? answer : run(...args)) as never)
    await renderAt('/home/location/anchor', withCampusTileset)
    const pickButton = await screen.findByRole('button', { name: 'Pick in the tileset' })
    await user.click(pickButton)
    expect(pickButton.getAttribute('aria-pressed')).toBe('true')
    expect(screen.getByTestId('tileset-pick-hint').textContent).toBe(
      'Click a point of the tileset on the map.',
    )
    // a click beside the tileset (the basemap) keeps picking, and says so
    await pickTilesetAnchorAt(engine, { x: 10, y: 10 })
    await waitFor(() =>
      expect(screen.getByTestId('tileset-pick-hint').textContent).toContain(
        'That point is not on this tileset.',
      ),
    )
    answer = { tilesetId: 'tileset-1', position, local: { x: 12.344, y: -6.789, z: 2.5 } }
    await pickTilesetAnchorAt(engine, { x: 200, y: 120 })
    await waitFor(() =>
      expect((screen.getByRole('spinbutton', { name: /^Model x/ }) as HTMLInputElement).value).toBe(
        '12.34',
      ),
    )
    expect((screen.getByRole('spinbutton', { name: /^Model y/ }) as HTMLInputElement).value).toBe(
      '-6.79',
    )
    expect(
      screen.getByRole('button', { name: 'Pick in the tileset' }).getAttribute('aria-pressed'),
    ).toBe('false')
    expect(tilesetAnchorPick.tilesetId).toBeNull()
  })
})
