import { Trans, useLingui } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import { useEngine } from '../../../engine-bridge'
import { Button, EmptyState, toast } from '../../../ui'
import { useCanEditCityProject } from '../city-context'
import { useCityServices } from '../city-services'
import { ReadOnlyHint } from '../ReadOnlyHint'
import { drawStore } from './draw-store'
import { isAreaType } from './draw-texts'
import { trackingStore } from './tracking-store'
import '../../../components/region-list/region-list.css'
import './draw.css'

/**
 * The electronic fence tab (SPEC §2, issue 18): each saved circle or polygon of area division
 * can be made a fence; positioned objects that cross a fence's edge raise enter and leave
 * events, listed here newest first as they arrive (the location tabs poll every 2 s).
 */
export function FenceTab() {
  const { t, i18n } = useLingui()
  const engine = useEngine()
  const services = useCityServices()
  const canEdit = useCanEditCityProject()
  const { drawings } = useSnapshot(drawStore)
  const { fenceIds, events, objects } = useSnapshot(trackingStore)
  const areas = drawings.filter((drawing) => drawing.kind === 'area' && isAreaType(drawing.type))
  const nameOf = (list: readonly { id: string; name: string }[], id: string) =>
    list.find((item) => item.id === id)?.name ?? '—'
  const time = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'short', timeStyle: 'medium' })

  return (
    <div className="ts-city-tab ts-draw" data-testid="city-fence-tab">
      <ReadOnlyHint />
      <p className="ts-city-tab__hint">
        <Trans>
          Make a circle or polygon of the area division a fence: objects entering or leaving it
          raise events.
        </Trans>
      </p>
      <h3 className="ts-city-tab__heading">
        <Trans>Areas</Trans>
      </h3>
      {areas.length === 0 ? (
        <EmptyState title={<Trans>Draw a circle or polygon in area division first.</Trans>} />
      ) : (
        <ul className="ts-region__list" data-testid="fence-list">
          {areas.map((area) => {
            const isFence = fenceIds.includes(area.id)
            return (
              <li key={area.id} className="ts-region__item" data-testid="fence-item">
                <div className="ts-region__item-text">
                  <span className="ts-region__item-name">{area.name}</span>
                  <span className="ts-region__item-measure">
                    {isFence ? <Trans>Fence</Trans> : <Trans>Not a fence</Trans>}
                  </span>
                </div>
                <div className="ts-region__item-actions">
                  <Button
                    aria-label={t`Fly to ${area.name}`}
                    onClick={() => engine.run('draw.flyToShape', { id: area.id }).catch(() => {})}
                  >
                    <Trans>Fly to</Trans>
                  </Button>
                  {canEdit && (
                    <Button
                      aria-pressed={isFence}
                      aria-label={t`Fence: ${area.name}`}
                      variant={isFence ? 'primary' : 'secondary'}
                      onClick={async () => {
                        try {
                          await services.setFence(area.id, !isFence)
                          trackingStore.fenceIds = isFence
                            ? trackingStore.fenceIds.filter((id) => id !== area.id)
                            : [...trackingStore.fenceIds, area.id]
                        } catch {
                          toast.error(t`The fence could not be changed.`)
                        }
                      }}
                    >
                      <Trans>Fence</Trans>
                    </Button>
                  )}
                </div>
              </li>
            )
          })}
        </ul>
      )}
      <h3 className="ts-city-tab__heading">
        <Trans>Fence events</Trans>
      </h3>
      {events.length === 0 ? (
        <EmptyState title={<Trans>No fence events yet</Trans>} />
      ) : (
        <ul className="ts-region__list" data-testid="fence-events" aria-live="polite">
          {events.map((event) => {
            const objectName = nameOf(objects, event.object_id)
            const fenceName = nameOf(drawings, event.fence_id)
            return (
              <li key={event.id} className="ts-region__item" data-testid="fence-event">
                <div className="ts-region__item-text">
                  <span className="ts-region__item-name">
                    {event.kind === 'enter' ? (
                      <Trans>
                        {objectName} entered {fenceName}
                      </Trans>
                    ) : (
                      <Trans>
                        {objectName} left {fenceName}
                      </Trans>
                    )}
                  </span>
                  <span className="ts-region__item-measure">{time.format(new Date(event.at))}</span>
                </div>
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}
