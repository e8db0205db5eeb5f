import type { ReactNode } from 'react'
import { createExternalStore } from '../external-store'
import type { MessageType } from '../message-type'

/** A toast waiting to be shown or showing. */
export interface ToastEntry {
  id: number
  type: MessageType
  message: ReactNode
  durationMs: number
}

/** Options of a single toast. */
export interface ToastOptions {
  /** How long it stays; errors default longer because they usually need reading. */
  durationMs?: number
}

/** Errors and warnings stay longer: they carry a server reason the user may need to read. */
export const defaultToastDurationMs: Record<MessageType, number> = {
  success: 3000,
  info: 4000,
  warning: 6000,
  error: 8000,
}

/** At most this many toasts show at once; older ones are dropped first. */
export const maxVisibleToasts = 5

/** The queue the {@link ToastHost} renders. Exported for the host and tests only. */
export const toastStore = createExternalStore<readonly ToastEntry[]>([])
let nextToastId = 1

function show(type: MessageType, message: ReactNode, options: ToastOptions = {}): number {
  const id = nextToastId++
  const entry: ToastEntry = {
    id,
    type,
    message,
    durationMs: options.durationMs ?? defaultToastDurationMs[type],
  }
  toastStore.set((entries) => [...entries, entry].slice(-maxVisibleToasts))
  return id
}

/**
 * Shows a short message in the corner, e.g. `toast.error(answer.message)` for a server error.
 * Needs a mounted {@link ToastHost} (see `UiRoot`). Each call returns the toast's id.
 */
export const toast = {
  success: (message: ReactNode, options?: ToastOptions) => show('success', message, options),
  warning: (message: ReactNode, options?: ToastOptions) => show('warning', message, options),
  info: (message: ReactNode, options?: ToastOptions) => show('info', message, options),
  error: (message: ReactNode, options?: ToastOptions) => show('error', message, options),
  /** Removes one toast before its time runs out. */
  dismiss(id: number) {
    toastStore.set((entries) => entries.filter((entry) => entry.id !== id))
  },
  /** Removes every toast, e.g. on sign-out. */
  dismissAll() {
    toastStore.set(() => [])
  },
}
