import '../region-list/region-list.css'
import { Trans, useLingui } from '@lingui/react/macro'
import type { LocationAnchor } from '../../api/location'
import { Button } from '../../ui'
import type { AnchorFit } from '../../../workers/geodesy/anchor-solver'

/** Props of {@link AnchorList}. */
export interface AnchorListProps {
  anchors: readonly LocationAnchor[]
  /** The solved fit, when there is one: each anchor then shows its residual. */
  fit: AnchorFit | null
  /** Deletes an anchor; without it (a reader) no delete buttons show. */
  onDelete?: (anchor: LocationAnchor) => void
  isBusy?: boolean
}

/**
 * The region list's anchor items (SPEC §2 "Region list items of kinds … anchor"): each anchor's
 * model point, its longitude and latitude, and how far the fit misses it, in metres.
 */
export function AnchorList({ anchors, fit, onDelete, isBusy = false }: AnchorListProps) {
  const { t, i18n } = useLingui()
  const number = new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 3 })
  if (anchors.length === 0) return null
  return (
    <ul className="ts-region__list" data-testid="anchor-list">
      {anchors.map((anchor, index) => (
        <li key={anchor.id} className="ts-region__item" data-testid="anchor-item">
          <div className="ts-region__item-text">
            <span className="ts-region__item-name">{anchor.name}</span>
            <span className="ts-region__item-measure">
              ({number.format(anchor.x)}, {number.format(anchor.y)}
              {anchor.z !== 0 && `, ${number.format(anchor.z)}`}) → {anchor.lng.toFixed(6)},{' '}
              {anchor.lat.toFixed(6)}
              {fit && (
                <span data-testid="anchor-residual">
                  {' · '}
                  <Trans>residual {number.format(fit.residualsMeters[index] ?? 0)} m</Trans>
                </span>
              )}
            </span>
          </div>
          {onDelete && (
            <div className="ts-region__item-actions">
              <Button
                variant="danger"
                disabled={isBusy}
                aria-label={t`Delete ${anchor.name}`}
                onClick={() => onDelete(anchor)}
              >
                <Trans>Delete</Trans>
              </Button>
            </div>
          )}
        </li>
      ))}
    </ul>
  )
}
