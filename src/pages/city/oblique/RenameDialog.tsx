import { Trans, useLingui } from '@lingui/react/macro'
import { type ReactNode, useEffect, useState } from 'react'
import { FormDialog, TextField } from '../../../ui'

/** Longest name the server keeps for tilesets and single-building models. */
export const cityItemNameMaxLength = 100

/** Props of {@link RenameDialog}. */
export interface RenameDialogProps {
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  title: ReactNode
  currentName: string
  /** Saves the new name; answers whether it worked (the dialog stays open otherwise). */
  onRename: (name: string) => Promise<boolean>
}

/** Asks for a new name (1–100 characters, trimmed) and saves it. */
export function RenameDialog({
  isOpen,
  onOpenChange,
  title,
  currentName,
  onRename,
}: RenameDialogProps) {
  const { t } = useLingui()
  const [name, setName] = useState(currentName)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (isOpen) {
      setName(currentName)
      setError(null)
    }
  }, [isOpen, currentName])

  return (
    <FormDialog
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title={title}
      submitLabel={<Trans>Save</Trans>}
      onSubmit={async () => {
        const trimmed = name.trim()
        if (trimmed === '') {
          setError(t`Enter a name.`)
          return
        }
        if (await onRename(trimmed)) onOpenChange(false)
      }}
    >
      <TextField
        label={<Trans>Name</Trans>}
        value={name}
        maxLength={cityItemNameMaxLength}
        required
        autoFocus
        error={error ?? undefined}
        onChange={(event) => {
          setName(event.target.value)
          setError(null)
        }}
      />
    </FormDialog>
  )
}
