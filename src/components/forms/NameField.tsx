import { Trans } from '@lingui/react/macro'
import { TextField } from '../../ui'

/** Longest name the server takes for a drawing, a positioned object and the like. */
export const nameMaxLength = 100

/**
 * The required "Name" field that starts the forms of the things a user names (a drawing, a
 * positioned object): one label, one length limit.
 */
export function NameField({
  value,
  onValueChange,
}: {
  value: string
  onValueChange: (value: string) => void
}) {
  return (
    <TextField
      label={<Trans>Name</Trans>}
      value={value}
      maxLength={nameMaxLength}
      required
      onChange={(event) => onValueChange(event.target.value)}
    />
  )
}
