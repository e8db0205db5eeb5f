import { Trans, useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import type { TrackedObject } from '../../api/tracking'
import { Button, confirmDelete, EmptyState, toast } from '../../ui'
import { LocationPoiText } from './LocationPoiText'
import '../region-list/region-list.css'

/** A location POI as the lists hold it (the city's comes read-only from its live store). */
type ListedLocationPoi = Omit<TrackedObject, 'inside_fence_ids'> & {
  inside_fence_ids: readonly string[]
}

/**
 * A project's location POIs under their heading, as region list items (the city's GPS
 * positioning tab and the building's location module): each one's lines, what the screen puts
 * before them (the city's trail colour) and its own actions (fly to, track), then Delete after
 * a confirmation for those who may edit. Once the list is read and empty, it says so.
 */
export function LocationPoiList<Listed extends ListedLocationPoi>({
  objects,
  isLoaded,
  headingClassName,
  lead,
  actions,
  onDelete,
}: {
  objects: readonly Listed[]
  isLoaded: boolean
  headingClassName: string
  lead?: (object: Listed) => ReactNode
  actions?: (object: Listed) => ReactNode
  /** Deletes one the user confirmed; left out for those who may not delete. */
  onDelete?: (object: Listed) => Promise<void>
}) {
  const { t } = useLingui()
  return (
    <>
      <h3 className={headingClassName}>
        <Trans>Positioned objects</Trans>
      </h3>
      {isLoaded && objects.length === 0 ? (
        <EmptyState title={<Trans>No positioned objects yet</Trans>} />
      ) : (
        <ul className="ts-region__list" data-testid="tracked-list">
          {objects.map((object) => (
            <li key={object.id} className="ts-region__item" data-testid="tracked-item">
              {lead?.(object)}
              <LocationPoiText object={object} />
              {(actions || onDelete) && (
                <div className="ts-region__item-actions">
                  {actions?.(object)}
                  {onDelete && (
                    <Button
                      variant="danger"
                      aria-label={t`Delete ${object.name}`}
                      onClick={async () => {
                        if (!(await confirmDelete({ itemName: object.name }))) return
                        try {
                          await onDelete(object)
                        } catch {
                          toast.error(t`The object could not be deleted.`)
                        }
                      }}
                    >
                      <Trans>Delete</Trans>
                    </Button>
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  )
}
