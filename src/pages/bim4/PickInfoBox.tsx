import { Trans, useLingui } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import { sceneStore } from '../../engine-bridge'
import { buildingSession } from './building-session'

const formatMeters = (value: number) => value.toFixed(2)

/**
 * The small box that says what the last inspecting click hit: model, floor, mesh and point in
 * scene metres. Dismissible; hidden while nothing was picked.
 */
export function PickInfoBox() {
  const { t } = useLingui()
  const session = useSnapshot(buildingSession)
  const scene = useSnapshot(sceneStore)
  const pick = session.inspectedPick
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
            buildingSession.inspectedPick = null
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
    </aside>
  )
}
