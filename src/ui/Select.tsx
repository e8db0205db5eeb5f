import { Select as RadixSelect } from 'radix-ui'
import type { ReactNode } from 'react'
import { useId } from 'react'
import './Select.css'

/** One choice of a {@link Select}. Radix reserves the empty string, so `value` must be non-empty. */
export interface SelectOption<Value extends string = string> {
  value: Value
  label: ReactNode
  isDisabled?: boolean
}

/** Props of {@link Select}. */
export interface SelectProps<Value extends string = string> {
  label: ReactNode
  options: readonly SelectOption<Value>[]
  /**
   * The chosen value; undefined or null means nothing is chosen and shows the placeholder.
   * Leave the prop out entirely for an uncontrolled select that starts at `defaultValue`.
   */
  value?: Value | null
  defaultValue?: Value
  onValueChange?: (value: Value) => void
  /** Shown while nothing is chosen. */
  placeholder?: ReactNode
  error?: ReactNode
  required?: boolean
  disabled?: boolean
  /** Form field name: radix renders a hidden native select so forms submit the value. */
  name?: string
}

/** A labelled drop-down list (radix Select: typeahead, arrow keys, Escape to close). */
export function Select<Value extends string = string>(props: SelectProps<Value>) {
  const {
    label,
    options,
    value,
    defaultValue,
    onValueChange,
    placeholder,
    error,
    required,
    disabled,
    name,
  } = props
  // Passing `value` at all, even undefined, makes the select controlled, so a page can write
  // `value={form.sex || undefined}` without radix switching between controlled and not.
  const isControlled = 'value' in props
  const triggerId = useId()
  const messageId = `${triggerId}-message`
  const hasError = Boolean(error)
  return (
    <div className={['ts-field', hasError && 'ts-field--invalid'].filter(Boolean).join(' ')}>
      <label className="ts-field__label" htmlFor={triggerId}>
        {label}
        {required && (
          <span className="ts-field__required" aria-hidden="true">
            *
          </span>
        )}
      </label>
      <RadixSelect.Root
        // Radix takes the empty string as "controlled, nothing chosen".
        value={isControlled ? (value ?? '') : undefined}
        defaultValue={defaultValue}
        onValueChange={(next) => onValueChange?.(next as Value)}
        required={required}
        disabled={disabled}
        name={name}
      >
        <RadixSelect.Trigger
          id={triggerId}
          className="ts-select__trigger"
          aria-invalid={hasError || undefined}
          aria-describedby={hasError ? messageId : undefined}
        >
          <RadixSelect.Value placeholder={placeholder} />
          <RadixSelect.Icon className="ts-select__icon">
            <svg viewBox="0 0 12 12" aria-hidden="true">
              <path d="M2.5 4.5L6 8l3.5-3.5" />
            </svg>
          </RadixSelect.Icon>
        </RadixSelect.Trigger>
        <RadixSelect.Portal>
          <RadixSelect.Content className="ts-select__content" position="popper" sideOffset={4}>
            <RadixSelect.Viewport className="ts-select__viewport">
              {options.map((option) => (
                <RadixSelect.Item
                  key={option.value}
                  value={option.value}
                  disabled={option.isDisabled}
                  className="ts-select__item"
                >
                  <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
                </RadixSelect.Item>
              ))}
            </RadixSelect.Viewport>
          </RadixSelect.Content>
        </RadixSelect.Portal>
      </RadixSelect.Root>
      {hasError && (
        <p id={messageId} className="ts-field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
