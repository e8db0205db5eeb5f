import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import * as Comlink from 'comlink'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createIndoorRouteApi } from '../../../../workers/indoor-route/indoor-route-api'
import { Engine, EngineProvider } from '../../../engine-bridge'
import { UiRoot } from '../../../ui'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import { buildingSession, resetBuildingSession } from '../building-session'
import { chooseRouteEndAtPoint } from './route-ends'
import { ShortestPathTool } from './ShortestPathTool'

/**
 * The shortest-path tool against the real engine and the real routing code. Module workers
 * cannot start in happy-dom, so the routing service is served on this thread over a
 * MessageChannel (messages are still structured-cloned). The building has no models, so the
 * picking worker is never asked anything and gets an endpoint that serves nothing.
 */

// Paths from the repository root, where vitest runs (Vite would turn `new URL(…,
// import.meta.url)` into an asset import).
const fjkHaus = readFileSync(
  resolve('../shared/data/indoorgml/FJK-Haus_IndoorGML_withEXR-corrected_1_0_3.gml'),
)
const twoStorey = readFileSync(resolve('workers/indoor-route/fixtures/two-storey.gml'))
const dataUrl = (bytes: Uint8Array) =>
  `data:application/gml+xml;base64,${Buffer.from(bytes).toString('base64')}`

function inProcessEndpoint(api: object) {
  const channel = new MessageChannel()
  Comlink.expose(api, channel.port1)
  const port = channel.port2
  return Object.assign(port, {
    terminate: () => {
      channel.port1.close()
      port.close()
    },
  })
}

/** The file's own coordinates, unmoved (without a placement the engine fits the network). */
const rawPlacement = { offset: [0, 0, 0] as const, rotationDeg: 0, scale: 1 }

/** Scene points (raw placement: file x, z, −y) a little beside FJK-Haus States. */
const nearR10 = [445541.3208 + 0.2, -2.02, -5444901.0727] as const
const nearR21 = [445537.478, 3.44, -5444906.8205 + 0.1] as const

let engine: Engine

beforeEach(async () => {
  resetBuildingSession('project-1')
  engine = new Engine({
    building: {
      createIndoorRouteWorker: () => inProcessEndpoint(createIndoorRouteApi()),
      createBvhWorker: () => inProcessEndpoint({}),
    },
  })
  await engine.run('building.open', {
    description: {
      projectId: 'project-1',
      name: 'FJK',
      shellModelId: null,
      floors: [],
      models: [],
    },
  })
  // raw file coordinates, as the scene points below are written in
  await engine.run('gml.load', { url: dataUrl(fjkHaus), placement: rawPlacement })
})

afterEach(() => {
  engine.dispose()
  resetBuildingSession(null)
  vi.restoreAllMocks()
})

function renderTool() {
  renderWithI18n(
    <UiRoot>
      <EngineProvider engine={engine}>
        <ShortestPathTool />
      </EngineProvider>
    </UiRoot>,
  )
}

const optionTexts = (select: HTMLElement) =>
  Array.from((select as HTMLSelectElement).options, (option) => option.textContent)

