import { randomUUID } from 'node:crypto'
import type { Selectable } from 'kysely'
import type { Device, DeviceWithToken, ProvisionedDevices } from '../../../contract/iot'
import type { IotDevicesTable } from '../../migrations/0015-iot'
import { AppError } from '../../http/app-error'
import { type Database, type DatabaseHandle, isUniqueViolation } from '../../plugins/db'
import type { ProjectAccess, ProjectCaller } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import { createToken, hashToken, isWellFormedToken } from '../auth/tokens'
import type { ProjectLifecycleHook } from '../projects/projects.service'
import { type Clock, timestampOf } from '../time/clock'
import { deviceOf } from './iot-records'
import type { StatusSubject } from './device-status'

/** What ingest knows of a device once its token is checked. */
export type AuthenticatedDevice = StatusSubject

/**
 * The device registry (issue 17, contract/iot.ts). A device is provisioned from a POI of a
 * project the caller may change and takes its device code; its token is answered once and kept
 * as a SHA-256. A device of a project the caller may not change is as unknown as a made-up id.
 */
export interface DevicesService {
  provision(
    user: AuthUser,
    input: { poi_id: string; name?: string | undefined; type?: string | undefined },
  ): Promise<DeviceWithToken>
  provisionMany(
    user: AuthUser,
    projectId: string,
    poiIds: readonly string[],
  ): Promise<ProvisionedDevices>
  list(caller: ProjectCaller, projectId: string): Promise<Device[]>
  rotateToken(user: AuthUser, id: string): Promise<DeviceWithToken>
  revokeToken(user: AuthUser, id: string): Promise<Device>
  /** The device a token opens (cached briefly; rotation and revocation forget it at once). */
  authenticate(token: string): Promise<AuthenticatedDevice | undefined>
  /** The same, from the token's SHA-256 (hex), as the MQTT broker passes it on. */
  authenticateHash(hash: string): Promise<AuthenticatedDevice | undefined>
  /** The hashes of every token in force, for the MQTT broker's credentials. */
  activeTokenHashes(): Promise<string[]>
  /** A device the user may change (`iot.deviceNotFound` otherwise). */
  requireEditableDevice(user: AuthUser, id: string): Promise<Selectable<IotDevicesTable>>
  /** Deletes a project's devices, series, points, rollups, attributes and alarms with it. */
  lifecycleHook: ProjectLifecycleHook
}

/** How long a checked token is trusted without reading the database again (same process). */
const tokenCacheMs = 10_000
const tokenCacheMaxEntries = 50_000

