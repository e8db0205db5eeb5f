import { i18n } from '@lingui/core'
import { proxy } from 'valtio'
import { defaultStyleSetting, type StyleSetting } from '../../../../contract/style'
import { findGlobalSetting, updateGlobalSetting } from '../../../api/style'
import { reasonText } from '../../../components/feedback/error-text'
import { type EngineHandle, sceneStyleOf } from '../../../engine-bridge'
import { toast } from '../../../ui'
import { styleAreaOf, styleFailureMessages } from './scene-style'

/** Which scene the style is drawn in: the building's three.js scene or the city map. */
export type StyleScene = 'building' | 'city'

/**
 * The open project's style (a building or a city project; both edit the same `/globalsetting`
 * record through this one store): what the server holds (`saved`, the defaults when nothing is saved)
 * and what the scene shows (`shown`, ahead of `saved` while a change is being saved). A failed
 * save puts the scene back to `saved` and says which part failed (SPEC §8).
 */
export interface StyleSessionState {
  projectId: string | null
  scene: StyleScene
  saved: StyleSetting
  shown: StyleSetting
  status: 'idle' | 'loading' | 'ready' | 'error'
  isSaving: boolean
}

/** The style store; read with `useSnapshot(styleSession)`. */
export const styleSession = proxy<StyleSessionState>({
  projectId: null,
  scene: 'building',
  saved: defaultStyleSetting,
  shown: defaultStyleSetting,
  status: 'idle',
  isSaving: false,
})

/** The two calls the store makes (a test passes its own). */
export interface StyleServer {
  find: typeof findGlobalSetting
  update: typeof updateGlobalSetting
}

const httpStyleServer: StyleServer = { find: findGlobalSetting, update: updateGlobalSetting }

/** Quiet time after the last change (a dragged slider) before it is saved. */
const saveDelayMs = 400
let pending: { patch: Partial<StyleSetting>; timer: ReturnType<typeof setTimeout> } | null = null

// A change still waiting for its quiet time (or on its way) would be lost by leaving the page:
// the browser asks the person first.
if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', (event) => {
    if (pending || styleSession.isSaving) event.preventDefault()
  })
}

async function showStyle(engine: EngineHandle, setting: StyleSetting): Promise<void> {
  const style = sceneStyleOf(setting)
  if (styleSession.scene === 'city') await engine.run('city.setStyle', { style })
  else await engine.run('building.setStyle', { style })
}

/**
 * Loads the project's saved style (or the defaults) and applies it to the scene. A setting the
 * server cannot read (another version) leaves the defaults shown, with the server's reason.
 */
export async function loadProjectStyle(
  engine: EngineHandle,
  projectId: string,
  {
    isCurrent = () => true,
    server = httpStyleServer,
    scene = 'building',
  }: { isCurrent?: () => boolean; server?: StyleServer; scene?: StyleScene } = {},
): Promise<void> {
  if (pending) clearTimeout(pending.timer)
  pending = null
  Object.assign(styleSession, { projectId, scene, status: 'loading', isSaving: false })
  let saved = defaultStyleSetting
  try {
    saved = (await server.find(projectId))?.setting ?? defaultStyleSetting
    if (!isCurrent()) return
    styleSession.status = 'ready'
  } catch (error) {
    if (!isCurrent()) return
    styleSession.status = 'error'
    toast.error(reasonText(error))
  }
  Object.assign(styleSession, { saved, shown: saved })
  await showStyle(engine, saved).catch(() => undefined)
}

/**
 * Shows a change at once and saves it after a short quiet time (changes in between are saved
 * together). On failure the scene returns to the saved style and the §8 message of the part
 * that failed is shown with the server's reason.
 */
export function changeStyle(
  engine: EngineHandle,
  patch: Partial<StyleSetting>,
  server: StyleServer = httpStyleServer,
): void {
  const projectId = styleSession.projectId
  if (!projectId) return
  styleSession.shown = { ...styleSession.shown, ...patch }
  void showStyle(engine, styleSession.shown).catch(() => undefined)
  const merged = { ...(pending?.patch ?? {}), ...patch }
  if (pending) clearTimeout(pending.timer)
  pending = {
    patch: merged,
    timer: setTimeout(() => {
      pending = null
      void save(engine, server, projectId, merged)
    }, saveDelayMs),
  }
}

async function save(
  engine: EngineHandle,
  server: StyleServer,
  projectId: string,
  patch: Partial<StyleSetting>,
): Promise<void> {
  styleSession.isSaving = true
  try {
    const saved = await server.update(projectId, patch)
    if (styleSession.projectId !== projectId) return
    styleSession.saved = saved.setting
    // changes made while this one was saved stay shown (they are pending)
    styleSession.shown = { ...saved.setting, ...(pending?.patch ?? {}) }
  } catch (error) {
    if (styleSession.projectId !== projectId) return
    if (pending) clearTimeout(pending.timer)
    pending = null
    styleSession.shown = styleSession.saved
    await showStyle(engine, styleSession.saved).catch(() => undefined)
    const fields = Object.keys(patch) as (keyof StyleSetting)[]
    const area = fields.length === 1 ? styleAreaOf(fields[0]!) : 'other'
    const areas = new Set(fields.map(styleAreaOf))
    const message = styleFailureMessages[areas.size === 1 ? [...areas][0]! : area]
    toast.error(`${i18n._(message)} ${reasonText(error)}`)
  } finally {
    if (styleSession.projectId === projectId) styleSession.isSaving = false
  }
}
