import { useLingui } from '@lingui/react/macro'
import { useEffect } from 'react'
import { connectLiveStream } from '../../../api/iot-live'
import type { EngineHandle } from '../../../engine-bridge'
import { type PoiStore, poiStore } from '../../../state/pois'
import { toast } from '../../../ui'
import { focusAlarmPoi } from './alarm-focus'
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
 * The live twin of the open project (issue 17): loads its devices and open alarms, keeps the
 * live stream open while the editor is, and hands the scene (`scene`: the building editor's or
 * the city editor's) the POIs' statuses (all of them when the scene opens or the stream was
 * reset, then each change). A new alarm is announced, and while "follow alarms" (the alarm
 * list's switch) is on, its POI is selected and flown to (`pois`: the POIs the editor's scene
 * draws). In the building editor it also fires the event linkage (linkage-store.ts): the
 * linked cameras open their video on the stage, linked areas are named there, a device going
 * off (code 0) fires `offline`.
 */
export function useIotLive(
  engine: EngineHandle | null,
  isSceneOpen: boolean,
  projectId: string | null,
  scene: 'building' | 'city' = 'building',
  pois: PoiStore = poiStore,
): void {
  const { t, i18n } = useLingui()

  useEffect(() => {
    if (!projectId) return undefined
    void loadIot(projectId)
    const hasLinkage = scene === 'building'
    if (hasLinkage) void loadLinkage(projectId).catch(() => undefined)
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
      if (hasLinkage) resetLinkage()
    }
  }, [projectId, scene])

  useEffect(() => {
    if (!engine || !isSceneOpen) return undefined
    const send = (statuses: ReturnType<typeof poiStatusEntries>, replace: boolean) => {
      const sent =
        scene === 'city'
          ? engine.run('city.setPoiStatuses', { statuses, replace })
          : engine.run('building.setPoiStatuses', { statuses, replace })
      void sent.catch(() => undefined)
    }
    send(poiStatusEntries(), true)
    // the stream hands over one status per event, and one network read holds many: they go to
    // the scene as one command per read (a microtask later), not one redraw per device
    let pending: ReturnType<typeof poiStatusEntries> = []
    const flush = () => {
      const statuses = pending
      pending = []
      if (statuses.length > 0) send(statuses, false)
    }
    const stopStatuses = onPoiStatuses((statuses, replace) => {
      if (replace) {
        pending = []
        send(statuses, true)
      } else {
        if (pending.length === 0) queueMicrotask(flush)
        pending.push(...statuses)
      }
      if (replace || scene !== 'building') return
      for (const entry of statuses) if (entry.code === 0) fireLinkage(entry.poiId, 0)
    })
    const stopAlarms = onAlarmRaised((alarm) => {
      const device = iotStore.devices.find((candidate) => candidate.id === alarm.device_id)
      const name = device?.name ?? alarm.devicecode
      toast.warning(t`${statusNameOf(i18n, alarm.code)}: ${name}`)
      if (alarm.poi_id === '') return
      if (scene === 'building') fireLinkage(alarm.poi_id, alarm.code)
      if (iotStore.isFollowingAlarms) focusAlarmPoi(alarm.poi_id, pois)
    })
    return () => {
      stopStatuses()
      stopAlarms()
      pending = []
    }
  }, [engine, isSceneOpen, scene, pois, t, i18n])
}
