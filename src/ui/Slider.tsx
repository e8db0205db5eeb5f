import { useLingui } from '@lingui/react/macro'
import { Slider as RadixSlider } from 'radix-ui'
import { type KeyboardEvent, type ReactNode, useId } from 'react'
import { decimalsOf, type StepGrid, snapToStep } from './number/number-rules'
import './Slider.css'

/** Props of {@link Slider}. */
export interface SliderProps {
  label: ReactNode
  value: number
  /** Called while dragging and on each key press. */
  onChange: (value: number) => void
  /** Called once when a drag ends or per key press, for changes that cost a request. */
  onCommit?: (value: number) => void
  min: number
  max: number
  step: number
  /**
   * Where the grid of steps is counted from; defaults to `min`. Set 0 for ranges such as
   * −500..500 step 15, whose grid from `min` would skip 0.
   */
  stepOrigin?: number
  /** Turns the value into its on-screen and spoken text, e.g. `(v) => \`${v}°\``. */
  formatValue?: (value: number) => string
  disabled?: boolean
  /** Extra content after the value, e.g. a reset button. */
  trailing?: ReactNode
}

/** Page Up/Down move this many steps. */
const largeStepCount = 10

/**
 * A labelled single-thumb slider on radix Slider, with its value written beside it. Keys:
 * arrows step, Page Up/Down step ×10, Home/End jump to the ends. Snapping is done here rather
 * than by radix so the grid can run through `stepOrigin` and still reach both ends.
 */
export function Slider({
  label,
  value,
  onChange,
  onCommit,
  min,
  max,
  step,
  stepOrigin = min,
  formatValue = String,
  disabled,
  trailing,
}: SliderProps) {
  const labelId = useId()
  const text = formatValue(value)
  const grid: StepGrid = { min, max, step, origin: stepOrigin }
  // Radix only tracks the pointer finely; snapToStep puts the value on the grid.
  const pointerStep = 10 ** -decimalsOf(step)

  function handleKeyDown(event: KeyboardEvent<HTMLSpanElement>) {
    const stepCounts: Record<string, number> = {
      ArrowRight: 1,
      ArrowUp: 1,
      ArrowLeft: -1,
      ArrowDown: -1,
      PageUp: largeStepCount,
      PageDown: -largeStepCount,
    }
    const stepCount = stepCounts[event.key]
    let next: number
    if (stepCount !== undefined) next = snapToStep(value + stepCount * step, grid)
    else if (event.key === 'Home') next = min
    else if (event.key === 'End') next = max
    else return
    // Stops radix's own key handling, which would snap from `min`.
    event.preventDefault()
    if (next !== value) onChange(next)
    onCommit?.(next)
  }

  return (
    <div className="ts-slider">
      <div className="ts-slider__header">
        <span id={labelId} className="ts-field__label">
          {label}
        </span>
        <output className="ts-slider__value" aria-hidden="true">
          {text}
        </output>
        {trailing}
      </div>
      <RadixSlider.Root
        className="ts-slider__root"
        value={[value]}
        min={min}
        max={max}
        step={pointerStep}
        disabled={disabled}
        onKeyDown={handleKeyDown}
        onValueChange={([raw]) => {
          if (raw === undefined) return
          const next = snapToStep(raw, grid)
          if (next !== value) onChange(next)
        }}
        onValueCommit={([raw]) => {
          if (raw !== undefined) onCommit?.(snapToStep(raw, grid))
        }}
      >
        <RadixSlider.Track className="ts-slider__track">
          <RadixSlider.Range className="ts-slider__range" />
        </RadixSlider.Track>
        <RadixSlider.Thumb
          className="ts-slider__thumb"
          aria-labelledby={labelId}
          aria-valuetext={text}
        />
      </RadixSlider.Root>
    </div>
  )
}

/** Props of the preset sliders: a {@link Slider} whose range, step and unit are fixed. */
export type PresetSliderProps = Omit<
  SliderProps,
  'min' | 'max' | 'step' | 'stepOrigin' | 'formatValue' | 'label'
> & {
  label?: ReactNode
}

/** SPEC §5 rotation slider: −180° to 180° in 15° steps. */
export const rotationRange = { min: -180, max: 180, step: 15 } as const

/** SPEC §5 POI altitude slider: −500 to 500 mm in 15 mm steps, counted from 0. */
export const altitudeRange = { min: -500, max: 500, step: 15, stepOrigin: 0 } as const

/** Rotation in degrees (heading of a POI or a geometry), −180..180 step 15. */
export function RotationSlider({ label, ...props }: PresetSliderProps) {
  const { t } = useLingui()
  return (
    <Slider
      {...props}
      {...rotationRange}
      label={label ?? t`Rotation`}
      formatValue={(degrees) => `${degrees}°`}
    />
  )
}

/** POI altitude offset in millimetres, −500..500 step 15. */
export function AltitudeSlider({ label, ...props }: PresetSliderProps) {
  const { t } = useLingui()
  return (
    <Slider
      {...props}
      {...altitudeRange}
      label={label ?? t`Altitude`}
      formatValue={(millimetres) => t`${millimetres} mm`}
    />
  )
}
