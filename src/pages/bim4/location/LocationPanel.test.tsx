import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LocationAnchor } from '../../../api/location'
import type { Project } from '../../../api/project'
import type { TrackedObject } from '../../../api/tracking'
import { activateLanguage } from '../../../i18n/i18n'
import type { AnchorCalls } from '../../../components/anchors/use-saved-anchors'
import { UiRoot } from '../../../ui'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import { buildingSession, resetBuildingSession } from '../building-session'
import { anchorPick, recordAnchorPick } from './location-pick'
import { LocationPanel } from './LocationPanel'
import type { LocationPoiCalls } from './LocationPoisTab'

/**
 * The building editor's location module (issue 18): anchors are picked in the model and typed
 * or picked on the map, saved, solved with residuals by the shared solver, refused when
 * collinear, and the solved origin placed as the project's location with its heading and scale.
 */

const permissions = {
  canRead: true,
  canEdit: true,
  canDelete: true,
  canShare: true,
  canCopy: true,
}

function project(overrides: Partial<Project> = {}): Project {
  return {
    id: 'building-1',
    kind: 'building',
    name: 'Tower',
    project_center: null,
    owner_id: 'me',
    is_case: false,
    permissions,
    ...overrides,
  } as Project
}

/** An in-memory `/poi` location mapping that records what was saved. */
function memoryAnchors() {
  const saved: LocationAnchor[] = []
  let sequence = 0
  const calls: AnchorCalls = {
    find: async (projectId, target) =>
      structuredClone(
        saved.filter((anchor) => anchor.project_id === projectId && anchor.target === target),
      ),
    add: async (body) => {
      sequence += 1
      const anchor: LocationAnchor = {
        id: `anchor-${sequence}`,
        project_id: body.project_id,
        target: body.target ?? '',
        name: body.name,
        x: Number(body.x),
        y: Number(body.y),
        z: Number(body.z ?? 0),
        lng: Number(body.lng),
        lat: Number(body.lat),
        offset: Number(body.offset ?? 0),
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      }
      saved.push(anchor)
      return structuredClone(anchor)
    },
    remove: async (id) => {
      saved.splice(
        saved.findIndex((anchor) => anchor.id === id),
        1,
      )
    },
  }
  return { saved, calls }
}

/** In-memory location POI calls that record what was saved. */
function memoryLocationPois() {
  const saved: TrackedObject[] = []
  const calls: LocationPoiCalls = {
    find: async (projectId) =>
      structuredClone(saved.filter((object) => object.project_id === projectId)),
    add: async (body) => {
      const object: TrackedObject = {
        id: `object-${saved.length + 1}`,
        project_id: body.project_id,
        name: body.name,
        category: body.category ?? '',
        category_id: body.category_id ?? '',
        coding: body.coding ?? '',
        last_position: null,
        inside_fence_ids: [],
        created_at: '2026-01-01T00:00:00.000Z',
      }
      saved.push(object)
      return { object: structuredClone(object), token: `device-${object.id}` }
    },
    remove: async (id) => {
      saved.splice(
        saved.findIndex((object) => object.id === id),
        1,
      )
    },
    findCategories: async () => [],
  }
  return { saved, calls }
}

beforeEach(() => {
  resetBuildingSession('building-1')
  buildingSession.project = project()
  anchorPick.point = null
  anchorPick.sequence = 0
})

afterEach(() => {
  resetBuildingSession(null)
})

