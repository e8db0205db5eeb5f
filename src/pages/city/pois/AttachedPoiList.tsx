import { Trans, useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import type { ModelPoiItem } from '../../../api/pois'
import { libraryNameText } from '../../../i18n/library-names'
import type { PoiStore } from '../../../state/pois'
import { Spinner } from '../../../ui'

/** Props of {@link AttachedPoiList}. */
export interface AttachedPoiListProps {
  items: readonly ModelPoiItem[] | null
  emptyText: ReactNode
  testId: string
  onChoose: (item: ModelPoiItem) => void
  action?: (item: ModelPoiItem) => ReactNode
}

/**
 * The boxed "POIs of <model>" section of the monomer POI tab and the model-POI page: the list,
 * then the page's own actions (`children`).
 */
export function AttachedPoiSection({
  modelname,
  pois,
  children,
  ...list
}: Omit<AttachedPoiListProps, 'onChoose'> & {
  modelname: string
  /** Pressing a POI selects it here and flies to it. */
  pois: Pick<PoiStore, 'select' | 'flyTo'>
  children?: ReactNode
}) {
  const { t } = useLingui()
  return (
    <section className="ts-boxed" aria-label={t`POIs of ${modelname}`}>
      <h3 className="ts-city-details__title">
        <Trans>POIs of {modelname}</Trans>
      </h3>
      <AttachedPoiList
        {...list}
        onChoose={(item) => {
          pois.select([item.id])
          pois.flyTo(item.id)
        }}
      />
      {children}
    </section>
  )
}

/**
 * The POIs attached to one model (the monomer POI tab and the model-POI page): each shows its
 * icon, name and template (SPEC §2 "Model-POI items"); pressing one chooses it. `null` items are
 * still loading; `action` adds a control after an item (the model-POI page's remove button).
 */
export function AttachedPoiList({
  items,
  emptyText,
  testId,
  onChoose,
  action,
}: AttachedPoiListProps) {
  const { t } = useLingui()
  if (items === null) return <Spinner label={t`Loading…`} />
  if (items.length === 0) return <p className="ts-city-tab__hint">{emptyText}</p>
  return (
    <ul className="ts-city-pois__list" data-testid={testId}>
      {items.map((item) => (
        <li key={item.id} className="ts-city-pois__attached">
          <button
            type="button"
            className="ts-city-pois__item"
            aria-label={t`Fly to ${item.name}`}
            onClick={() => onChoose(item)}
          >
            {item.icon_path ? (
              <img src={item.icon_path} alt="" width={20} height={20} />
            ) : (
              <span aria-hidden="true" className="ts-city-pois__no-icon" />
            )}
            <span className="ts-city-pois__name">{item.name}</span>
            <span className="ts-city-pois__template-kind">
              {libraryNameText(item.template_name, item.template_name_key)}
            </span>
          </button>
          {action?.(item)}
        </li>
      ))}
    </ul>
  )
}
