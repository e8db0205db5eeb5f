import { Trans } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import { iotStore } from './iot-store'

/** Whether the live stream is open: live, connecting (again), or off. */
export function LiveBadge() {
  const { liveState } = useSnapshot(iotStore)
  return (
    <p className="ts-iot-live" data-state={liveState} role="status" data-testid="iot-live">
      <span className="ts-iot-live__dot" aria-hidden="true" />
      {liveState === 'live' ? (
        <Trans>Live</Trans>
      ) : liveState === 'connecting' ? (
        <Trans>Connecting to live updates…</Trans>
      ) : (
        <Trans>Live updates are off.</Trans>
      )}
    </p>
  )
}
