import { Trans } from '@lingui/react/macro'
import { type FormEvent, type ReactNode, useRef, useState } from 'react'
import { Button } from './Button'
import { Dialog } from './Dialog'
import './FormWrapper.css'

/** Props of {@link FormWrapper}. */
export interface FormWrapperProps {
  /** A heading above the fields; leave out inside a {@link FormDialog}, whose title is used. */
  title?: ReactNode
  /** The form's name for assistive technology, when no visible title names it. */
  label?: string
  children: ReactNode
  /** Runs on the submit button and on Enter in a field. Further submits wait until it settles. */
  onSubmit: () => void | Promise<void>
  /** Shows a Cancel button that calls this. */
  onCancel?: () => void
  /** Defaults to "Submit". Pages pass "Save" or "Modify" to follow the create/edit mode. */
  submitLabel?: ReactNode
  /** Defaults to "Cancel". */
  cancelLabel?: ReactNode
  /** Work the page runs outside `onSubmit` (e.g. loading the record) also blocks submitting. */
  isBusy?: boolean
  /** Blocks submitting, e.g. while required fields are empty. */
  isSubmitDisabled?: boolean
}

/**
 * The generic form frame of SPEC §2: title, fields, Submit and Cancel. Submitting is refused
 * while a previous submit is still running, so a double click or a held Enter sends one request.
 * The browser's own validation bubbles are off: pages validate and pass `error` to the fields,
 * so every message is translated and styled alike. `onSubmit` should catch its own failures
 * (e.g. show them with `toast.error`); the form only waits for it to settle.
 */
export function FormWrapper({
  title,
  label,
  children,
  onSubmit,
  onCancel,
  submitLabel,
  cancelLabel,
  isBusy = false,
  isSubmitDisabled = false,
}: FormWrapperProps) {
  const [isSubmitting, setIsSubmitting] = useState(false)
  // State updates land after the event, so a second submit in the same tick would still see
  // "not submitting"; the ref closes that window.
  const isSubmittingRef = useRef(false)

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (isSubmittingRef.current || isBusy || isSubmitDisabled) return
    isSubmittingRef.current = true
    setIsSubmitting(true)
    try {
      await onSubmit()
    } finally {
      isSubmittingRef.current = false
      setIsSubmitting(false)
    }
  }

  return (
    <form
      className="ts-form"
      onSubmit={handleSubmit}
      noValidate
      aria-busy={isSubmitting || isBusy}
      aria-label={label}
    >
      {title && <h2 className="ts-form__title">{title}</h2>}
      <div className="ts-form__fields">{children}</div>
      <div className="ts-form__actions">
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            {cancelLabel ?? <Trans>Cancel</Trans>}
          </Button>
        )}
        <Button
          type="submit"
          variant="primary"
          isBusy={isSubmitting || isBusy}
          disabled={isSubmitDisabled}
        >
          {submitLabel ?? <Trans>Submit</Trans>}
        </Button>
      </div>
    </form>
  )
}

/** Props of {@link FormDialog}. */
export interface FormDialogProps extends Omit<FormWrapperProps, 'title' | 'onCancel'> {
  isOpen: boolean
  /** Called with false on Cancel, Escape and the close button. */
  onOpenChange: (isOpen: boolean) => void
  title: ReactNode
  widthPx?: number
}

/** A {@link FormWrapper} in a modal {@link Dialog}; Cancel closes it. */
export function FormDialog({
  isOpen,
  onOpenChange,
  title,
  widthPx,
  ...formProps
}: FormDialogProps) {
  return (
    <Dialog isOpen={isOpen} onOpenChange={onOpenChange} title={title} widthPx={widthPx}>
      <FormWrapper {...formProps} onCancel={() => onOpenChange(false)} />
    </Dialog>
  )
}
