import { Tooltip as RadixTooltip } from 'radix-ui'
import type { ReactNode } from 'react'
import { ConfirmHost } from './confirm/ConfirmHost'
import { ToastHost } from './toast/ToastHost'
import { UploadWindow } from './upload/UploadWindow'

/**
 * Mounts what the kit's imperative APIs draw into: toasts, confirm/alert dialogs and the upload
 * window. Wrap the app in it once, inside lingui's `I18nProvider`.
 */
export function UiRoot({ children }: { children: ReactNode }) {
  return (
    <RadixTooltip.Provider delayDuration={400}>
      {children}
      <UploadWindow />
      <ConfirmHost />
      <ToastHost />
    </RadixTooltip.Provider>
  )
}
