import { Tabs as RadixTabs } from 'radix-ui'
import type { ReactNode } from 'react'
import { useControllableState } from './use-controllable-state'
import './Tabs.css'

/** One tab of {@link Tabs}. */
export interface TabItem<Value extends string = string> {
  value: Value
  label: ReactNode
  content: ReactNode
  /** A locked tab cannot be chosen (e.g. a template's other tabs before its first save). */
  isDisabled?: boolean
}

/** Props of {@link Tabs}. */
export interface TabsProps<Value extends string = string> {
  /** Names the tab list for screen readers. */
  label: string
  items: readonly TabItem<Value>[]
  value?: Value
  defaultValue?: Value
  onValueChange?: (value: Value) => void
}

/**
 * A tab list with its panels (radix Tabs: arrow keys move between tabs, Home/End jump).
 * Without `value` or `defaultValue` the first enabled tab is shown.
 */
export function Tabs<Value extends string = string>({
  label,
  items,
  value,
  defaultValue,
  onValueChange,
}: TabsProps<Value>) {
  const firstEnabled = items.find((item) => !item.isDisabled)?.value
  const [current, setCurrent] = useControllableState<Value | undefined>({
    value,
    defaultValue: defaultValue ?? firstEnabled,
    onChange: (next) => {
      if (next !== undefined) onValueChange?.(next)
    },
  })
  return (
    <RadixTabs.Root
      className="ts-tabs"
      value={current}
      onValueChange={(next) => setCurrent(next as Value)}
    >
      <RadixTabs.List className="ts-tabs__list" aria-label={label}>
        {items.map((item) => (
          <RadixTabs.Trigger
            key={item.value}
            value={item.value}
            disabled={item.isDisabled}
            className="ts-tabs__trigger"
          >
            {item.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {items.map((item) => (
        <RadixTabs.Content key={item.value} value={item.value} className="ts-tabs__panel">
          {item.content}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  )
}
