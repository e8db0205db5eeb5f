import type { z } from 'zod'
import type {
  Alarm,
  AlarmPage,
  addAlarmBodySchema,
  findAlarmsBodySchema,
  updateAlarmBodySchema,
} from '../../../contract/iot'
import { AppError, fieldError } from '../../http/app-error'
import type { DatabaseHandle } from '../../plugins/db'
import type { ProjectAccess, ProjectCaller } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import { type Clock, timestampOf } from '../time/clock'
import { applyStatus } from './device-status'
import { alarmOf } from './iot-records'
import { publishAlarm, publishStatusOutcome } from './live-events'
import type { LiveHub } from './live-hub'

type AddInput = z.output<typeof addAlarmBodySchema>
type UpdateInput = z.output<typeof updateAlarmBodySchema>
type FindInput = z.output<typeof findAlarmsBodySchema>

/**
 * Alarm records (SPEC §7 `/alarmrecord/*`): raised by devices (device-status.ts) or by an editor
 * (`add`, the "simulate alarm"), acknowledged and cleared by whoever may change the project, with
 * who and when; read by whoever may read it. A record of a project the caller may not reach is
 * as unknown as a made-up id.
 */
export interface AlarmsService {
  add(user: AuthUser, input: AddInput): Promise<Alarm>
  update(user: AuthUser, input: UpdateInput): Promise<Alarm>
  remove(user: AuthUser, id: string): Promise<{ deleted: number }>
  find(caller: ProjectCaller, input: FindInput): Promise<AlarmPage>
}

/** Builds the service. */
export function createAlarmsService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  access: ProjectAccess
  /** The live stream: changes are published after their commit. */
  live?: LiveHub
}): AlarmsService {
  const { database, clock, access, live } = dependencies
  const { db } = database
  const now = () => timestampOf(clock.nowMs())
  const notFound = () => new AppError('notFound', 'alarm.notFound')

  const editableAlarm = async (user: AuthUser, id: string) => {
    const row = await db
      .selectFrom('iot_alarms')
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

  const load = async (id: string) =>
    alarmOf(
      await db.selectFrom('iot_alarms').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    )

  return {
    async add(user, input) {
      let query = db.selectFrom('iot_devices').select(['id', 'project_id', 'poi_id', 'devicecode'])
      if (input.device_id !== undefined) query = query.where('id', '=', input.device_id)
      else if (input.poi_id !== undefined) query = query.where('poi_id', '=', input.poi_id)
      else throw fieldError('validation', 'device_id', 'alarm.nameTheDevice')
      const device = await query.executeTakeFirst()
      if (!device) throw new AppError('notFound', 'iot.deviceNotFound')
      const nowIso = now()
      const subject = {
        id: device.id,
        projectId: device.project_id,
        poiId: device.poi_id,
        devicecode: device.devicecode,
      }
      const outcome = await db.transaction().execute(async (transaction) => {
        try {
          await access.lockEditable(transaction, user, device.project_id)
        } catch (error) {
          if (error instanceof AppError) throw new AppError('notFound', 'iot.deviceNotFound')
          throw error
        }
        return applyStatus(transaction, subject, {
          code: input.code,
          nowIso,
          source: 'manual',
          note: input.note,
        })
      })
      if (live !== undefined) {
        await publishStatusOutcome(live, db, subject, input.code, nowIso, outcome)
      }
      return load(outcome.alarmId!)
    },

    async update(user, input) {
      const row = await editableAlarm(user, input.id)
      if (row.state === 'cleared') throw new AppError('conflict', 'alarm.alreadyCleared')
      if (input.state === 'acknowledged' && row.state === 'acknowledged') {
        throw new AppError('conflict', 'alarm.alreadyAcknowledged')
      }
      const nowIso = now()
      const changes =
        input.state === 'acknowledged'
          ? { state: 'acknowledged' as const, acknowledged_at: nowIso, acknowledged_by: user.name }
          : { state: 'cleared' as const, cleared_at: nowIso, cleared_by: user.name }
      // only from the state read above: a concurrent change makes this one a conflict
      const updated = await db
        .updateTable('iot_alarms')
        .set({
          ...changes,
          updated_at: nowIso,
          ...(input.note === undefined ? {} : { note: input.note }),
        })
        .where('id', '=', row.id)
        .where('state', '=', row.state)
        .executeTakeFirst()
      if (Number(updated.numUpdatedRows) === 0) throw new AppError('conflict', 'error.conflict')
      const alarm = await load(row.id)
      if (live !== undefined) publishAlarm(live, alarm)
      return alarm
    },

    async remove(user, id) {
      const row = await editableAlarm(user, id)
      const deleted = await db.deleteFrom('iot_alarms').where('id', '=', row.id).executeTakeFirst()
      if (live !== undefined && Number(deleted.numDeletedRows) > 0) {
        live.publish(row.project_id, { type: 'alarmDeleted', id: row.id })
      }
      return { deleted: Number(deleted.numDeletedRows) }
    },

    async find(caller, input) {
      await access.requireReadable(caller, input.projectid)
      let query = db.selectFrom('iot_alarms').where('project_id', '=', input.projectid)
      if (input.state === 'open') query = query.where('state', '<>', 'cleared')
      else if (input.state !== undefined) query = query.where('state', '=', input.state)
      if (input.code !== undefined) query = query.where('code', '=', input.code)
      if (input.device_id !== undefined) query = query.where('device_id', '=', input.device_id)
      if (input.poi_id !== undefined) query = query.where('poi_id', '=', input.poi_id)
      const total = await query
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow()
      const rows = await query
        .selectAll()
        .orderBy('raised_at', 'desc')
        .orderBy('id', 'desc')
        .limit(input.pageSize)
        .offset((input.pageNo - 1) * input.pageSize)
        .execute()
      return {
        list: rows.map(alarmOf),
        total: Number(total.count),
        pageNo: input.pageNo,
        pageSize: input.pageSize,
      }
    },
  }
}
