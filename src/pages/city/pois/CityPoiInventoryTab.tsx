import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { useSnapshot } from 'valtio'
import { poiStore, templatePictureUrl } from '../../../state/pois'
import { EmptyState, Spinner, TextField } from '../../../ui'
import './city-pois.css'

/** Items shown at once; a search narrows 100,000 POIs down. */
const shownAtMost = 200

/**
 * "POI inventory" (SPEC §2 city POI tabs): the project's POIs with their picture, name and
 * device code; search by name or device code; a click selects the POI and flies to it.
 */
export function CityPoiInventoryTab() {
  const { t } = useLingui()
  const { status, selectedIds } = useSnapshot(poiStore.state)
  useSnapshot(poiStore.state).revision
  const [keyword, setKeyword] = useState('')
  const needle = keyword.trim().toLowerCase()
  const matching = poiStore
    .entries()
    .filter(
      (entry) =>
        !needle ||
        entry.name.toLowerCase().includes(needle) ||
        entry.devicecode.toLowerCase().includes(needle),
    )
  const shown = matching.slice(0, shownAtMost)

  if (status === 'loading') return <Spinner label={t`Loading…`} />
  return (
    <div className="ts-city-tab" data-testid="city-poi-inventory">
      <TextField
        label={t`Search by name or device code`}
        value={keyword}
        onChange={(event) => setKeyword(event.target.value)}
      />
      {shown.length === 0 ? (
        <EmptyState title={<Trans>No POIs</Trans>} />
      ) : (
        <ul className="ts-city-pois__list" aria-label={t`POI inventory`}>
          {shown.map((entry) => {
            const template = poiStore.template(entry.templateId)
            const picture = template ? templatePictureUrl(template) : ''
            return (
              <li key={entry.id}>
                <button
                  type="button"
                  className="ts-city-pois__item"
                  aria-current={selectedIds.includes(entry.id)}
                  onClick={() => {
                    poiStore.select([entry.id])
                    poiStore.flyTo(entry.id)
                  }}
                >
                  {picture && <img src={picture} alt="" width={20} height={20} />}
                  <span>{entry.name}</span>
                  {entry.devicecode && (
                    <span className="ts-city-pois__template-kind">{entry.devicecode}</span>
                  )}
                </button>
              </li>
            )
          })}
        </ul>
      )}
      {matching.length > shown.length && (
        <p className="ts-city-tab__hint">
          <Trans>
            {shown.length} of {matching.length} shown: search to narrow the list.
          </Trans>
        </p>
      )}
    </div>
  )
}
