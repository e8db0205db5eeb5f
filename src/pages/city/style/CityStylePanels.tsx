import { useLingui } from '@lingui/react/macro'
import { Spinner } from '../../../ui'
import {
  StyleCameraFields,
  type StyleEditing,
  StyleFogFields,
  StyleLightFields,
  StyleSkyFields,
  useStyleEditing,
} from '../../bim4/style/StylePanels'
import '../../bim4/style/style-panels.css'
import { useCanEditCityProject } from '../city-context'

/**
 * The city editor's style tabs (SPEC §2 city sub-tabs "model setting", "personal setting",
 * "other setting"; the basemap tab is its own): the same `/globalsetting` record and store as
 * the building's style pages, drawn on the map at once and saved after a short quiet time.
 */

function useCityStyleEditing(): StyleEditing {
  return useStyleEditing(useCanEditCityProject())
}

function StyleForm({
  label,
  testId,
  render,
}: {
  label: string
  testId: string
  render(editing: StyleEditing): React.ReactNode
}) {
  const { t } = useLingui()
  const editing = useCityStyleEditing()
  if (editing.status === 'loading') return <Spinner label={t`Loading the style`} />
  return (
    <form className="ts-bim4-style" aria-label={label} data-testid={testId}>
      {render(editing)}
    </form>
  )
}

/** `/home/style/model`: the lights the city's models (tiles) are lit with. */
export function CityModelSettingTab() {
  const { t } = useLingui()
  return (
    <StyleForm
      label={t`Model setting`}
      testId="city-style-model"
      render={(editing) => <StyleLightFields editing={editing} />}
    />
  )
}

/** `/home/style/personal`: how the camera zooms (factors of SPEC §9's city distances, wheel). */
export function CityPersonalSettingTab() {
  const { t } = useLingui()
  return (
    <StyleForm
      label={t`Personal setting`}
      testId="city-style-personal"
      render={(editing) => <StyleCameraFields editing={editing} withDistancesAndSpeed={false} />}
    />
  )
}

/** `/home/style/other`: sky, weather and fog over the city. */
export function CityOtherSettingTab() {
  const { t } = useLingui()
  return (
    <StyleForm
      label={t`Other setting`}
      testId="city-style-other"
      render={(editing) => (
        <>
          <StyleSkyFields editing={editing} withGround={false} />
          <StyleFogFields editing={editing} />
        </>
      )}
    />
  )
}
