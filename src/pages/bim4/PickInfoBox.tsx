import { Trans, useLingui } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import { useProjectPermissions } from '../../components/project/project-permissions'
import { sceneStore, useEngine } from '../../engine-bridge'
import { buildingSession } from './building-session'
import { ModelDetailsSection } from './model-details/ModelDetailsSection'

const formatMeters = (value: number) => value.toFixed(2)

/**
 * The small box that says what the last click hit: model, floor, mesh and point in scene
 * metres, and for those who may change the project the model's details (manufacturer, product,
 * serial, install date). It shows the engine's pick (the one the marker marks) and closing it
 * clears that pick in the engine, so box and marker always agree. Hidden while nothing is picked.
 */
export function PickInfoBox() {
  const { t } = useLingui()
  const engine = useEngine()
  const scene = useSnapshot(sceneStore)
  const { project } = useSnapshot(buildingSession)
  const { canEdit } = useProjectPermissions(project)
  const pick = scene.building.lastPick
  if (!pick) return null
  const model = scene.building.models.find((candidate) => candidate.id === pick.modelId)
  const floor = scene.building.floors.find((candidate) => candidate.id === pick.floorId)
  const modelName = model?.name ?? pick.modelId
  const floorName = floor?.name ?? '—'
  const [x, y, z] = pick.point.map(formatMeters)
  return (
    <aside className="ts-bim4-pick" aria-label={t`Picked surface`} data-testid="pick-info">
      <header className="ts-bim4-pick__header">
        <strong>
          <Trans>Picked</Trans>
        </strong>
        <button
          type="button"
          className="ts-bim4-pick__close"
          aria-label={t`Close`}
          onClick={() => {
            // a failure is in snapshot.lastError, which the status bar shows
            void engine.run('building.clearPick').catch(() => undefined)
          }}
        >
          ×
        </button>
      </header>
      <dl className="ts-bim4-pick__list">
        <dt>
          <Trans>Model</Trans>
        </dt>
        <dd data-testid="pick-model">{modelName}</dd>
        <dt>
          <Trans>Floor</Trans>
        </dt>
        <dd data-testid="pick-floor">{floorName}</dd>
        <dt>
          <Trans>Mesh</Trans>
        </dt>
        <dd data-testid="pick-mesh">{pick.meshName || '—'}</dd>
        <dt>
          <Trans>Point</Trans>
        </dt>
        <dd data-testid="pick-point">
          {x}, {y}, {z}
        </dd>
      </dl>
      {canEdit && model && <ModelDetailsSection modelId={model.id} modelName={modelName} />}
    </aside>
  )
}
