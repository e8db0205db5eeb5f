import { Trans, useLingui } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import { reasonText } from '../../components/feedback/error-text'
import { sceneStore, useEngine } from '../../engine-bridge'
import { Button, toast } from '../../ui'
import { useWalkInput } from './use-walk-input'
import './visit.css'

/**
 * The WASD walk visit tool (SPEC §2 "WASD walk preview"): walks through the building at eye
 * height from the last clicked point (or the middle of the view), stopped by walls and following
 * the floor. The engine does the walking (`walk.*` commands); this turns keys and drags into them.
 * `isCompact` (the preview's bar) shows only the button, and the keys while walking.
 */
export function WalkTool({ isCompact = false }: { isCompact?: boolean }) {
  const { t } = useLingui()
  const engine = useEngine()
  const { building } = useSnapshot(sceneStore)
  const { isWalking, isBlocked } = building.walk
  useWalkInput(engine, isWalking)

  async function start() {
    try {
      const at = building.lastPick?.point
      await engine.run('walk.start', at ? { at: [at[0], at[1], at[2]] } : {})
    } catch (error) {
      toast.error(reasonText(error))
    }
  }

  return (
    <section className="ts-visit__walk" aria-label={t`WASD walk`} data-walking={isWalking}>
      {!isCompact && (
        <h3>
          <Trans>WASD walk</Trans>
        </h3>
      )}
      {isWalking ? (
        <>
          <p className="ts-visit__hint">
            <Trans>
              W and S walk forward and back, A and D step aside, drag the scene to look around, Esc
              leaves the walk.
            </Trans>
          </p>
          {isBlocked && (
            <p className="ts-visit__hint" role="status">
              <Trans>A wall is in the way.</Trans>
            </p>
          )}
          <Button variant="secondary" onClick={() => void engine.run('walk.stop')}>
            <Trans>Leave the walk (Esc)</Trans>
          </Button>
        </>
      ) : (
        <>
          {!isCompact && (
            <p className="ts-visit__hint">
              <Trans>
                Walk through the building at eye height. Click a floor in the scene first to start
                there.
              </Trans>
            </p>
          )}
          <Button onClick={() => void start()} disabled={!building.isOpen}>
            <Trans>Start walking</Trans>
          </Button>
        </>
      )}
    </section>
  )
}
