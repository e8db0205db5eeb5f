import { Trans, useLingui } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import {
  groundStyles,
  maxZoomFactorOptions,
  minZoomFactorOptions,
  type StyleSetting,
  type WeatherStyleValue,
  wheelScaleOptions,
} from '../../../../contract/style'
import { useProjectPermissions } from '../../../components/project/project-permissions'
import { useEngine } from '../../../engine-bridge'
import { ColorPicker, NumberBlock, NumberInput, Select, Spinner } from '../../../ui'
import { buildingSession } from '../building-session'
import { changeStyle, type StyleSessionState, styleSession } from './style-store'
import './style-panels.css'

/** What the field groups edit: the shown setting and a change function. */
export interface StyleEditing {
  setting: StyleSetting
  status: StyleSessionState['status']
  /** Nothing can be changed (a reader, or no engine yet). */
  isDisabled: boolean
  change(patch: Partial<StyleSetting>): void
}

/** The style store's setting and a change function; `canEdit` is the project permission. */
export function useStyleEditing(canEdit: boolean): StyleEditing {
  const engine = useEngine()
  const style = useSnapshot(styleSession)
  const change = (patch: Partial<StyleSetting>) => {
    if (engine) changeStyle(engine, patch)
  }
  return {
    setting: style.shown as StyleSetting,
    status: style.status,
    isDisabled: !canEdit || !engine,
    change,
  }
}

function useBuildingStyleEditing(): StyleEditing {
  const session = useSnapshot(buildingSession)
  return useStyleEditing(useProjectPermissions(session.project).canEdit)
}

/** Options from a list of numbers, labelled as they read. */
function numberOptions(values: readonly number[], suffix = '') {
  return values.map((value) => ({ value: String(value), label: `${value}${suffix}` }))
}

/** Sky and weather, and the ground where the scene has one (the city's ground is its map). */
export function StyleSkyFields({
  editing: { setting, isDisabled, change },
  withGround,
}: {
  editing: StyleEditing
  withGround: boolean
}) {
  const { t } = useLingui()
  const skyOptions = [
    { value: '1', label: t`Sunny sky` },
    { value: '2', label: t`Sky box (sun at 25°)` },
    { value: '3', label: t`Milky way` },
    { value: '4', label: t`Rainy` },
  ]
  const weatherOptions: { value: WeatherStyleValue; label: string }[] = [
    { value: 'sunny', label: t`Sunny` },
    { value: 'rain', label: t`Rain` },
    { value: 'snow', label: t`Snow` },
  ]
  const groundLabels: Record<(typeof groundStyles)[number], string> = {
    none: t`None`,
    grassland: t`Grassland`,
    stoneGravel: t`Stone gravel`,
    ashBlackGravel: t`Ash black gravel`,
  }
  return (
    <>
      <Select
        label={t`Sky`}
        options={skyOptions}
        value={String(setting.air_style)}
        disabled={isDisabled}
        onValueChange={(value) => change({ air_style: Number(value) as 1 | 2 | 3 | 4 })}
      />
      <Select
        label={t`Weather`}
        options={weatherOptions}
        value={setting.weather_style}
        disabled={isDisabled}
        onValueChange={(value) => change({ weather_style: value })}
      />
      {withGround && (
        <Select
          label={t`Ground`}
          options={groundStyles.map((value) => ({ value, label: groundLabels[value] }))}
          value={setting.ground_style}
          disabled={isDisabled}
          onValueChange={(value) => change({ ground_style: value })}
        />
      )}
    </>
  )
}

/** The fog: on or off, its colour and density. */
export function StyleFogFields({
  editing: { setting, isDisabled, change },
}: {
  editing: StyleEditing
}) {
  const { t } = useLingui()
  return (
    <fieldset className="ts-bim4-style__group" disabled={isDisabled}>
      <legend>
        <Trans>Fog</Trans>
      </legend>
      <label className="ts-bim4-style__check">
        <input
          type="checkbox"
          checked={setting.fog_is_on}
          onChange={(event) => change({ fog_is_on: event.target.checked })}
        />
        <Trans>Show fog</Trans>
      </label>
      <ColorPicker
        label={t`Fog colour`}
        value={setting.fog_color}
        disabled={isDisabled || !setting.fog_is_on}
        onChange={(fog_color) => change({ fog_color })}
      />
      <NumberBlock
        label={t`Fog density`}
        value={setting.fog_density}
        disabled={isDisabled || !setting.fog_is_on}
        onChange={(fog_density) => change({ fog_density })}
      />
    </fieldset>
  )
}

/**
 * How the camera moves: zoom factors and wheel scale, and where the scene uses them the visual
 * distances and mouse speed (the city's base distances are fixed by SPEC §9).
 */
