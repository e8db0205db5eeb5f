import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Engine, EngineProvider } from '../../../engine-bridge'
import { closeProject, currentProject } from '../../../state/project'
import { UiRoot } from '../../../ui'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import { CityEditor } from '../CityEditorPage'
import { CityServicesProvider } from '../city-services'
import { createCityProjectStore } from '../city-project-store'
import { createMemoryCityServer } from '../testing/memory-city-server'

/**
 * The location tabs of the city editor (issue 18): GPS positioning (add a positioned object and
 * see its device token once, its last position, its track played back; delete it) and the
 * electronic fence (make an area a fence, read the enter and leave events).
 */

let engine: Engine

beforeEach(() => {
  engine = new Engine()
  currentProject.projectId = 'project-1'
  currentProject.projectToken = 'token'
})

afterEach(() => {
  engine.dispose()
  closeProject()
  window.location.hash = ''
})

async function renderAt(path: string) {
  const server = createMemoryCityServer('project-1')
  await server.services.addAreaDraw({
    project_id: 'project-1',
    kind: 'area',
    name: 'Yard',
    type: 4,
    points: [
      [126.97, 37.56],
      [126.98, 37.56],
      [126.98, 37.57],
    ],
  })
  await server.services.addAreaDraw({
    project_id: 'project-1',
    kind: 'path',
    name: 'Patrol',
    type: 3,
    points: [
      [126.97, 37.56],
      [126.98, 37.56],
    ],
  })
  window.location.hash = `#${path}`
  renderWithI18n(
    <UiRoot>
      <EngineProvider engine={engine}>
        <CityServicesProvider services={server.services}>
          <CityEditor store={createCityProjectStore()} />
        </CityServicesProvider>
      </EngineProvider>
    </UiRoot>,
  )
  return server
}

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
      within(screen.getByTestId('tracked-item')).getByRole('button', { name: 'Delete' }),
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

describe('electronic fence tab', () => {
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
    expect(events.map((row) => row.querySelector('.ts-draw__item-name')?.textContent)).toEqual([
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
    const server = createMemoryCityServer('project-1')
    server.tilesets.push({
      id: 'tileset-1',
      project_id: 'project-1',
      name: 'Campus',
      root_url: '/tiles/tileset.json',
      is_visible: true,
      placement: null,
      is_georeferenced: false,
    } as (typeof server.tilesets)[number])
    window.location.hash = '#/home/location/anchor'
    renderWithI18n(
      <UiRoot>
        <EngineProvider engine={engine}>
          <CityServicesProvider services={server.services}>
            <CityEditor store={createCityProjectStore()} />
          </CityServicesProvider>
        </EngineProvider>
      </UiRoot>,
    )
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
})
