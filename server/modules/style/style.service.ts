import {
  defaultStyleSetting,
  type GlobalSetting,
  type StyleSetting,
  type StyleSettingPatch,
  styleSettingSchema,
  styleSettingVersion,
} from '../../../contract/style'
import { AppError } from '../../http/app-error'
import type { DatabaseHandle } from '../../plugins/db'
import type { ProjectAccess, ProjectCaller } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import type { ProjectLifecycleHook } from '../projects/projects.service'
import { type Clock, timestampOf } from '../time/clock'
import { createStyleRepository, type ProjectStyleRow } from './style.repository'

/** The global style setting of projects (SPEC §7 `/globalsetting`, issue 19). */
export interface StyleService {
  /** The saved setting, or null; anyone who may read the project (project tokens too). */
  find(caller: ProjectCaller, projectId: string): Promise<GlobalSetting | null>
  /** Saves a project's first setting; `conflict` when it has one. Owner or admin. */
  add(user: AuthUser, projectId: string, setting: StyleSetting): Promise<GlobalSetting>
  /**
   * Changes the fields given; a project without a saved setting starts from the defaults.
   * Owner or admin.
   */
  update(user: AuthUser, projectId: string, patch: StyleSettingPatch): Promise<GlobalSetting>
  /** Deletes the saved setting (the defaults apply again). Owner or admin. */
  remove(user: AuthUser, projectId: string): Promise<{ deleted: boolean }>
  /** Copies the setting with its project and drops it with the project. */
  lifecycleHook: ProjectLifecycleHook
}

/**
 * The stored setting of a row: `conflict` when another version of the product wrote it (read
 * as its own version, not guessed at), or when its JSON no longer satisfies the schema.
 */
function settingOf(row: ProjectStyleRow): StyleSetting {
  if (row.version !== styleSettingVersion) {
    throw new AppError(
      'conflict',
      'style.storedVersionUnsupported',
      {},
      {
        details: { stored_version: row.version, supported_version: styleSettingVersion },
      },
    )
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(row.setting_json)
  } catch {
    parsed = undefined
  }
  const checked = styleSettingSchema.safeParse(parsed)
  if (!checked.success) throw new AppError('conflict', 'style.storedVersionUnsupported')
  return checked.data
}

function toGlobalSetting(row: ProjectStyleRow, setting: StyleSetting): GlobalSetting {
  return { project_id: row.project_id, setting, updated_at: row.updated_at }
}

/** Builds the style service. */
export function createStyleService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  access: ProjectAccess
}): StyleService {
  const { database, clock, access } = dependencies
  const { db } = database
  const now = () => timestampOf(clock.nowMs())

  return {
    async find(caller, projectId) {
      await access.requireReadable(caller, projectId)
      const row = await createStyleRepository(db).findByProject(projectId)
      return row ? toGlobalSetting(row, settingOf(row)) : null
    },

    add(user, projectId, setting) {
      return db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, projectId)
        const styles = createStyleRepository(transaction)
        if (await styles.findByProject(projectId)) {
          throw new AppError('conflict', 'style.alreadySaved')
        }
        const at = now()
        const row: ProjectStyleRow = {
          project_id: projectId,
          version: styleSettingVersion,
          setting_json: JSON.stringify(setting),
          created_at: at,
          updated_at: at,
        }
        await styles.insert(row)
        return toGlobalSetting(row, setting)
      })
    },

    update(user, projectId, patch) {
      return db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, projectId)
        const styles = createStyleRepository(transaction)
        const existing = await styles.findByProject(projectId)
        const base = existing ? settingOf(existing) : defaultStyleSetting
        const setting: StyleSetting = { ...base, ...patch, version: styleSettingVersion }
        // a patch of one distance is checked against the saved other one
        if (setting.visual_distance_min > setting.visual_distance_max) {
          throw new AppError('validation', 'style.distanceOrder')
        }
        const at = now()
        const json = JSON.stringify(setting)
        if (existing) {
          await styles.replace(projectId, json, styleSettingVersion, at)
          return toGlobalSetting({ ...existing, setting_json: json, updated_at: at }, setting)
        }
        const row: ProjectStyleRow = {
          project_id: projectId,
          version: styleSettingVersion,
          setting_json: json,
          created_at: at,
          updated_at: at,
        }
        await styles.insert(row)
        return toGlobalSetting(row, setting)
      })
    },

    remove(user, projectId) {
      return db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, projectId)
        return { deleted: await createStyleRepository(transaction).deleteByProject(projectId) }
      })
    },

    lifecycleHook: {
      async onCopy(transaction, fromProjectId, toProjectId) {
        await createStyleRepository(transaction).copy(fromProjectId, toProjectId, now())
      },
      async onDelete(transaction, projectId) {
        await createStyleRepository(transaction).deleteByProject(projectId)
      },
    },
  }
}
