import type { ReactNode } from 'react'
import { FormDialog, toast } from '../../ui'
import { showErrorToast } from '../feedback/error-text'

/**
 * A form dialog that saves one record, the way every edit dialog of the console does: `save`
 * answers the saved record (or undefined when the form refused its own fields and stays open
 * to show why); a success toast says so and `onSaved` takes the record. A refusal of the server
 * is shown as an error toast in the user's language, and the form stays open with what was typed.
 */
export function SavingFormDialog<Saved>({
  title,
  submitLabel,
  successMessage,
  save,
  onSaved,
  onClose,
  children,
}: {
  title: ReactNode
  submitLabel: ReactNode
  /** Shown once the record is saved (already in the user's language). */
  successMessage: string
  save: () => Promise<Saved | undefined>
  onSaved: (saved: Saved) => void
  /** Cancel, Escape and the close button. */
  onClose: () => void
  children: ReactNode
}) {
  async function submit() {
    try {
      const saved = await save()
      if (saved === undefined) return
      toast.success(successMessage)
      onSaved(saved)
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <FormDialog
      isOpen
      onOpenChange={(isOpen) => !isOpen && onClose()}
      title={title}
      onSubmit={submit}
      submitLabel={submitLabel}
    >
      {children}
    </FormDialog>
  )
}
