import { Trans } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import { useCanEditCityProject, useCityProjectStore } from './city-context'

/**
 * Says why a city tab shows no tools: the signed-in user may look at the open project but not
 * change it (a seeded project case, someone else's project). Nothing before the project is
 * loaded, when nobody knows yet.
 */
export function ReadOnlyHint() {
  const { project } = useSnapshot(useCityProjectStore())
  const canEdit = useCanEditCityProject()
  if (!project || canEdit) return null
  return (
    <p className="ts-city-tab__hint" role="note" data-testid="city-read-only">
      <Trans>You can view this project but not change it, so its editing tools are hidden.</Trans>
    </p>
  )
}
