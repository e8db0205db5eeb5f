import { useLingui } from '@lingui/react/macro'
import { useEffect } from 'react'
import { connectLiveStream } from '../../../api/iot-live'
import type { EngineHandle } from '../../../engine-bridge'
import { toast } from '../../../ui'
import {
  applyLiveEvent,
  iotStore,
  loadIot,
  onAlarmRaised,
  onPoiStatuses,
  poiStatusEntries,
  resetIot,
} from './iot-store'
import { statusNameOf } from './iot-texts'
import { fireLinkage, loadLinkage, resetLinkage } from './linkage-store'

/**
 * The live twin of the open building project (issue 17): loads its devices and open alarms,
 * keeps the live stream open while the editor is, and hands the scene the POIs' statuses
 * (all of them when the scene opens or the stream was reset, then each change). A new alarm is
 * announced and fires the event linkage (linkage-store.ts): the linked cameras open their video
 * on the stage, linked areas are named there. While "follow alarms" is on, the alarm's POI is
 * selected and flown to. A device going off (code 0) fires `offline`.
 */
export function useIotLive(
  engine: EngineHandle | null,
  isBuildingOpen: boolean,
  projectId: string | null,
): void {
  const { t, i18n } = useLingui()

  useEffect(() => {
    if (!projectId) return undefined
    void loadIot(projectId)
    void loadLinkage(projectId).catch(() => undefined)
    let hasBeenLive = false
    const stop = connectLiveStream({
      projectId,
      onEvent: applyLiveEvent,
      onState: (state) => {
        iotStore.liveState = state
        // what changed between the first load and the stream's start is read again once
        if (state === 'live' && !hasBeenLive) {
          hasBeenLive = true
          void loadIot(projectId)
        }
      },
    })
    return () => {
      stop()
      resetIot()
      resetLinkage()
    }
  }, [projectId])

  useEffect(() => {
    if (!engine || !isBuildingOpen) return undefined
    const send = (statuses: ReturnType<typeof poiStatusEntries>, replace: boolean) => {
      void engine.run('building.setPoiStatuses', { statuses, replace }).catch(() => undefined)
    }
    send(poiStatusEntries(), true)
    const stopStatuses = onPoiStatuses((statuses, replace) => {
      send(statuses, replace)
      if (replace) return
      for (const entry of statuses) if (entry.code === 0) fireLinkage(entry.poiId, 0)
    })
    const stopAlarms = onAlarmRaised((alarm) => {
      const device = iotStore.devices.find((candidate) => candidate.id === alarm.device_id)
      const name = device?.name ?? alarm.devicecode
      toast.warning(t`${statusNameOf(i18n, alarm.code)}: ${name}`)
      if (alarm.poi_id === '') return
      fireLinkage(alarm.poi_id, alarm.code)
      if (!iotStore.isFollowingAlarms) return
      void (async () => {
        await engine.run('building.selectPois', { ids: [alarm.poi_id] })
        await engine.run('building.flyToPoi', { id: alarm.poi_id })
      })().catch(() => undefined)
    })
    return () => {
      stopStatuses()
      stopAlarms()
    }
  }, [engine, isBuildingOpen, t, i18n])
}
