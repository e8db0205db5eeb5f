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

/** The setting's fields holding a value of type T. */
type FieldOf<T> = {
  [K in keyof StyleSetting]: StyleSetting[K] extends T ? K : never
}[keyof StyleSetting]

/** Props of the one-field rows below: which field, under which label. */
interface SettingFieldProps<T> {
  editing: StyleEditing
  field: FieldOf<T>
  label: string
  disabled?: boolean
}

/** One colour of the setting (with its opacity). */
function SettingColour({ editing, field, label, disabled }: SettingFieldProps<string>) {
  return (
    <ColorPicker
      label={label}
      value={editing.setting[field] as string}
      disabled={disabled}
      onChange={(value) => editing.change({ [field]: value })}
    />
  )
}

/** One 0–1 amount of the setting (an intensity or density). */
function SettingAmount({ editing, field, label, disabled }: SettingFieldProps<number>) {
  return (
    <NumberBlock
      label={label}
      value={editing.setting[field] as number}
      disabled={disabled}
      onChange={(value) => editing.change({ [field]: value })}
    />
  )
}

/** One number of the setting chosen from the SPEC's list of values. */
function SettingNumberChoice({
  editing,
  field,
  label,
  values,
  suffix,
}: SettingFieldProps<number> & { values: readonly number[]; suffix?: string }) {
  return (
    <Select
      label={label}
      options={numberOptions(values, suffix)}
      value={String(editing.setting[field])}
      disabled={editing.isDisabled}
      onValueChange={(value) => editing.change({ [field]: Number(value) })}
    />
  )
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
export function StyleFogFields({ editing }: { editing: StyleEditing }) {
  const { t } = useLingui()
  const { setting, isDisabled, change } = editing
  const isFogOff = isDisabled || !setting.fog_is_on
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
      <SettingColour
        editing={editing}
        field="fog_color"
        label={t`Fog colour`}
        disabled={isFogOff}
      />
      <SettingAmount
        editing={editing}
        field="fog_density"
        label={t`Fog density`}
        disabled={isFogOff}
      />
    </fieldset>
  )
}

/**
 * How the camera moves: zoom factors and wheel scale, and where the scene uses them the visual
 * distances and mouse speed (the city's base distances are fixed by SPEC §9).
 */
export function StyleCameraFields({
  editing,
  withDistancesAndSpeed,
}: {
  editing: StyleEditing
  withDistancesAndSpeed: boolean
}) {
  const { t } = useLingui()
  const { setting, isDisabled, change } = editing
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
      <SettingNumberChoice
        editing={editing}
        field="min_zoom_factor"
        label={t`Minimum zoom factor`}
        values={minZoomFactorOptions}
        suffix="×"
      />
      <SettingNumberChoice
        editing={editing}
        field="max_zoom_factor"
        label={t`Maximum zoom factor`}
        values={maxZoomFactorOptions}
        suffix="×"
      />
      <SettingNumberChoice
        editing={editing}
        field="wheel_scale"
        label={t`Mouse wheel scale`}
        values={wheelScaleOptions}
      />
    </fieldset>
  )
}

/** Ambient, directional and hemisphere lights: colours with opacity, intensities 0–1. */
export function StyleLightFields({ editing }: { editing: StyleEditing }) {
  const { t } = useLingui()
  return (
    <>
      <fieldset className="ts-bim4-style__group" disabled={editing.isDisabled}>
        <legend>
          <Trans>Ambient light</Trans>
        </legend>
        <SettingColour
          editing={editing}
          field="ambient_light_color"
          label={t`Ambient light colour`}
        />
      </fieldset>
      <fieldset className="ts-bim4-style__group" disabled={editing.isDisabled}>
        <legend>
          <Trans>Directional light</Trans>
        </legend>
        <SettingColour
          editing={editing}
          field="directional_light_color"
          label={t`Directional light colour`}
        />
        <SettingAmount
          editing={editing}
          field="directional_light_intensity"
          label={t`Directional light intensity`}
        />
      </fieldset>
      <fieldset className="ts-bim4-style__group" disabled={editing.isDisabled}>
        <legend>
          <Trans>Hemisphere light</Trans>
        </legend>
        <SettingColour editing={editing} field="hemisphere_sky_color" label={t`Sky colour`} />
        <SettingColour editing={editing} field="hemisphere_ground_color" label={t`Ground colour`} />
        <SettingAmount
          editing={editing}
          field="hemisphere_intensity"
          label={t`Hemisphere light intensity`}
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
      <SettingColour
        editing={editing}
        field="path_color"
        label={t`Path colour`}
        disabled={editing.isDisabled}
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
