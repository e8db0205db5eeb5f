import { useLingui } from '@lingui/react/macro'
import { type ReactNode, useId } from 'react'
import { Slider } from '../Slider'
import {
  alphaFromOpacityPercent,
  defaultRgba,
  defaultRgbaColor,
  formatRgba,
  hexFromRgba,
  opacityPercentFromAlpha,
  parseRgba,
  type Rgba,
} from './rgba'
import './ColorPicker.css'

/** Props of {@link ColorPicker}. */
export interface ColorPickerProps {
  label: ReactNode
  /** An rgba string such as `rgba(255,255,255,0.5)`; unreadable text shows the default colour. */
  value?: string
  /** Called with a normalised `rgba(r,g,b,a)` string. */
  onChange: (rgba: string) => void
  disabled?: boolean
}

/**
 * A colour with opacity: the system colour chooser picks red/green/blue and a 0–100 slider the
 * opacity, reported as alpha 0–1 with two decimals (SPEC §5).
 */
export function ColorPicker({ label, value, onChange, disabled }: ColorPickerProps) {
  const { t } = useLingui()
  const colorInputId = useId()
  const color: Rgba = parseRgba(value ?? defaultRgbaColor) ?? defaultRgba
  const rgba = formatRgba(color)

  function changeRgb(hex: string) {
    const picked = parseRgba(hex)
    if (picked) onChange(formatRgba({ ...picked, alpha: color.alpha }))
  }

  return (
    <fieldset className="ts-color" disabled={disabled}>
      <legend className="ts-field__label">{label}</legend>
      <div className="ts-color__row">
        <span className="ts-color__swatch" aria-hidden="true">
          <span style={{ background: rgba }} />
        </span>
        <label className="ts-visually-hidden" htmlFor={colorInputId}>
          {t`Colour`}
        </label>
        <input
          id={colorInputId}
          type="color"
          className="ts-color__input"
          value={hexFromRgba(color)}
          onChange={(event) => changeRgb(event.target.value)}
        />
        <code className="ts-color__text">{rgba}</code>
      </div>
      <Slider
        label={t`Opacity`}
        min={0}
        max={100}
        step={1}
        value={opacityPercentFromAlpha(color.alpha)}
        formatValue={(percent) => `${percent}%`}
        disabled={disabled}
        onChange={(percent) =>
          onChange(formatRgba({ ...color, alpha: alphaFromOpacityPercent(percent) }))
        }
      />
    </fieldset>
  )
}
