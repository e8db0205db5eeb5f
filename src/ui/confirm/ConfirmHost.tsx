import { Trans } from '@lingui/react/macro'
import { AlertDialog } from 'radix-ui'
import { type KeyboardEvent, type ReactNode, useRef } from 'react'
import { Button } from '../Button'
import { useExternalStore } from '../external-store'
import { MessageIcon } from '../MessageIcon'
import type { MessageType } from '../message-type'
import { type ConfirmRequest, confirmStore } from './confirm-store'
import './Confirm.css'

const typeTitles: Record<MessageType, ReactNode> = {
  success: <Trans>Success</Trans>,
  warning: <Trans>Warning</Trans>,
  info: <Trans>Information</Trans>,
  error: <Trans>Error</Trans>,
}

/** Renders the dialogs raised with `confirm()` and `alert()`, one at a time. Mount it once. */
export function ConfirmHost() {
  const queue = useExternalStore(confirmStore)
  const current = queue[0]
  if (!current) return null
  // Keyed by request so each dialog mounts fresh and focus handling starts over.
  return <ConfirmDialog key={current.id} request={current} />
}

function ConfirmDialog({ request }: { request: ConfirmRequest }) {
  const confirmButton = useRef<HTMLButtonElement>(null)
  const isAlert = request.kind === 'alert'

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.nativeEvent.isComposing) return
    if (event.key === 'Escape') {
      // Radix hands Escape only to the newest dismissable layer (onEscapeKeyDown below): a toast
      // or tooltip that appeared after this dialog opened would take it, and the dialog stayed
      // open. Focus is trapped in here, so a key from inside is always meant for this dialog.
      event.preventDefault()
      request.answer(isAlert)
      return
    }
    // Buttons answer Enter with their own click, so only Enter elsewhere means "confirm".
    if (event.key !== 'Enter') return
    if (event.target instanceof HTMLButtonElement) return
    event.preventDefault()
    request.answer(true)
  }

  return (
    <AlertDialog.Root
      open
      onOpenChange={(isOpen) => {
        if (!isOpen) request.answer(isAlert)
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="ts-dialog__overlay" />
        <AlertDialog.Content
          className={`ts-confirm ts-confirm--${request.type}`}
          data-type={request.type}
          onKeyDown={handleKeyDown}
          onOpenAutoFocus={(event) => {
            // Radix focuses Cancel by default; the spec makes Enter confirm, so start on OK.
            event.preventDefault()
            confirmButton.current?.focus()
          }}
          onEscapeKeyDown={(event) => {
            event.preventDefault()
            request.answer(isAlert)
          }}
        >
          <div className="ts-confirm__header">
            <MessageIcon type={request.type} />
            <AlertDialog.Title className="ts-confirm__title">
              {request.title ?? typeTitles[request.type]}
            </AlertDialog.Title>
          </div>
          <AlertDialog.Description className="ts-confirm__message">
            {request.message}
          </AlertDialog.Description>
          <div className="ts-confirm__actions">
            {!isAlert && (
              <Button variant="secondary" onClick={() => request.answer(false)}>
                {request.cancelLabel ?? <Trans>Cancel</Trans>}
              </Button>
            )}
            <Button
              ref={confirmButton}
              variant={request.isDestructive ? 'danger' : 'primary'}
              onClick={() => request.answer(true)}
            >
              {request.confirmLabel ?? <Trans>OK</Trans>}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  )
}