/** Builds the service. `onSeriesDeleted` lets the time-series store forget cached ids. */
export function createDevicesService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  access: ProjectAccess
  onSeriesDeleted: () => void
  /**
   * Told after tokens were issued, rotated or revoked (committed), so the MQTT broker's
   * credentials follow; awaited, so a device given a token can connect at once.
   */
  onTokensChanged?: () => Promise<void>
}): DevicesService {
  const { database, access, clock } = dependencies
  const { db } = database
  const now = () => timestampOf(clock.nowMs())
  const notFound = () => new AppError('notFound', 'iot.deviceNotFound')
  const tokens = new Map<string, { device: AuthenticatedDevice; checkedAtMs: number }>()
  const forgetDevice = (deviceId: string) => {
    for (const [hash, entry] of tokens) if (entry.device.id === deviceId) tokens.delete(hash)
  }

  const issue = () => {
    const token = createToken()
    return { token, hash: hashToken(token), hint: token.slice(-4) }
  }

  /** Inserts devices for POIs (already checked to be the project's and to have codes). */
  const insertDevices = async (
    handle: Database,
    projectId: string,
    pois: ReadonlyArray<{ id: string; devicecode: string; name: string; type: string }>,
  ): Promise<DeviceWithToken[]> => {
    const nowIso = now()
    const made = pois.map((poi) => {
      const issued = issue()
      return {
        token: issued.token,
        row: {
          id: randomUUID(),
          project_id: projectId,
          poi_id: poi.id,
          devicecode: poi.devicecode,
          name: poi.name,
          type: poi.type,
          token_hash: issued.hash,
          token_hint: issued.hint,
          token_issued_at: nowIso,
          revoked_at: null,
          status: null,
          status_at: null,
          last_seen_at: null,
          created_at: nowIso,
          updated_at: nowIso,
        },
      }
    })
    for (let start = 0; start < made.length; start += 500) {
      try {
        await handle
          .insertInto('iot_devices')
          .values(made.slice(start, start + 500).map((entry) => entry.row))
          .execute()
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new AppError('conflict', 'iot.devicecodeTaken', {
            devicecode: made[start]?.row.devicecode ?? '',
          })
        }
        throw error
      }
    }
    return made.map((entry) => ({ device: deviceOf(entry.row), token: entry.token }))
  }

  const poisWithDevices = async (
    handle: Database,
    projectId: string,
    poiIds: readonly string[],
  ) => {
    const rows = await handle
      .selectFrom('iot_devices')
      .select(['poi_id', 'devicecode'])
      .where('project_id', '=', projectId)
      .execute()
    const withDevice = new Set(rows.map((row) => row.poi_id))
    const codes = new Set(rows.map((row) => row.devicecode))
    return { has: (poiId: string) => withDevice.has(poiId), codes, count: poiIds.length }
  }

  const requireEditableDevice = async (user: AuthUser, id: string) => {
    const row = await db
      .selectFrom('iot_devices')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    if (!row) throw notFound()
    try {
      await access.requireEditable(user, row.project_id)
    } catch (error) {
      if (error instanceof AppError) throw notFound()
      throw error
    }
    return row
  }

  const tokensChanged = async () => {
    await dependencies.onTokensChanged?.()
  }

  const authenticateHash = async (hash: string): Promise<AuthenticatedDevice | undefined> => {
    const nowMs = clock.nowMs()
    const known = tokens.get(hash)
    if (known !== undefined && nowMs - known.checkedAtMs < tokenCacheMs) return known.device
    const row = await db
      .selectFrom('iot_devices')
      .select(['id', 'project_id', 'poi_id', 'devicecode'])
      .where('token_hash', '=', hash)
      .executeTakeFirst()
    if (!row) {
      tokens.delete(hash)
      return undefined
    }
    const device = {
      id: row.id,
      projectId: row.project_id,
      poiId: row.poi_id,
      devicecode: row.devicecode,
    }
    if (tokens.size >= tokenCacheMaxEntries) tokens.clear()
    tokens.set(hash, { device, checkedAtMs: nowMs })
    return device
  }

  return {
    async provision(user, input) {
      const poi = await db
        .selectFrom('pois')
        .select(['id', 'project_id', 'name', 'devicecode', 'poicategory_code'])
        .where('id', '=', input.poi_id)
        .executeTakeFirst()
      if (!poi) throw new AppError('notFound', 'poi.notFound')
      try {
        await access.requireEditable(user, poi.project_id)
      } catch (error) {
        if (error instanceof AppError) throw new AppError('notFound', 'poi.notFound')
        throw error
      }
      if (poi.devicecode === '') throw new AppError('validation', 'iot.poiNoDevicecode')
      const made = await db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, poi.project_id)
        const existing = await poisWithDevices(transaction, poi.project_id, [poi.id])
        if (existing.has(poi.id)) throw new AppError('conflict', 'iot.poiHasDevice')
        if (existing.codes.has(poi.devicecode)) {
          throw new AppError('conflict', 'iot.devicecodeTaken', { devicecode: poi.devicecode })
        }
        const [made] = await insertDevices(transaction, poi.project_id, [
          {
            id: poi.id,
            devicecode: poi.devicecode,
            name: input.name ?? poi.name,
            type: input.type ?? poi.poicategory_code,
          },
        ])
        return made!
      })
      await tokensChanged()
      return made
    },

    async provisionMany(user, projectId, poiIds) {
      const provisioned = await db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, projectId)
        const unique = [...new Set(poiIds)]
        const pois: Array<{
          id: string
          name: string
          devicecode: string
          poicategory_code: string
        }> = []
        for (let start = 0; start < unique.length; start += 500) {
          pois.push(
            ...(await transaction
              .selectFrom('pois')
              .select(['id', 'name', 'devicecode', 'poicategory_code'])
              .where('project_id', '=', projectId)
              .where('id', 'in', unique.slice(start, start + 500))
              .execute()),
          )
        }
        // any id not a POI of this project refuses the whole call, like the POI list calls
        if (pois.length !== unique.length) throw new AppError('notFound', 'poi.notYours')
        const existing = await poisWithDevices(transaction, projectId, unique)
        const skipped: ProvisionedDevices['skipped'] = []
        const wanted: Array<{ id: string; devicecode: string; name: string; type: string }> = []
        const order = new Map(unique.map((id, index) => [id, index]))
        pois.sort((a, b) => order.get(a.id)! - order.get(b.id)!)
        for (const poi of pois) {
          if (existing.has(poi.id)) skipped.push({ poi_id: poi.id, reason: 'hasDevice' })
          else if (poi.devicecode === '') skipped.push({ poi_id: poi.id, reason: 'noDevicecode' })
          else if (existing.codes.has(poi.devicecode)) {
            throw new AppError('conflict', 'iot.devicecodeTaken', { devicecode: poi.devicecode })
          } else {
            wanted.push({
              id: poi.id,
              devicecode: poi.devicecode,
              name: poi.name,
              type: poi.poicategory_code,
            })
          }
        }
        const list = await insertDevices(transaction, projectId, wanted)
        return { count: list.length, list, skipped }
      })
      if (provisioned.count > 0) await tokensChanged()
      return provisioned
    },

    async list(caller, projectId) {
      await access.requireReadable(caller, projectId)
      const rows = await db
        .selectFrom('iot_devices')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('devicecode')
        .execute()
      return rows.map(deviceOf)
    },

    async rotateToken(user, id) {
      const row = await requireEditableDevice(user, id)
      const issued = issue()
      const nowIso = now()
      await db
        .updateTable('iot_devices')
        .set({
          token_hash: issued.hash,
          token_hint: issued.hint,
          token_issued_at: nowIso,
          revoked_at: null,
          updated_at: nowIso,
        })
        .where('id', '=', row.id)
        .execute()
      forgetDevice(row.id)
      const updated = await db
        .selectFrom('iot_devices')
        .selectAll()
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow()
      await tokensChanged()
      return { device: deviceOf(updated), token: issued.token }
    },

    async revokeToken(user, id) {
      const row = await requireEditableDevice(user, id)
      const nowIso = now()
      await db
        .updateTable('iot_devices')
        .set({ token_hash: null, revoked_at: nowIso, updated_at: nowIso })
        .where('id', '=', row.id)
        .execute()
      forgetDevice(row.id)
      const updated = await db
        .selectFrom('iot_devices')
        .selectAll()
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow()
      await tokensChanged()
      return deviceOf(updated)
    },

    async authenticate(token) {
      if (!isWellFormedToken(token)) return undefined
      return authenticateHash(hashToken(token))
    },

    authenticateHash,

    async activeTokenHashes() {
      const rows = await db
        .selectFrom('iot_devices')
        .select('token_hash')
        .where('token_hash', 'is not', null)
        .execute()
      return rows.map((row) => row.token_hash!)
    },

    requireEditableDevice,

    lifecycleHook: {
      async onDelete(transaction, projectId) {
        const devices = transaction
          .selectFrom('iot_devices')
          .select('id')
          .where('project_id', '=', projectId)
        const series = transaction
          .selectFrom('iot_series')
          .select('id')
          .where('device_id', 'in', devices)
        await transaction.deleteFrom('iot_points').where('series_id', 'in', series).execute()
        await transaction.deleteFrom('iot_rollups_1m').where('series_id', 'in', series).execute()
        await transaction.deleteFrom('iot_rollups_1h').where('series_id', 'in', series).execute()
        await transaction.deleteFrom('iot_series').where('device_id', 'in', devices).execute()
        await transaction.deleteFrom('iot_attributes').where('device_id', 'in', devices).execute()
        await transaction.deleteFrom('iot_alarms').where('project_id', '=', projectId).execute()
        await transaction.deleteFrom('iot_devices').where('project_id', '=', projectId).execute()
        tokens.clear()
        dependencies.onSeriesDeleted()
        // after the commit; ingest refuses these devices' tokens already (the cache is cleared)
        setTimeout(() => void tokensChanged().catch(() => {}), 100).unref()
      },
    },
  }
}
