import { Tooltip as RadixTooltip } from 'radix-ui'
import type { ReactElement, ReactNode } from 'react'
import './Tooltip.css'

/** Props of {@link Tooltip}. */
export interface TooltipProps {
  content: ReactNode
  /** One focusable element that accepts a ref (a button, a link); it becomes the trigger. */
  children: ReactElement
  side?: 'top' | 'right' | 'bottom' | 'left'
  /** Hover delay before showing; keyboard focus shows it at once. */
  delayMs?: number
}

/**
 * A short hint shown on hover and on keyboard focus. It carries its own radix provider so a
 * page can drop it anywhere without wiring one up.
 */
export function Tooltip({ content, children, side = 'top', delayMs = 400 }: TooltipProps) {
  return (
    <RadixTooltip.Provider delayDuration={delayMs}>
      <RadixTooltip.Root>
        <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content className="ts-tooltip" side={side} sideOffset={6}>
            {content}
            <RadixTooltip.Arrow className="ts-tooltip__arrow" />
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  )
}
