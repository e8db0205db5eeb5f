import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { useSnapshot } from 'valtio'
import { alarmStatusCodes } from '../../../../contract/iot'
import * as iotApi from '../../../api/iot'
import { showErrorToast } from '../../../components/feedback/error-text'
import { Button, Select, toast } from '../../../ui'
import { iotStore } from './iot-store'
import { statusNameOf } from './iot-texts'

/** Props of {@link SimulateAlarmTool}. */
export interface SimulateAlarmToolProps {
  /** Raising an alarm changes the project: editors only (the server checks it too). */
  canEdit: boolean
}

/**
 * Visit tools → simulate alarm (SPEC §2): raises an alarm code for one of the project's devices
 * through the real alarm path, so a visitor sees what a real one does — the POI's disc turns,
 * the alarm is listed, its linkage runs and linked cameras open.
 */
export function SimulateAlarmTool({ canEdit }: SimulateAlarmToolProps) {
  const { t, i18n } = useLingui()
  const { devices } = useSnapshot(iotStore)
  const [chosenDeviceId, setChosenDeviceId] = useState<string | null>(null)
  const [code, setCode] = useState<number>(alarmStatusCodes[0]!)
  const [isRaising, setRaising] = useState(false)
  const deviceId = devices.some((device) => device.id === chosenDeviceId)
    ? chosenDeviceId
    : (devices[0]?.id ?? null)

  async function raise() {
    if (deviceId === null || isRaising) return
    setRaising(true)
    try {
      await iotApi.simulateAlarm(deviceId, code)
      toast.success(t`The alarm was raised. It shows in the scene and under POI → Alarms.`)
    } catch (error) {
      showErrorToast(error)
    } finally {
      setRaising(false)
    }
  }

  return (
    <section className="ts-bim4-visit__tool" aria-labelledby="simulate-alarm-title">
      <h2 id="simulate-alarm-title" className="ts-bim4-visit__tool-title">
        <Trans>Simulate alarm</Trans>
      </h2>
      {devices.length === 0 ? (
        <p className="ts-bim4-visit__hint">
          <Trans>No device yet: link a device to a POI under POI → IoT devices first.</Trans>
        </p>
      ) : (
        <>
          <Select
            label={t`Device`}
            options={devices.map((device) => ({ value: device.id, label: device.name }))}
            value={deviceId ?? ''}
            onValueChange={setChosenDeviceId}
          />
          <Select
            label={t`Alarm`}
            options={alarmStatusCodes.map((value) => ({
              value: String(value),
              label: statusNameOf(i18n, value),
            }))}
            value={String(code)}
            onValueChange={(value) => setCode(Number(value))}
          />
          <Button
            variant="primary"
            onClick={() => void raise()}
            disabled={!canEdit || deviceId === null}
            isBusy={isRaising}
          >
            <Trans>Raise the alarm</Trans>
          </Button>
          {!canEdit && (
            <p className="ts-bim4-visit__hint">
              <Trans>Only editors of this project can raise alarms.</Trans>
            </p>
          )}
        </>
      )}
    </section>
  )
}
