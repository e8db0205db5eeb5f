import { useLingui } from '@lingui/react/macro'
import { type KeyboardEvent, type ReactNode, useEffect, useId, useState } from 'react'
import {
  formatNumber,
  type NumberRules,
  normaliseNumber,
  numberBlockDefaults,
  numberInputDefaults,
  parseNumberText,
  stepNumber,
} from './number-rules'
import './NumberField.css'

/** Props shared by {@link NumberBlock} and {@link NumberInput}. */
export interface NumberFieldProps {
  label: ReactNode
  value: number
  /** Called with the rounded, clamped value after typing (on blur or Enter) or stepping. */
  onChange: (value: number) => void
  min?: number
  max?: number
  step?: number
  /** Decimals kept. */
  precision?: number
  /** Shown after the value, e.g. "m" or "%". */
  unit?: ReactNode
  disabled?: boolean
  /** Page Up/Down move this many steps. */
  largeStepCount?: number
}

/**
 * A numeric spin button: type a value (applied on blur or Enter), or step with the arrow keys,
 * Page Up/Down and the −/+ buttons. Every value it reports is rounded and clamped.
 */
function NumberField({
  label,
  value,
  onChange,
  min,
  max,
  step,
  precision,
  unit,
  disabled,
  largeStepCount = 10,
  defaults,
}: NumberFieldProps & { defaults: NumberRules }) {
  const { t } = useLingui()
  const inputId = useId()
  const rules: NumberRules = {
    min: min ?? defaults.min,
    max: max ?? defaults.max,
    step: step ?? defaults.step,
    precision: precision ?? defaults.precision,
  }
  const shown = formatNumber(value, rules.precision)
  const [draft, setDraft] = useState(shown)
  // A new value from the parent (or from our own commit) replaces whatever is being typed.
  useEffect(() => setDraft(shown), [shown])

  function commit(next: number) {
    const normalised = normaliseNumber(next, rules)
    setDraft(formatNumber(normalised, rules.precision))
    if (normalised !== value) onChange(normalised)
  }

  function commitDraft() {
    const typed = parseNumberText(draft)
    if (typed === null) setDraft(shown)
    else commit(typed)
  }

  function stepBy(stepCount: number) {
    const base = parseNumberText(draft) ?? value
    commit(stepNumber(base, stepCount, rules))
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const stepCounts: Record<string, number> = {
      ArrowUp: 1,
      ArrowDown: -1,
      PageUp: largeStepCount,
      PageDown: -largeStepCount,
    }
    const stepCount = stepCounts[event.key]
    if (stepCount !== undefined) {
      event.preventDefault()
      stepBy(stepCount)
    } else if (event.key === 'Home') {
      event.preventDefault()
      commit(rules.min)
    } else if (event.key === 'End') {
      event.preventDefault()
      commit(rules.max)
    } else if (event.key === 'Enter') {
      commitDraft()
    }
  }

  return (
    <div className="ts-field ts-number">
      <label className="ts-field__label" htmlFor={inputId}>
        {label}
      </label>
      <div className="ts-number__control">
        <button
          type="button"
          className="ts-number__step"
          aria-label={t`Decrease`}
          tabIndex={-1}
          disabled={disabled || value <= rules.min}
          onClick={() => stepBy(-1)}
        >
          −
        </button>
        <input
          id={inputId}
          className="ts-field__input ts-number__input"
          role="spinbutton"
          inputMode="decimal"
          autoComplete="off"
          aria-valuemin={rules.min}
          aria-valuemax={rules.max}
          aria-valuenow={value}
          disabled={disabled}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onBlur={commitDraft}
          onKeyDown={handleKeyDown}
        />
        <button
          type="button"
          className="ts-number__step"
          aria-label={t`Increase`}
          tabIndex={-1}
          disabled={disabled || value >= rules.max}
          onClick={() => stepBy(1)}
        >
          +
        </button>
        {unit && <span className="ts-number__unit">{unit}</span>}
      </div>
    </div>
  )
}

/** SPEC §5 number block: precision 2, step 0.01, range 0..1 unless overridden. */
export function NumberBlock(props: NumberFieldProps) {
  return <NumberField {...props} defaults={numberBlockDefaults} />
}

/** SPEC §5 number input: clamped to 0..1000 unless overridden, step 1. */
export function NumberInput(props: NumberFieldProps) {
  return <NumberField {...props} defaults={numberInputDefaults} />
}
