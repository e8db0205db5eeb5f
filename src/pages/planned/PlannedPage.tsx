import { Trans, useLingui } from '@lingui/react/macro'
import { type AppRouteId, appRoutes } from '../../app/route-table'
import { plannedPageDescriptions } from './planned-descriptions'
import './planned.css'

/** A page whose content another part of the product provides; says what will be here. */
export function PlannedPage({ routeId }: { routeId: AppRouteId }) {
  const { i18n } = useLingui()
  const route = appRoutes.find((candidate) => candidate.id === routeId)
  const description = plannedPageDescriptions[routeId]
  return (
    <section className="ts-planned-page" data-testid={`page-${routeId}`}>
      {route && <h1 className="ts-page-title">{i18n._(route.title)}</h1>}
      <p className="ts-planned-page__description">
        {description ? i18n._(description) : <Trans>This page is being prepared.</Trans>}
      </p>
    </section>
  )
}
