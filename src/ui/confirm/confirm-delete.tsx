import { Trans } from '@lingui/react/macro'
import { confirm } from './confirm-store'

/**
 * The one question every delete asks (SPEC §5 "Deleting asks for confirmation"): resolves true
 * only when the user confirms. Pass the item's name so they know exactly what goes.
 */
export function confirmDelete(options: { itemName?: string } = {}): Promise<boolean> {
  const { itemName } = options
  return confirm({
    type: 'warning',
    title: <Trans>Delete</Trans>,
    message: itemName ? (
      <Trans>Delete “{itemName}”? This cannot be undone.</Trans>
    ) : (
      <Trans>Delete this item? This cannot be undone.</Trans>
    ),
    confirmLabel: <Trans>Delete</Trans>,
    isDestructive: true,
  })
}
