import { Trans, useLingui } from '@lingui/react/macro'
import type { TrackedObject } from '../../api/tracking'
import '../region-list/region-list.css'
import './location-pois.css'

/**
 * A location POI's lines in a region list: its name; its category and coding; when it was last
 * seen (or that it has no position yet); and, in a city, whether it is inside a fence.
 */
export function LocationPoiText({
  object,
}: {
  object: Omit<TrackedObject, 'inside_fence_ids'> & { inside_fence_ids: readonly string[] }
}) {
  const { i18n } = useLingui()
  const time = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'short', timeStyle: 'medium' })
  return (
    <div className="ts-region__item-text">
      <span className="ts-region__item-name">{object.name}</span>
      <span className="ts-region__item-measure">
        {[object.category, object.coding].filter(Boolean).join(' · ')}
        {object.last_position ? (
          <>
            {' '}
            <Trans>last seen {time.format(new Date(object.last_position.at))}</Trans>
          </>
        ) : (
          <>
            {' '}
            <Trans>no position yet</Trans>
          </>
        )}
        {object.inside_fence_ids.length > 0 && (
          <strong className="ts-location-poi__inside" data-testid="tracked-inside">
            {' '}
            <Trans>inside a fence</Trans>
          </strong>
        )}
      </span>
    </div>
  )
}
