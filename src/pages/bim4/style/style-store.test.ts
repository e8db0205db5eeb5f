import { afterEach, describe, expect, it } from 'vitest'
import {
  defaultStyleSetting,
  type GlobalSetting,
  type StyleSetting,
} from '../../../../contract/style'
import type { SceneStyle } from '../../../../engine/api'
import { ApiError } from '../../../api/client'
import type { EngineHandle } from '../../../engine-bridge'
import { toast } from '../../../ui'
import { toastStore } from '../../../ui/toast/toast-store'
import { changeStyle, loadProjectStyle, type StyleServer, styleSession } from './style-store'

/** An engine that records the styles the store shows. */
function recordingEngine(
  command: 'building.setStyle' | 'city.setStyle' = 'building.setStyle',
): EngineHandle & { shown: SceneStyle[] } {
  const shown: SceneStyle[] = []
  return {
    shown,
    run: (async (name: string, args: { style: SceneStyle }) => {
      if (name === command) shown.push(args.style)
      return undefined
    }) as EngineHandle['run'],
  } as EngineHandle & { shown: SceneStyle[] }
}

/** A server holding one project's setting; `failNext` makes the next update fail. */
function memoryServer(initial: StyleSetting | null) {
  let stored = initial
  const state = { failNext: false, updates: 0 }
  const server: StyleServer = {
    find: async (projectId) =>
      stored && { project_id: projectId, setting: stored, updated_at: '2026-11-26T00:00:00Z' },
    update: async (projectId, patch): Promise<GlobalSetting> => {
      state.updates++
      if (state.failNext) {
        state.failNext = false
        throw new ApiError({
          reason: 'server',
          envelope: { code: '500', message: 'The database does not answer.', datum: null },
          httpStatus: 503,
          fallbackMessage: 'failed',
        })
      }
      stored = { ...(stored ?? defaultStyleSetting), ...patch }
      return { project_id: projectId, setting: stored, updated_at: '2026-11-26T00:00:01Z' }
    },
  }
  return { server, state, stored: () => stored }
}

const errorTexts = () =>
  toastStore
    .get()
    .filter((entry) => entry.type === 'error')
    .map((entry) => String(entry.message))

afterEach(() => toast.dismissAll())

describe('the building style store', () => {
  it('shows the saved style on open, or the SPEC defaults when none is saved', async () => {
    const engine = recordingEngine()
    await loadProjectStyle(engine, 'p1', { server: memoryServer(null).server })
    expect(engine.shown.at(-1)).toMatchObject({
      sky: 1,
      ambientLight: { color: { r: 0x21, g: 0x21, b: 0x21, a: 1 } },
      directionalLight: { color: { r: 0xff, g: 0xbe, b: 0x37, a: 1 } },
      hemisphereLight: { skyColor: { r: 0x70, g: 0x9f, b: 0xcd }, groundColor: { r: 0x4d } },
    })
    const saved = {
      ...defaultStyleSetting,
      air_style: 3 as const,
      fog_color: 'rgba(1, 2, 3, 0.25)',
    }
    await loadProjectStyle(engine, 'p2', { server: memoryServer(saved).server })
    expect(engine.shown.at(-1)).toMatchObject({
      sky: 3,
      fog: { color: { r: 1, g: 2, b: 3, a: 0.25 } },
    })
  })

  it('shows a change at once and saves the changes of a dragged slider together', async () => {
    const engine = recordingEngine()
    const memory = memoryServer(null)
    await loadProjectStyle(engine, 'p1', { server: memory.server })
    changeStyle(engine, { weather_style: 'rain' }, memory.server)
    expect(engine.shown.at(-1)?.weather).toBe('rain')
    changeStyle(engine, { fog_color: 'rgba(9, 9, 9, 0.4)' }, memory.server)
    changeStyle(engine, { fog_color: 'rgba(9, 9, 9, 0.5)' }, memory.server)
    await expect.poll(() => memory.state.updates).toBe(1)
    await expect.poll(() => styleSession.saved.fog_color).toBe('rgba(9, 9, 9, 0.5)')
    expect(memory.stored()).toMatchObject({ weather_style: 'rain' })
  })

  it('puts the scene back to the saved style and says which part failed (SPEC §8)', async () => {
    const engine = recordingEngine()
    const memory = memoryServer({ ...defaultStyleSetting, air_style: 2 })
    await loadProjectStyle(engine, 'p1', { server: memory.server })
    memory.state.failNext = true
    changeStyle(engine, { air_style: 4 }, memory.server)
    expect(engine.shown.at(-1)?.sky).toBe(4)
    await expect.poll(() => errorTexts().length).toBe(1)
    expect(errorTexts()[0]).toContain('Failed to update the sky.')
    expect(engine.shown.at(-1)?.sky).toBe(2)
    expect(styleSession.shown.air_style).toBe(2)

    memory.state.failNext = true
    changeStyle(engine, { directional_light_color: 'rgba(255, 0, 0, 1)' }, memory.server)
    await expect.poll(() => errorTexts().length).toBe(2)
    expect(errorTexts()[1]).toContain('Failed to update the light.')
    expect(engine.shown.at(-1)?.directionalLight.color).toEqual({ r: 255, g: 190, b: 55, a: 1 })
  })

  it('draws a city project in the city scene, and a refused save of the city sky goes back too', async () => {
    const engine = recordingEngine('city.setStyle')
    const memory = memoryServer({ ...defaultStyleSetting, air_style: 3, fog_is_on: true })
    await loadProjectStyle(engine, 'city-1', { server: memory.server, scene: 'city' })
    expect(engine.shown.at(-1)).toMatchObject({ sky: 3, fog: { isOn: true } })
    changeStyle(engine, { weather_style: 'snow' }, memory.server)
    expect(engine.shown.at(-1)?.weather).toBe('snow')
    await expect.poll(() => memory.stored()?.weather_style).toBe('snow')

    memory.state.failNext = true
    changeStyle(engine, { air_style: 1 }, memory.server)
    expect(engine.shown.at(-1)?.sky).toBe(1)
    await expect.poll(() => errorTexts().length).toBe(1)
    expect(errorTexts()[0]).toContain('Failed to update the sky.')
    expect(engine.shown.at(-1)?.sky).toBe(3)
  })
})
