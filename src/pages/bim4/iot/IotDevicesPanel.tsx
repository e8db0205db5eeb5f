import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { useSnapshot } from 'valtio'
import { statusKey } from '../../../../contract/iot'
import type { Device } from '../../../api/iot'
import * as iotApi from '../../../api/iot'
import { showErrorToast } from '../../../components/feedback/error-text'
import { useProjectPermissions } from '../../../components/project/project-permissions'
import { useEngine } from '../../../engine-bridge'
import { poiStore } from '../../../state/pois'
import {
  Button,
  confirm,
  Dialog,
  EmptyState,
  ErrorState,
  Select,
  Spinner,
  toast,
} from '../../../ui'
import { buildingSession } from '../building-session'
import { DeviceChart } from './DeviceChart'
import { Inspections } from './Inspections'
import { iotStore, loadIot, upsertDevice } from './iot-store'
import { formatDateTime, formatValue, statusCssColourOf, statusNameOf } from './iot-texts'
import { LiveBadge } from './LiveBadge'
import './iot.css'

/** A token just made: shown once in a dialog, never again. */
interface ShownTokens {
  list: { name: string; devicecode: string; token: string }[]
}

/**
 * POI → devices (issue 17): the project's device registry. Provision a device from a POI with a
 * device code (or all of them at once), read each device's status and newest values live, open
 * one for its chart, rotate or revoke its token; a new token is shown once.
 */
