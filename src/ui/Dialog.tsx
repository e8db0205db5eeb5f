import { useLingui } from '@lingui/react/macro'
import { Dialog as RadixDialog } from 'radix-ui'
import type { ReactNode } from 'react'
import './Dialog.css'

/** Props of {@link Dialog}. */
export interface DialogProps {
  isOpen: boolean
  /** Called with false on Escape, on the close button and on a click outside. */
  onOpenChange: (isOpen: boolean) => void
  title: ReactNode
  /** A line under the title, also announced as the dialog's description. */
  description?: ReactNode
  children: ReactNode
  /** Buttons at the bottom. */
  footer?: ReactNode
  widthPx?: number
}

/** A modal window (radix Dialog: focus trapped inside, Escape closes, focus returns on close). */
export function Dialog({
  isOpen,
  onOpenChange,
  title,
  description,
  children,
  footer,
  widthPx = 480,
}: DialogProps) {
  const { t } = useLingui()
  return (
    <RadixDialog.Root open={isOpen} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="ts-dialog__overlay" />
        <RadixDialog.Content
          className="ts-dialog"
          style={{ width: widthPx }}
          // Without a description radix warns unless aria-describedby is explicitly empty.
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <header className="ts-dialog__header">
            <RadixDialog.Title className="ts-dialog__title">{title}</RadixDialog.Title>
            <RadixDialog.Close className="ts-dialog__close" aria-label={t`Close`}>
              <svg viewBox="0 0 12 12" aria-hidden="true">
                <path d="M2 2l8 8M10 2l-8 8" />
              </svg>
            </RadixDialog.Close>
          </header>
          {description && (
            <RadixDialog.Description className="ts-dialog__description">
              {description}
            </RadixDialog.Description>
          )}
          <div className="ts-dialog__body">{children}</div>
          {footer && <footer className="ts-dialog__footer">{footer}</footer>}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  )
}
