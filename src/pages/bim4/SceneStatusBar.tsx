import { Trans, useLingui } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import { engineErrorMessage, sceneStore } from '../../engine-bridge'
import { developerSettings } from '../../state/developer-settings'
import { formatFileSize } from '../../ui'
import { overallLoadProgress } from './scene-progress'

/**
 * The strip under the building scene: overall loading progress (bytes of the running jobs and
 * settled models), the engine's last error, and, for developers, the frame and draw statistics.
 */
export function SceneStatusBar() {
  const { t, i18n } = useLingui()
  const scene = useSnapshot(sceneStore)
  // Draw calls, triangles and frame times are for developers (personal page, off by default).
  const { showsMetrics } = useSnapshot(developerSettings)
  const progress = overallLoadProgress(scene)
  const render = scene.building.render
  const lastError = scene.lastError
  const frameWorkMs = scene.frameStats.lastFrameWorkMs.toFixed(1)
  const frameCount = scene.frameStats.frameCount
  const loadedBytes = formatFileSize(progress.doneBytes)
  const totalBytes = formatFileSize(progress.totalBytes)
  const settled = progress.settledModelCount
  const total = progress.modelCount
  const drawCalls = render?.drawCalls ?? 0
  const triangles = render?.triangles ?? 0
  return (
    <section className="ts-bim4-status" aria-label={t`Scene status`}>
      {progress.isLoading ? (
        <span className="ts-bim4-status__item" data-testid="scene-loading" aria-live="polite">
          <progress
            className="ts-bim4-status__progress"
            max={1}
            value={progress.fraction}
            aria-label={t`Scene loading progress`}
          />
          <Trans>
            Loading models {settled}/{total} ({loadedBytes} of {totalBytes})
          </Trans>
        </span>
      ) : (
        <span className="ts-bim4-status__item" data-testid="scene-loaded">
          {total === 0 ? (
            <Trans>No models</Trans>
          ) : (
            <Trans>
              Models loaded {settled}/{total}
            </Trans>
          )}
        </span>
      )}
      {lastError && (
        <span className="ts-bim4-status__item ts-bim4-status__item--error" role="status">
          {lastError.code === 'engine.internal'
            ? lastError.message
            : i18n._(engineErrorMessage(lastError.code))}
        </span>
      )}
      {showsMetrics && (
        <span className="ts-bim4-status__item ts-bim4-status__item--stats">
          {render ? (
            <Trans>
              {drawCalls} draw calls · {triangles} triangles · frame {frameCount} · {frameWorkMs} ms
            </Trans>
          ) : (
            <Trans>
              frame {frameCount} · {frameWorkMs} ms
            </Trans>
          )}
        </span>
      )}
    </section>
  )
}
