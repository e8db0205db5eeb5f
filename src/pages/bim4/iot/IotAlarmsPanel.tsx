import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { Alarm, AlarmState } from '../../../api/iot'
import * as iotApi from '../../../api/iot'
import { showErrorToast } from '../../../components/feedback/error-text'
import { type PoiStore, poiStore } from '../../../state/pois'
import { Button, EmptyState, Select, toast } from '../../../ui'
import { focusAlarmPoi } from './alarm-focus'
import { Inspections } from './Inspections'
import { loadInvestigations } from './investigations-store'
import { iotStore, upsertAlarm } from './iot-store'
import { alarmStateNames, formatDateTime, statusCssColourOf, statusNameOf } from './iot-texts'
import { LiveBadge } from './LiveBadge'
import './iot.css'

type AlarmFilter = AlarmState | 'open' | 'all'

/** Props of {@link IotAlarmsPanel}. */
export interface IotAlarmsPanelProps {
  /** Whether the user may change the project: records inspections. */
  canEdit: boolean
  /** The POIs of the editor's scene; tests pass their own. */
  pois?: PoiStore
}

/**
 * POI → alarms (issue 17), in the building and the city editor alike: the project's alarm
 * records, live, newest first, filtered by state; acknowledge and clear (who and when are
 * recorded), and jump to the POI in the scene. While "follow new alarms" is on, a new alarm
 * selects its POI and flies there by itself (use-iot-live.ts). Each alarm lists its inspection
 * records (item 7) under it.
 */
export function IotAlarmsPanel({ canEdit, pois = poiStore }: IotAlarmsPanelProps) {
  const { t, i18n } = useLingui()
  const iot = useSnapshot(iotStore)
  const [filter, setFilter] = useState<AlarmFilter>('open')
  const [busyId, setBusyId] = useState<string | null>(null)
  const projectId = iot.projectId

  useEffect(() => {
    if (projectId) loadInvestigations(projectId).catch(showErrorToast)
  }, [projectId])

  // closed alarms are not kept live: load them when asked for
  useEffect(() => {
    if (!projectId || filter === 'open' || filter === 'active' || filter === 'acknowledged') {
      return undefined
    }
    let isCurrent = true
    iotApi
      .findAlarms(projectId, filter === 'all' ? {} : { state: filter })
      .then((page) => {
        if (!isCurrent) return
        for (const alarm of [...page.list].reverse()) {
          if (!iotStore.alarms.some((known) => known.id === alarm.id)) iotStore.alarms.push(alarm)
        }
        iotStore.alarms.sort((a, b) => b.raised_at.localeCompare(a.raised_at))
      })
      .catch(showErrorToast)
    return () => {
      isCurrent = false
    }
  }, [projectId, filter])

  if (!projectId) return null
  const shown = iot.alarms.filter((alarm) =>
    filter === 'all'
      ? true
      : filter === 'open'
        ? alarm.state !== 'cleared'
        : alarm.state === filter,
  )
  const nameOf = (alarm: Alarm) =>
    iot.devices.find((device) => device.id === alarm.device_id)?.name ?? alarm.devicecode

  async function change(alarm: Alarm, state: 'acknowledged' | 'cleared') {
    if (busyId) return
    setBusyId(alarm.id)
    try {
      upsertAlarm(await iotApi.updateAlarm(alarm.id, state))
      toast.success(state === 'acknowledged' ? t`Alarm acknowledged.` : t`Alarm cleared.`)
    } catch (error) {
      showErrorToast(error)
    } finally {
      setBusyId(null)
    }
  }

  const showInScene = (alarm: Alarm) => {
    if (alarm.poi_id === '') return
    if (!focusAlarmPoi(alarm.poi_id, pois)) toast.warning(t`This device's POI is not in the scene.`)
  }

  return (
    <section className="ts-iot" data-testid="iot-alarms">
      <LiveBadge />
      <div className="ts-iot-filters">
        <Select<AlarmFilter>
          label={<Trans>Show</Trans>}
          options={[
            { value: 'open', label: t`Open alarms` },
            { value: 'active', label: i18n._(alarmStateNames.active) },
            { value: 'acknowledged', label: i18n._(alarmStateNames.acknowledged) },
            { value: 'cleared', label: i18n._(alarmStateNames.cleared) },
            { value: 'all', label: t`All alarms` },
          ]}
          value={filter}
          onValueChange={setFilter}
        />
        <label className="ts-iot-follow">
          <input
            type="checkbox"
            checked={iot.isFollowingAlarms}
            onChange={(event) => {
              iotStore.isFollowingAlarms = event.target.checked
            }}
          />
          <Trans>Fly to new alarms</Trans>
        </label>
      </div>
      {shown.length === 0 ? (
        <EmptyState title={<Trans>No alarms.</Trans>} />
      ) : (
        <ul className="ts-plain-list ts-iot-list" aria-label={t`Alarms`}>
          {shown.map((alarm) => (
            <li
              key={alarm.id}
              className="ts-list-row ts-iot-alarm"
              data-testid="iot-alarm"
              data-state={alarm.state}
              data-devicecode={alarm.devicecode}
            >
              <div className="ts-iot-alarm__head">
                <span
                  className="ts-iot-dot"
                  style={{ background: statusCssColourOf(alarm.code) }}
                  aria-hidden="true"
                />
                <strong>{statusNameOf(i18n, alarm.code)}</strong>
                <span>{nameOf(alarm)}</span>
                <span className="ts-iot-alarm__state">{i18n._(alarmStateNames[alarm.state])}</span>
              </div>
              <p className="ts-bim4-muted">
                {formatDateTime(i18n, alarm.raised_at)}
                {alarm.count > 1 && <> · {t`reported ${alarm.count} times`}</>}
                {alarm.acknowledged_by !== '' && (
                  <> · {t`acknowledged by ${alarm.acknowledged_by}`}</>
                )}
                {alarm.cleared_by !== '' && <> · {t`cleared by ${alarm.cleared_by}`}</>}
              </p>
              <div className="ts-iot-actions">
                <Button variant="ghost" onClick={() => showInScene(alarm)}>
                  <Trans>Show in the scene</Trans>
                </Button>
                {alarm.state === 'active' && (
                  <Button
                    variant="secondary"
                    onClick={() => void change(alarm, 'acknowledged')}
                    isBusy={busyId === alarm.id}
                  >
                    <Trans>Acknowledge</Trans>
                  </Button>
                )}
                {alarm.state !== 'cleared' && (
                  <Button
                    variant="secondary"
                    onClick={() => void change(alarm, 'cleared')}
                    isBusy={busyId === alarm.id}
                  >
                    <Trans>Clear alarm</Trans>
                  </Button>
                )}
              </div>
              <Inspections
                projectId={projectId}
                subject={{ alarmId: alarm.id }}
                canEdit={canEdit}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