export function StyleCameraFields({
  editing: { setting, isDisabled, change },
  withDistancesAndSpeed,
}: {
  editing: StyleEditing
  withDistancesAndSpeed: boolean
}) {
  const { t } = useLingui()
  return (
    <fieldset className="ts-bim4-style__group" disabled={isDisabled}>
      <legend>
        <Trans>Camera</Trans>
      </legend>
      {withDistancesAndSpeed && (
        <>
          <NumberInput
            label={t`Visual distance (minimum)`}
            unit="m"
            min={0.01}
            max={1e9}
            step={1}
            precision={2}
            value={setting.visual_distance_min}
            onChange={(visual_distance_min) => change({ visual_distance_min })}
          />
          <NumberInput
            label={t`Visual distance (maximum)`}
            unit="m"
            min={0.01}
            max={1e9}
            step={100}
            precision={2}
            value={setting.visual_distance_max}
            onChange={(visual_distance_max) => change({ visual_distance_max })}
          />
          <NumberInput
            label={t`Mouse speed`}
            min={0.1}
            max={5}
            step={0.1}
            precision={1}
            value={setting.mouse_speed}
            onChange={(mouse_speed) => change({ mouse_speed })}
          />
        </>
      )}
      <Select
        label={t`Minimum zoom factor`}
        options={numberOptions(minZoomFactorOptions, '×')}
        value={String(setting.min_zoom_factor)}
        disabled={isDisabled}
        onValueChange={(value) => change({ min_zoom_factor: Number(value) })}
      />
      <Select
        label={t`Maximum zoom factor`}
        options={numberOptions(maxZoomFactorOptions, '×')}
        value={String(setting.max_zoom_factor)}
        disabled={isDisabled}
        onValueChange={(value) => change({ max_zoom_factor: Number(value) })}
      />
      <Select
        label={t`Mouse wheel scale`}
        options={numberOptions(wheelScaleOptions)}
        value={String(setting.wheel_scale)}
        disabled={isDisabled}
        onValueChange={(value) => change({ wheel_scale: Number(value) })}
      />
    </fieldset>
  )
}

/** Ambient, directional and hemisphere lights: colours with opacity, intensities 0–1. */
export function StyleLightFields({
  editing: { setting, isDisabled, change },
}: {
  editing: StyleEditing
}) {
  const { t } = useLingui()
  return (
    <>
      <fieldset className="ts-bim4-style__group" disabled={isDisabled}>
        <legend>
          <Trans>Ambient light</Trans>
        </legend>
        <ColorPicker
          label={t`Ambient light colour`}
          value={setting.ambient_light_color}
          onChange={(ambient_light_color) => change({ ambient_light_color })}
        />
      </fieldset>
      <fieldset className="ts-bim4-style__group" disabled={isDisabled}>
        <legend>
          <Trans>Directional light</Trans>
        </legend>
        <ColorPicker
          label={t`Directional light colour`}
          value={setting.directional_light_color}
          onChange={(directional_light_color) => change({ directional_light_color })}
        />
        <NumberBlock
          label={t`Directional light intensity`}
          value={setting.directional_light_intensity}
          onChange={(directional_light_intensity) => change({ directional_light_intensity })}
        />
      </fieldset>
      <fieldset className="ts-bim4-style__group" disabled={isDisabled}>
        <legend>
          <Trans>Hemisphere light</Trans>
        </legend>
        <ColorPicker
          label={t`Sky colour`}
          value={setting.hemisphere_sky_color}
          onChange={(hemisphere_sky_color) => change({ hemisphere_sky_color })}
        />
        <ColorPicker
          label={t`Ground colour`}
          value={setting.hemisphere_ground_color}
          onChange={(hemisphere_ground_color) => change({ hemisphere_ground_color })}
        />
        <NumberBlock
          label={t`Hemisphere light intensity`}
          value={setting.hemisphere_intensity}
          onChange={(hemisphere_intensity) => change({ hemisphere_intensity })}
        />
      </fieldset>
    </>
  )
}

/**
 * `/bim4/style/otherset` (SPEC §2 style setting): sky, weather, ground, fog, how the camera
 * moves and the path colour, saved per project and shown in the scene at once.
 */
export function StyleSettingPanel() {
  const { t } = useLingui()
  const editing = useBuildingStyleEditing()
  if (editing.status === 'loading') return <Spinner label={t`Loading the style`} />
  return (
    <form className="ts-bim4-style" aria-label={t`Style setting`} data-testid="style-setting">
      <StyleSkyFields editing={editing} withGround />
      <StyleFogFields editing={editing} />
      <StyleCameraFields editing={editing} withDistancesAndSpeed />
      <ColorPicker
        label={t`Path colour`}
        value={editing.setting.path_color}
        disabled={editing.isDisabled}
        onChange={(path_color) => editing.change({ path_color })}
      />
    </form>
  )
}

/**
 * `/bim4/style/lightset` (SPEC §2 light setting): ambient, directional and hemisphere lights,
 * colours with opacity (the alpha scales the light) and intensities 0–1.
 */
export function LightSettingPanel() {
  const { t } = useLingui()
  const editing = useBuildingStyleEditing()
  if (editing.status === 'loading') return <Spinner label={t`Loading the style`} />
  return (
    <form className="ts-bim4-style" aria-label={t`Light setting`} data-testid="light-setting">
      <StyleLightFields editing={editing} />
    </form>
  )
}
