import { useCallback, useRef, useState } from 'react'

/**
 * State a parent may own (pass `value`) or leave to the widget (pass only `defaultValue`).
 * Widgets in this kit use it so pages can start uncontrolled and take control later without
 * changing the widget.
 */
export function useControllableState<Value>(options: {
  value: Value | undefined
  defaultValue: Value
  onChange: ((value: Value) => void) | undefined
}): [Value, (next: Value) => void] {
  const { value, defaultValue, onChange } = options
  const [ownValue, setOwnValue] = useState(defaultValue)
  const isControlled = value !== undefined
  const current = isControlled ? value : ownValue
  // Kept in a ref so the setter stays stable while callers pass a fresh arrow every render.
  const onChangeRef = useRef(onChange)
  onChangeRef.current = onChange
  const setValue = useCallback(
    (next: Value) => {
      if (!isControlled) setOwnValue(next)
      onChangeRef.current?.(next)
    },
    [isControlled],
  )
  return [current, setValue]
}
