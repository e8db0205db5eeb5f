import {
  type GlobalSetting,
  type StyleSettingPatch,
  styleRoutes,
  styleSettingVersion,
} from '../../contract/style'
import { api } from './index'

export type { GlobalSetting, StyleSetting, StyleSettingPatch } from '../../contract/style'

/**
 * `POST /web/globalsetting/find`: the project's saved style setting, or null when it has none
 * (the defaults apply). A public preview passes its project token.
 */
export async function findGlobalSetting(
  projectId: string,
  options: { projectToken?: string; signal?: AbortSignal } = {},
): Promise<GlobalSetting | null> {
  const { datum } = await api.call(
    styleRoutes.findGlobalSetting,
    {
      project_id: projectId,
      ...(options.projectToken === undefined ? {} : { project_token: options.projectToken }),
    },
    options.signal ? { signal: options.signal } : {},
  )
  return datum
}

/** `POST /web/globalsetting/update`: saves the fields given; the whole setting as saved. */
export async function updateGlobalSetting(
  projectId: string,
  patch: StyleSettingPatch,
): Promise<GlobalSetting> {
  const { datum } = await api.call(
    styleRoutes.updateGlobalSetting,
    { project_id: projectId, setting: { version: styleSettingVersion, ...patch } },
    { encoding: 'json' },
  )
  return datum
}
