import { useLingui } from '@lingui/react/macro'
import { Toast as RadixToast } from 'radix-ui'
import { useExternalStore } from '../external-store'
import { MessageIcon } from '../MessageIcon'
import { type ToastEntry, toast, toastStore } from './toast-store'
import './Toast.css'

/**
 * Renders the toasts raised with `toast.*()`. Mount it once near the root (`UiRoot` does).
 * Errors and warnings are announced assertively, the others politely.
 */
export function ToastHost() {
  const { t } = useLingui()
  const entries = useExternalStore(toastStore)
  return (
    <RadixToast.Provider swipeDirection="right" label={t`Notification`}>
      {entries.map((entry) => (
        <ToastItem key={entry.id} entry={entry} />
      ))}
      <RadixToast.Viewport className="ts-toast-viewport" />
    </RadixToast.Provider>
  )
}

function ToastItem({ entry }: { entry: ToastEntry }) {
  const { t } = useLingui()
  const isUrgent = entry.type === 'error' || entry.type === 'warning'
  return (
    <RadixToast.Root
      className={`ts-toast ts-toast--${entry.type}`}
      data-type={entry.type}
      duration={entry.durationMs}
      type={isUrgent ? 'foreground' : 'background'}
      onOpenChange={(isOpen) => {
        if (!isOpen) toast.dismiss(entry.id)
      }}
    >
      <MessageIcon type={entry.type} />
      <RadixToast.Description className="ts-toast__message">{entry.message}</RadixToast.Description>
      <RadixToast.Close className="ts-toast__close" aria-label={t`Close`}>
        <svg viewBox="0 0 12 12" aria-hidden="true">
          <path d="M2 2l8 8M10 2l-8 8" />
        </svg>
      </RadixToast.Close>
    </RadixToast.Root>
  )
}
