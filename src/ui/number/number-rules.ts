/**
 * The arithmetic behind the number widgets, kept pure so the rules of SPEC §5 are testable on
 * their own: typed values are rounded to the precision and clamped, arrow keys step.
 */

/** SPEC §5 "Number block": precision 2, step 0.01, range 0..1. */
export const numberBlockDefaults = { precision: 2, step: 0.01, min: 0, max: 1 } as const

/** SPEC §5 "Number input": clamped to 0..1000. */
export const numberInputDefaults = { step: 1, min: 0, max: 1000 } as const

/** Keeps `value` inside [min, max]. */
export function clampNumber(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value))
}

/**
 * Rounds half away from zero to `precision` decimals. Goes through the decimal string so
 * 1.005 rounds to 1.01 as a user expects, not to 1.00 as `Math.round(1.005 * 100)` gives.
 */
export function roundToPrecision(value: number, precision: number): number {
  if (!Number.isFinite(value)) return value
  const sign = value < 0 ? -1 : 1
  const shifted = Number(`${Math.abs(value)}e${precision}`)
  const rounded = Number(`${Math.round(shifted)}e-${precision}`)
  return sign * rounded || 0
}

/** How many decimals a step has (0.01 → 2), so stepping does not leave 0.30000000000000004. */
export function decimalsOf(value: number): number {
  const text = String(value)
  const exponent = /e-(\d+)$/.exec(text)
  if (exponent) return Number(exponent[1])
  const dot = text.indexOf('.')
  return dot === -1 ? 0 : text.length - dot - 1
}

/** Reads what a user typed; accepts a comma as the decimal mark. Null when it is not a number. */
export function parseNumberText(text: string): number | null {
  const trimmed = text.trim().replace(',', '.')
  if (trimmed === '' || trimmed === '-' || trimmed === '.') return null
  const value = Number(trimmed)
  return Number.isFinite(value) ? value : null
}

/** The limits and rounding of one number widget. */
export interface NumberRules {
  min: number
  max: number
  step: number
  /** Decimals kept; undefined keeps what the user typed (only stepping is rounded). */
  precision?: number
}

/** Normalises a typed or stepped value: rounded to the precision, then clamped. */
export function normaliseNumber(value: number, rules: NumberRules): number {
  const rounded = rules.precision === undefined ? value : roundToPrecision(value, rules.precision)
  return clampNumber(rounded, rules.min, rules.max)
}

/** The value after `stepCount` steps (negative steps down), rounded and clamped. */
export function stepNumber(value: number, stepCount: number, rules: NumberRules): number {
  const decimals = Math.max(decimalsOf(rules.step), rules.precision ?? 0)
  const stepped = roundToPrecision(value + stepCount * rules.step, decimals)
  return normaliseNumber(stepped, rules)
}

/** Shows a value with exactly `precision` decimals when one is set (0.5 → "0.50"). */
export function formatNumber(value: number, precision?: number): string {
  return precision === undefined ? String(value) : value.toFixed(precision)
}

/** A stepped range whose grid of allowed values is counted from `origin`. */
export interface StepGrid {
  min: number
  max: number
  step: number
  /** The grid runs through this value (e.g. 0, so "no offset" stays reachable). */
  origin: number
}

/**
 * The nearest allowed value: on the grid `origin + k·step`, or exactly min/max at the ends
 * (which may lie off the grid, as ±500 do for a 15 mm step through 0).
 */
export function snapToStep(value: number, grid: StepGrid): number {
  if (value <= grid.min) return grid.min
  if (value >= grid.max) return grid.max
  const decimals = Math.max(decimalsOf(grid.step), decimalsOf(grid.origin))
  const snapped = grid.origin + Math.round((value - grid.origin) / grid.step) * grid.step
  const onGrid = clampNumber(roundToPrecision(snapped, decimals), grid.min, grid.max)
  // An off-grid end can be nearer than the nearest grid point (498 → 500, not 495).
  return [grid.min, grid.max].reduce(
    (best, end) => (Math.abs(value - end) < Math.abs(value - best) ? end : best),
    onGrid,
  )
}
