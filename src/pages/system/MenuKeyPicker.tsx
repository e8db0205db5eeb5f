import { Trans, useLingui } from '@lingui/react/macro'
import { leftMenuGroups, leftMenuItemKeys } from '../../components/shell/left-menu'

/** Props of {@link MenuKeyPicker}. */
export interface MenuKeyPickerProps {
  /** The chosen keys; keys the console does not know are kept as they are. */
  value: readonly string[]
  onValueChange: (keys: string[]) => void
  disabled?: boolean
}

/**
 * The left-menu items a role's holders see, as checkboxes under the menu's own group names
 * (keys from src/components/shell/left-menu.ts). A group's own checkbox ticks or clears it whole.
 */
export function MenuKeyPicker({ value, onValueChange, disabled }: MenuKeyPickerProps) {
  const { i18n } = useLingui()
  const chosen = new Set(value)
  // Keys this console does not show (another version's) stay in the list, in their place.
  const unknownKeys = value.filter((key) => !leftMenuItemKeys.includes(key))

  function setKeys(keys: readonly string[], isOn: boolean) {
    const next = new Set(chosen)
    for (const key of keys) {
      if (isOn) next.add(key)
      else next.delete(key)
    }
    onValueChange([...leftMenuItemKeys.filter((key) => next.has(key)), ...unknownKeys])
  }

  return (
    <fieldset className="ts-menu-keys" disabled={disabled}>
      <legend className="ts-field__label">
        <Trans>Menu items this role sees</Trans>
      </legend>
      {leftMenuGroups.map((group) => {
        const groupKeys = group.items.map((item) => item.key)
        const chosenCount = groupKeys.filter((key) => chosen.has(key)).length
        const groupLabel = i18n._(group.label)
        return (
          <div key={group.key} className="ts-menu-keys__group">
            <label className="ts-menu-keys__group-label">
              <input
                type="checkbox"
                checked={chosenCount === groupKeys.length}
                ref={(input) => {
                  // A partly chosen group shows the mixed state, which has no HTML attribute.
                  if (input) input.indeterminate = chosenCount > 0 && chosenCount < groupKeys.length
                }}
                onChange={(event) => setKeys(groupKeys, event.target.checked)}
              />
              <span>{groupLabel}</span>
            </label>
            <ul className="ts-menu-keys__items">
              {group.items.map((item) => (
                <li key={item.key}>
                  <label>
                    <input
                      type="checkbox"
                      checked={chosen.has(item.key)}
                      onChange={(event) => setKeys([item.key], event.target.checked)}
                    />
                    <span>{i18n._(item.label)}</span>
                  </label>
                </li>
              ))}
            </ul>
          </div>
        )
      })}
    </fieldset>
  )
}