describe('ShortestPathTool State list (issue #6)', () => {
  it('lists the States the engine holds, by storey then name, and searches them', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch')
    renderTool()
    const start = screen.getByLabelText('Start', { exact: true })
    await waitFor(() => expect(optionTexts(start)).toHaveLength(15))
    expect(optionTexts(start).slice(0, 4)).toEqual([
      'Choose a space',
      '001 (R3) · 1',
      '002 (R1) · 1',
      '003 (R8) · 1',
    ])
    expect(optionTexts(start).at(-1)).toBe('204 (R25) · 3')
    // The list came from the engine's worker: the page did not fetch the file again.
    expect(fetchSpy).not.toHaveBeenCalled()

    await userEvent.type(screen.getByLabelText('Search spaces'), '20')
    expect(optionTexts(start)).toEqual([
      'Choose a space',
      '201 (R23) · 3',
      '202 (R21) · 3',
      '203 (R26) · 3',
      '204 (R25) · 3',
    ])
    await userEvent.selectOptions(start, 'R21')
    expect(buildingSession.routeStart).toEqual({
      kind: 'state',
      stateId: 'R21',
      label: '202 (R21) · 3',
    })
    // The chosen State stays in its list when a new search would hide it.
    await userEvent.clear(screen.getByLabelText('Search spaces'))
    await userEvent.type(screen.getByLabelText('Search spaces'), '00')
    expect((start as HTMLSelectElement).value).toBe('R21')
    expect(optionTexts(start)).toContain('202 (R21) · 3')
  })

  it('reads the list again when another network is loaded', async () => {
    renderTool()
    const start = screen.getByLabelText('Start', { exact: true })
    await waitFor(() => expect(optionTexts(start)).toHaveLength(15))
    await act(() => engine.run('gml.load', { url: dataUrl(twoStorey), placement: rawPlacement }))
    await waitFor(() => expect(optionTexts(start)).toHaveLength(11))
    expect(optionTexts(start)).toContain('101 (R101) · 1')
    await act(() => engine.run('gml.unload'))
    await waitFor(() => expect((start as HTMLSelectElement).disabled).toBe(true))
    expect(optionTexts(start)).toEqual(['Choose a space'])
  })
})

describe('route ends picked in the scene', () => {
  it('shows the snapped State at once and routes from it', async () => {
    renderTool()
    const start = screen.getByLabelText('Start', { exact: true }) as HTMLSelectElement
    await waitFor(() => expect(start.options).toHaveLength(15))

    const choosing = chooseRouteEndAtPoint(engine, 'routeStart', nearR10)
    // Until the engine answers, the end is the point itself, so "Find route" already works.
    expect(buildingSession.routeStart).toMatchObject({
      kind: 'point',
      label: 'Point 445541.52, -2.02, -5444901.07',
    })
    await act(() => choosing)
    expect(buildingSession.routeStart).toEqual({
      kind: 'state',
      stateId: 'R10',
      label: '004 (R10) · 1',
    })
    expect(start.value).toBe('R10')
    expect(start.selectedOptions[0]?.textContent).toBe('004 (R10) · 1')

    await act(() => chooseRouteEndAtPoint(engine, 'routeEnd', nearR21))
    expect(buildingSession.routeEnd).toMatchObject({ stateId: 'R21', label: '202 (R21) · 3' })
    await userEvent.click(screen.getByRole('button', { name: 'Find route' }))
    const result = await screen.findByTestId('route-result')
    expect(within(result).getByTestId('route-length').textContent).toBe('Total length: 13.37 m')
    expect(
      Array.from(result.querySelectorAll('li[data-state-id]'), (step) =>
        step.getAttribute('data-state-id'),
      ),
    ).toEqual(['R10', 'R3', 'R12', 'R23', 'R21'])
  })

  it('keeps the latest choice when an older snap answers late', async () => {
    const older = chooseRouteEndAtPoint(engine, 'routeStart', nearR10)
    const newer = chooseRouteEndAtPoint(engine, 'routeStart', nearR21)
    await Promise.all([older, newer])
    expect(buildingSession.routeStart).toMatchObject({ kind: 'state', stateId: 'R21' })

    const pending = chooseRouteEndAtPoint(engine, 'routeEnd', nearR21)
    buildingSession.routeEnd = { kind: 'state', stateId: 'R4', label: '006 (R4) · 1' }
    await pending
    expect(buildingSession.routeEnd).toMatchObject({ stateId: 'R4' })
  })

  it('clears the end and says so when no network is loaded any more', async () => {
    renderTool()
    await engine.run('gml.unload')
    await act(() => chooseRouteEndAtPoint(engine, 'routeStart', nearR10))
    expect(buildingSession.routeStart).toBeNull()
    expect(await screen.findByText('GML file was not loaded.')).toBeTruthy()
  })
})
