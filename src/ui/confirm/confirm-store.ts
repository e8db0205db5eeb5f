import type { ReactNode } from 'react'
import { createExternalStore } from '../external-store'
import type { MessageType } from '../message-type'

/** What a confirm or alert dialog shows. */
export interface ConfirmOptions {
  type: MessageType
  /** Defaults to the type's name ("Warning", "Error", …). */
  title?: ReactNode
  message: ReactNode
  /** Defaults to "OK". */
  confirmLabel?: ReactNode
  /** Defaults to "Cancel". */
  cancelLabel?: ReactNode
  /** Draws the confirm button red, for actions that destroy data. */
  isDestructive?: boolean
}

/** A dialog waiting in the queue; the host shows the first one. */
export interface ConfirmRequest extends ConfirmOptions {
  id: number
  /** An alert has only the confirm button and always answers true. */
  kind: 'confirm' | 'alert'
  answer: (isConfirmed: boolean) => void
}

/** The queue the {@link ConfirmHost} renders. Exported for the host and tests only. */
export const confirmStore = createExternalStore<readonly ConfirmRequest[]>([])
let nextRequestId = 1

function enqueue(kind: ConfirmRequest['kind'], options: ConfirmOptions): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const id = nextRequestId++
    const request: ConfirmRequest = {
      ...options,
      id,
      kind,
      answer(isConfirmed) {
        confirmStore.set((queue) => queue.filter((entry) => entry.id !== id))
        resolve(isConfirmed)
      },
    }
    confirmStore.set((queue) => [...queue, request])
  })
}

/**
 * Asks the user a yes/no question in a modal dialog and resolves true when they confirm
 * (button or Enter), false when they cancel (button or Escape). Dialogs raised while one is
 * open wait their turn. Needs a mounted {@link ConfirmHost} (see `UiRoot`).
 */
export function confirm(options: ConfirmOptions): Promise<boolean> {
  return enqueue('confirm', options)
}

/** Tells the user something in a modal dialog with one OK button; resolves when dismissed. */
export async function alert(options: Omit<ConfirmOptions, 'cancelLabel'>): Promise<void> {
  await enqueue('alert', options)
}

/** Cancels every open and queued dialog (each resolves false), e.g. when the session ends. */
export function cancelAllConfirms(): void {
  for (const request of confirmStore.get()) request.answer(false)
}