describe('building location module', () => {
  it('saves anchors picked in the model, solves them with residuals and places the building', async () => {
    const user = userEvent.setup()
    const server = memoryAnchors()
    const saveProjectCenter = vi.fn(async (body: { id: string; project_center?: unknown }) =>
      project({ project_center: body.project_center as Project['project_center'] }),
    )
    renderWithI18n(
      <UiRoot>
        <LocationPanel calls={server.calls} saveProjectCenter={saveProjectCenter as never} />
      </UiRoot>,
    )
    expect(await screen.findByText('Please add an anchor point first.')).toBeTruthy()

    // The model turned 90° (its x axis points north), its origin at lng 127, lat 37.5.
    const metresPerDegree = { lng: 88_345, lat: 110_996 }
    const place = (x: number, y: number) => ({
      lng: 127 - y / metresPerDegree.lng,
      lat: 37.5 + x / metresPerDegree.lat,
    })
    const fill = async (name: RegExp, text: string) => {
      const field = screen.getByRole(name.source.includes('Name') ? 'textbox' : 'spinbutton', {
        name,
      })
      await user.clear(field)
      await user.click(field)
      await user.paste(text)
    }
    const addPicked = async (name: string, scenePoint: [number, number, number]) => {
      await user.click(screen.getByRole('button', { name: 'Pick in the model' }))
      expect(buildingSession.clickPurpose).toBe('anchor')
      // what the editor does with the canvas click's pick (Bim4Page)
      buildingSession.clickPurpose = 'inspect'
      recordAnchorPick(scenePoint)
      // three.js (x, y up, z south) → relative (x, y north, z up)
      await waitFor(() =>
        expect(
          (screen.getByRole('spinbutton', { name: /^Model y/ }) as HTMLInputElement).value,
        ).toBe(String(-scenePoint[2] + 0)),
      )
      expect(
        (screen.getByRole('spinbutton', { name: /^Model height/ }) as HTMLInputElement).value,
      ).toBe(String(scenePoint[1]))
      const at = place(scenePoint[0], -scenePoint[2])
      await fill(/^Name/, name)
      await fill(/^Longitude/, at.lng.toFixed(8))
      await fill(/^Latitude/, at.lat.toFixed(8))
      await user.click(screen.getByRole('button', { name: 'Add anchor point' }))
      await waitFor(() =>
        expect(screen.getAllByTestId('anchor-item')).toHaveLength(server.saved.length),
      )
    }

    await addPicked('Lobby', [0, 0, 0])
    await addPicked('East wing', [60, 3, 0])
    expect(screen.getByText('Add at least 3 anchor points (2 so far).')).toBeTruthy()
    await addPicked('Mast', [120, 45, 0])
    expect(
      screen.getByText(/The anchor points lie on one line, so the orientation is undetermined/),
    ).toBeTruthy()
    await user.click(
      within(screen.getAllByTestId('anchor-item')[2]!).getByRole('button', { name: 'Delete Mast' }),
    )
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    )
    await waitFor(() => expect(server.saved).toHaveLength(2))
    await addPicked('Garden', [0, 0, -40])

    expect(server.saved.map((anchor) => [anchor.name, anchor.x, anchor.y, anchor.z])).toEqual([
      ['Lobby', 0, 0, 0],
      ['East wing', 60, 0, 3],
      ['Garden', 0, 40, 0],
    ])
    expect(server.saved.every((anchor) => anchor.target === '')).toBe(true)
    expect(screen.getAllByTestId('anchor-residual')).toHaveLength(3)
    const rms = Number.parseFloat(screen.getByTestId('anchor-rms').textContent ?? '')
    expect(rms).toBeLessThan(0.5)

    await user.click(screen.getByRole('button', { name: 'Place the building here' }))
    await waitFor(() => expect(saveProjectCenter).toHaveBeenCalled())
    const body = saveProjectCenter.mock.calls[0]![0] as {
      id: string
      project_center: { lng: number; lat: number; heading: number; scale: number }
    }
    expect(body.id).toBe('building-1')
    expect(body.project_center.lng).toBeCloseTo(127, 5)
    expect(body.project_center.lat).toBeCloseTo(37.5, 5)
    // with its placement: the model's +y axis points west (x north), at its own scale
    expect(body.project_center.heading).toBeCloseTo(270, 0)
    expect(body.project_center.scale).toBeCloseTo(1, 2)
    const placement = (await screen.findByTestId('building-placement')).textContent ?? ''
    expect(placement).toMatch(/^\(heading [\d.]+°, scale [\d.]+\)$/)
    const [heading, scale] = (placement.match(/\d+(\.\d+)?/g) ?? []).map(Number)
    expect(heading).toBeCloseTo(270, 0)
    expect(scale).toBeCloseTo(1, 2)
    // the project's location shown is the one saved
    const shown = (await screen.findByTestId('building-location')).textContent ?? ''
    const [lng, lat] = (shown.match(/-?\d+\.\d+/g) ?? []).map(Number)
    expect(lng).toBeCloseTo(body.project_center.lng, 6)
    expect(lat).toBeCloseTo(body.project_center.lat, 6)
  }, 60_000)

  it('shows saved anchors to a reader without the form or delete buttons', async () => {
    const server = memoryAnchors()
    for (const [index, name] of ['A', 'B', 'C'].entries()) {
      await server.calls.add({
        project_id: 'building-1',
        target: '',
        name,
        x: index === 2 ? 0 : index * 50,
        y: index === 2 ? 50 : 0,
        lng: 127 + (index === 1 ? 0.0005 : 0),
        lat: 37.5 + (index === 2 ? 0.00045 : 0),
      })
    }
    buildingSession.project = project({
      permissions: { ...permissions, canEdit: false, canDelete: false },
    })
    renderWithI18n(
      <UiRoot>
        <LocationPanel calls={server.calls} />
      </UiRoot>,
    )
    await waitFor(() => expect(screen.getAllByTestId('anchor-item')).toHaveLength(3))
    expect(screen.getAllByTestId('anchor-residual')).toHaveLength(3)
    expect(screen.queryByRole('form', { name: 'New anchor point' })).toBeNull()
    expect(screen.queryByRole('button', { name: /^Delete/ })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Place the building here' })).toBeNull()
  })
})