export function IotDevicesPanel() {
  const { t, i18n } = useLingui()
  const engine = useEngine()
  const iot = useSnapshot(iotStore)
  const { revision } = useSnapshot(poiStore.state)
  const [poiId, setPoiId] = useState<string | null>(null)
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [shown, setShown] = useState<ShownTokens | null>(null)
  const { canEdit } = useProjectPermissions(useSnapshot(buildingSession).project)

  const projectId = iot.projectId
  if (!projectId) return null
  if (iot.status === 'error') {
    return <ErrorState message={null} onRetry={() => void loadIot(projectId)} />
  }

  void revision // the POI list below follows the store's revision
  const linkedPoiIds = new Set(iot.devices.map((device) => device.poi_id))
  const candidates = poiStore
    .entries()
    .filter((poi) => poi.devicecode !== '' && !poi.isPending && !linkedPoiIds.has(poi.id))
  const selected = iot.devices.find((device) => device.id === selectedId) ?? null

  async function run(key: string, action: () => Promise<void>) {
    if (busy) return
    setBusy(key)
    try {
      await action()
    } catch (error) {
      showErrorToast(error)
    } finally {
      setBusy(null)
    }
  }

  const provisionOne = () =>
    run('provision', async () => {
      if (!poiId) return
      const made = await iotApi.provisionDevice(poiId)
      upsertDevice(made.device)
      setPoiId(null)
      setSelectedId(made.device.id)
      setShown({ list: [{ ...made.device, token: made.token }] })
    })

  const provisionAll = () =>
    run('provisionAll', async () => {
      const made = await iotApi.provisionDevices(
        projectId,
        candidates.map((poi) => poi.id),
      )
      for (const entry of made.list) upsertDevice(entry.device)
      toast.success(t`${made.count} devices provisioned.`)
      if (made.list.length > 0) {
        setShown({ list: made.list.map((entry) => ({ ...entry.device, token: entry.token })) })
      }
    })

  const rotate = (device: Device) =>
    run(`rotate:${device.id}`, async () => {
      const isSure = await confirm({
        type: 'warning',
        title: t`Rotate the token of ${device.name}?`,
        message: t`The device's current token stops working at once.`,
      })
      if (!isSure) return
      const made = await iotApi.rotateDeviceToken(device.id)
      upsertDevice(made.device)
      setShown({ list: [{ ...made.device, token: made.token }] })
    })

  const revoke = (device: Device) =>
    run(`revoke:${device.id}`, async () => {
      const isSure = await confirm({
        type: 'warning',
        title: t`Revoke the token of ${device.name}?`,
        message: t`The device cannot send data until its token is rotated.`,
      })
      if (!isSure) return
      upsertDevice(await iotApi.revokeDeviceToken(device.id))
      toast.success(t`Token revoked.`)
    })

  const showInScene = (device: Device) => {
    if (device.poi_id === '') return
    void (async () => {
      await engine.run('building.selectPois', { ids: [device.poi_id] })
      await engine.run('building.flyToPoi', { id: device.poi_id })
    })().catch(() => toast.warning(t`This device's POI is not in the scene.`))
  }

  return (
    <section className="ts-iot" data-testid="iot-devices">
      <LiveBadge />
      <fieldset className="ts-iot-provision">
        <legend>
          <Trans>Provision a device from a POI</Trans>
        </legend>
        {candidates.length === 0 ? (
          <p className="ts-bim4-muted">
            <Trans>
              Every POI with a device code has a device. Give a POI a device code first.
            </Trans>
          </p>
        ) : (
          <>
            <Select
              label={<Trans>POI with a device code</Trans>}
              placeholder={<Trans>Choose a POI</Trans>}
              options={candidates.map((poi) => ({
                value: poi.id,
                label: `${poi.name} (${poi.devicecode})`,
              }))}
              value={poiId}
              onValueChange={setPoiId}
            />
            <div className="ts-iot-actions">
              <Button onClick={provisionOne} disabled={!poiId} isBusy={busy === 'provision'}>
                <Trans>Provision device</Trans>
              </Button>
              <Button variant="secondary" onClick={provisionAll} isBusy={busy === 'provisionAll'}>
                <Trans>Provision all ({candidates.length})</Trans>
              </Button>
            </div>
          </>
        )}
      </fieldset>

      {iot.status === 'loading' && iot.devices.length === 0 ? (
        <Spinner label={t`Loading devices`} />
      ) : iot.devices.length === 0 ? (
        <EmptyState title={<Trans>No devices yet.</Trans>} />
      ) : (
        <ul className="ts-plain-list ts-iot-list" aria-label={t`Devices`}>
          {iot.devices.map((device) => {
            const values = Object.entries(iot.latest[device.id]?.values ?? {}).filter(
              ([key]) => key !== statusKey,
            )
            return (
              <li key={device.id}>
                <button
                  type="button"
                  className="ts-list-row ts-iot-item"
                  aria-pressed={device.id === selectedId}
                  data-testid="iot-device"
                  data-devicecode={device.devicecode}
                  onClick={() => setSelectedId(device.id === selectedId ? null : device.id)}
                >
                  <span
                    className="ts-iot-dot"
                    style={{ background: statusCssColourOf(device.status) }}
                    aria-hidden="true"
                  />
                  <span className="ts-iot-item__name">{device.name}</span>
                  <span className="ts-iot-item__code">{device.devicecode}</span>
                  <span className="ts-iot-item__status" data-testid="iot-device-status">
                    {statusNameOf(i18n, device.status)}
                  </span>
                  <span className="ts-iot-item__values" data-testid="iot-device-values">
                    {values.map(([key, value]) => `${key} ${formatValue(i18n, value)}`).join(' · ')}
                  </span>
                  {device.is_revoked && (
                    <span className="ts-iot-item__revoked">
                      <Trans>Token revoked</Trans>
                    </span>
                  )}
                </button>
              </li>
            )
          })}
        </ul>
      )}

      {selected && (
        <section className="ts-iot-detail" aria-label={selected.name}>
          <h2>{selected.name}</h2>
          <dl className="ts-iot-facts">
            <dt>
              <Trans>Device code</Trans>
            </dt>
            <dd>{selected.devicecode}</dd>
            <dt>
              <Trans>Token</Trans>
            </dt>
            <dd>{selected.is_revoked ? <Trans>Revoked</Trans> : `…${selected.token_hint}`}</dd>
            <dt>
              <Trans>Last seen</Trans>
            </dt>
            <dd>{selected.last_seen_at ? formatDateTime(i18n, selected.last_seen_at) : '—'}</dd>
          </dl>
          <div className="ts-iot-actions">
            <Button variant="secondary" onClick={() => showInScene(selected)}>
              <Trans>Show in the scene</Trans>
            </Button>
            <Button
              variant="secondary"
              onClick={() => rotate(selected)}
              isBusy={busy === `rotate:${selected.id}`}
            >
              <Trans>Rotate token</Trans>
            </Button>
            <Button
              variant="danger"
              onClick={() => revoke(selected)}
              disabled={selected.is_revoked}
              isBusy={busy === `revoke:${selected.id}`}
            >
              <Trans>Revoke token</Trans>
            </Button>
          </div>
          <DeviceChart deviceId={selected.id} />
          {selected.poi_id !== '' && (
            <Inspections
              projectId={projectId}
              subject={{ poiId: selected.poi_id }}
              canEdit={canEdit}
            />
          )}
        </section>
      )}

      <Dialog
        isOpen={shown !== null}
        onOpenChange={(isOpen) => !isOpen && setShown(null)}
        title={<Trans>Device tokens</Trans>}
        description={
          <Trans>
            Copy each token now: it is shown only this once. Devices send data to
            /api/v1/TOKEN/telemetry.
          </Trans>
        }
        footer={
          <Button onClick={() => setShown(null)}>
            <Trans>Done</Trans>
          </Button>
        }
      >
        <ul className="ts-plain-list ts-iot-tokens" data-testid="iot-tokens">
          {shown?.list.map((entry) => (
            <li key={entry.token}>
              <span>
                {entry.name} ({entry.devicecode})
              </span>
              <input
                readOnly
                value={entry.token}
                aria-label={t`Token of ${entry.name}`}
                onFocus={(event) => event.currentTarget.select()}
              />
              <Button
                variant="ghost"
                onClick={() =>
                  void navigator.clipboard
                    ?.writeText(entry.token)
                    .then(() => toast.success(t`Copied.`))
                    .catch(() => undefined)
                }
              >
                <Trans>Copy</Trans>
              </Button>
            </li>
          ))}
        </ul>
      </Dialog>
    </section>
  )
}
