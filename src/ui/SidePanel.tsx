import { useLingui } from '@lingui/react/macro'
import { type KeyboardEvent, type PointerEvent, type ReactNode, useRef } from 'react'
import { clampNumber } from './number/number-rules'
import { useControllableState } from './use-controllable-state'
import './SidePanel.css'

/** SPEC §9 side panel widths in CSS pixels. */
export const sidePanelWidths = { defaultPx: 240, minPx: 240, maxPx: 1360 } as const

/** SPEC §4: a press on the handle shorter than this is a click that opens or closes the panel. */
export const handleClickMaxMs = 200

/** A press that travels further than this is a drag, however quick. */
const clickMaxTravelPx = 4

/** Arrow keys resize by this much; with Shift by four times as much. */
const keyboardStepPx = 16

/** Props of {@link SidePanel}. */
export interface SidePanelProps {
  /** Names the panel region and its handle for screen readers. */
  label: string
  children: ReactNode
  /** Which edge of the page it sits on; the handle is on the opposite edge. */
  side?: 'left' | 'right'
  isOpen?: boolean
  defaultOpen?: boolean
  onOpenChange?: (isOpen: boolean) => void
  widthPx?: number
  defaultWidthPx?: number
  /** Called while dragging and on each resize key. */
  onWidthChange?: (widthPx: number) => void
  minWidthPx?: number
  maxWidthPx?: number
  /** Clock for telling a click from a drag; injectable so tests control time. */
  now?: () => number
}

interface Press {
  pointerId: number
  startX: number
  startWidthPx: number
  startedAtMs: number
  travelPx: number
}

/**
 * A resizable side panel (SPEC §4, §9). Drag its handle to resize between the min and max
 * width, or focus the handle and use the arrow keys (Home/End for min/max). A click on the
 * handle shorter than 200 ms, or Enter/Space on it, opens or closes the panel.
 */
export function SidePanel({
  label,
  children,
  side = 'left',
  isOpen,
  defaultOpen = true,
  onOpenChange,
  widthPx,
  defaultWidthPx = sidePanelWidths.defaultPx,
  onWidthChange,
  minWidthPx = sidePanelWidths.minPx,
  maxWidthPx = sidePanelWidths.maxPx,
  now = () => performance.now(),
}: SidePanelProps) {
  const { t } = useLingui()
  const [open, setOpen] = useControllableState({
    value: isOpen,
    defaultValue: defaultOpen,
    onChange: onOpenChange,
  })
  const [width, setWidth] = useControllableState({
    value: widthPx,
    defaultValue: clampNumber(defaultWidthPx, minWidthPx, maxWidthPx),
    onChange: onWidthChange,
  })
  const press = useRef<Press | null>(null)
  // Dragging toward the panel's open side grows it.
  const growDirection = side === 'left' ? 1 : -1

  function resizeTo(nextWidthPx: number) {
    const clamped = clampNumber(Math.round(nextWidthPx), minWidthPx, maxWidthPx)
    if (clamped !== width) setWidth(clamped)
  }

  function handlePointerDown(event: PointerEvent<HTMLDivElement>) {
    if (event.button !== 0) return
    event.currentTarget.setPointerCapture?.(event.pointerId)
    press.current = {
      pointerId: event.pointerId,
      startX: event.clientX,
      startWidthPx: width,
      startedAtMs: now(),
      travelPx: 0,
    }
  }

  function handlePointerMove(event: PointerEvent<HTMLDivElement>) {
    const current = press.current
    if (!current || current.pointerId !== event.pointerId) return
    const deltaX = event.clientX - current.startX
    current.travelPx = Math.max(current.travelPx, Math.abs(deltaX))
    if (open && current.travelPx > clickMaxTravelPx) {
      resizeTo(current.startWidthPx + growDirection * deltaX)
    }
  }

  function handlePointerEnd(event: PointerEvent<HTMLDivElement>) {
    const current = press.current
    if (!current || current.pointerId !== event.pointerId) return
    press.current = null
    const isClick =
      now() - current.startedAtMs < handleClickMaxMs && current.travelPx <= clickMaxTravelPx
    if (isClick) setOpen(!open)
  }

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const stepPx = event.shiftKey ? keyboardStepPx * 4 : keyboardStepPx
    switch (event.key) {
      case 'ArrowRight':
        if (open) resizeTo(width + growDirection * stepPx)
        break
      case 'ArrowLeft':
        if (open) resizeTo(width - growDirection * stepPx)
        break
      case 'Home':
        if (open) resizeTo(minWidthPx)
        break
      case 'End':
        if (open) resizeTo(maxWidthPx)
        break
      case 'Enter':
      case ' ':
        setOpen(!open)
        break
      default:
        return
    }
    event.preventDefault()
  }

  return (
    <div
      className={`ts-side-panel ts-side-panel--${side}`}
      data-state={open ? 'open' : 'closed'}
      style={{ width: open ? width : 0 }}
    >
      <section className="ts-side-panel__content" aria-label={label} hidden={!open}>
        {children}
      </section>
      {/* biome-ignore lint/a11y/useSemanticElements: an <hr> cannot be focused or dragged */}
      <div
        className="ts-side-panel__handle"
        role="separator"
        tabIndex={0}
        aria-orientation="vertical"
        aria-label={open ? t`Resize or close ${label}` : t`Open ${label}`}
        aria-valuemin={minWidthPx}
        aria-valuemax={maxWidthPx}
        aria-valuenow={open ? width : 0}
        onPointerDown={handlePointerDown}
        onPointerMove={handlePointerMove}
        onPointerUp={handlePointerEnd}
        onPointerCancel={() => {
          press.current = null
        }}
        onKeyDown={handleKeyDown}
      />
    </div>
  )
}