describe('building location POIs', () => {
  afterEach(() => activateLanguage('en'))

  it('adds a positioned object of the building in Korean, shows its device token once, and deletes it', async () => {
    await activateLanguage('ko')
    const user = userEvent.setup()
    const server = memoryLocationPois()
    renderWithI18n(
      <UiRoot>
        <LocationPanel calls={memoryAnchors().calls} locationPoiCalls={server.calls} />
      </UiRoot>,
    )
    await user.click(await screen.findByRole('tab', { name: '위치 추적 대상' }))
    const tab = await screen.findByTestId('bim4-location-pois')
    await within(tab).findByText('아직 위치 추적 대상이 없습니다')
    // The building has no location: the tab says why nothing is drawn, and what to do.
    expect(within(tab).getByTestId('location-pois-unplaced').textContent).toContain(
      '먼저 앵커 포인트를 추가하세요.',
    )
    await user.type(within(tab).getByRole('textbox', { name: /^이름/ }), '경비원')
    await user.type(within(tab).getByRole('textbox', { name: /^코드/ }), 'G-7')
    await user.click(within(tab).getByRole('button', { name: '추가' }))

    const token = await within(tab).findByTestId('tracked-token')
    expect(token.textContent).toContain('경비원의 장치 토큰은 지금만 표시됩니다.')
    expect(token.textContent).toMatch(/POST http.*\/api\/v1\/device-object-1\/position/)
    expect(server.saved).toMatchObject([
      { project_id: 'building-1', name: '경비원', coding: 'G-7', category_id: '' },
    ])
    const item = await within(tab).findByTestId('tracked-item')
    expect(item.textContent).toContain('경비원')
    expect(item.textContent).toContain('G-7')
    expect(item.textContent).toContain('아직 위치 없음')
    await user.click(within(token).getByRole('button', { name: '완료' }))
    expect(within(tab).queryByTestId('tracked-token')).toBeNull()

    await user.click(within(item).getByRole('button', { name: '경비원 삭제' }))
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: '삭제' }),
    )
    await within(tab).findByText('아직 위치 추적 대상이 없습니다')
    expect(server.saved).toEqual([])
  })

  it('lists them to a reader without the form or delete buttons', async () => {
    const user = userEvent.setup()
    const server = memoryLocationPois()
    await server.calls.add({ project_id: 'building-1', name: 'Lift', coding: 'L-1' })
    server.saved[0]!.last_position = {
      lng: 127,
      lat: 37.5,
      heading: null,
      at: '2026-01-01T00:00:00.000Z',
    }
    buildingSession.project = project({
      permissions: { ...permissions, canEdit: false, canDelete: false },
    })
    renderWithI18n(
      <UiRoot>
        <LocationPanel calls={memoryAnchors().calls} locationPoiCalls={server.calls} />
      </UiRoot>,
    )
    await user.click(await screen.findByRole('tab', { name: 'Positioned objects' }))
    const item = await screen.findByTestId('tracked-item')
    expect(item.textContent).toContain('Lift')
    expect(screen.getByTestId('location-pois-unplaced').textContent).toBe(
      'The building has no location yet, so its positioned objects are not drawn in the scene. Please add an anchor point first.',
    )
    expect(item.textContent).toContain('last seen')
    expect(screen.queryByRole('form', { name: 'New positioned object' })).toBeNull()
    expect(screen.queryByRole('button', { name: /^Delete/ })).toBeNull()
  })
  it('says nothing of a location once the building has one', async () => {
    const user = userEvent.setup()
    buildingSession.project = project({ project_center: { lng: 127, lat: 37.5 } })
    renderWithI18n(
      <UiRoot>
        <LocationPanel
          calls={memoryAnchors().calls}
          locationPoiCalls={memoryLocationPois().calls}
        />
      </UiRoot>,
    )
    await user.click(await screen.findByRole('tab', { name: 'Positioned objects' }))
    await screen.findByText('No positioned objects yet')
    expect(screen.queryByTestId('location-pois-unplaced')).toBeNull()
  })
})
