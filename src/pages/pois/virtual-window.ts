import { type RefObject, useEffect, useState } from 'react'

/** The rows to render of a long list: `[start, end)` plus the space above them. */
export interface VisibleRange {
  start: number
  end: number
  /** Height of every row, px (the scroll area's content). */
  totalHeightPx: number
  /** Where row `start` begins, px. */
  offsetPx: number
}

/**
 * Which rows of a list of `count` fixed-height rows a viewport shows, with `overscan` rows either
 * side so fast scrolling or arrow keys never reveal a blank row. Pure, so it is tested alone.
 */
export function visibleRange(input: {
  scrollTopPx: number
  viewportHeightPx: number
  rowHeightPx: number
  count: number
  overscan?: number
}): VisibleRange {
  const { scrollTopPx, viewportHeightPx, rowHeightPx, count, overscan = 8 } = input
  const totalHeightPx = count * rowHeightPx
  const first = Math.floor(Math.max(0, scrollTopPx) / rowHeightPx)
  const shown = Math.ceil(viewportHeightPx / rowHeightPx) + 1
  const start = Math.max(0, Math.min(count, first - overscan))
  const end = Math.max(start, Math.min(count, first + shown + overscan))
  return { start, end, totalHeightPx, offsetPx: start * rowHeightPx }
}

/**
 * The visible range of a scroll container's rows, following its scrolling and size. A container
 * that has no layout yet (a test DOM) counts as `fallbackHeightPx` tall.
 */
export function useVirtualWindow(
  containerRef: RefObject<HTMLElement | null>,
  count: number,
  rowHeightPx: number,
  fallbackHeightPx = 480,
): VisibleRange & { scrollToIndex: (index: number) => void } {
  const [scrollTopPx, setScrollTopPx] = useState(0)
  const [viewportHeightPx, setViewportHeightPx] = useState(fallbackHeightPx)

  useEffect(() => {
    const element = containerRef.current
    if (!element) return undefined
    const measure = () => {
      setScrollTopPx(element.scrollTop)
      setViewportHeightPx(element.clientHeight || fallbackHeightPx)
    }
    measure()
    element.addEventListener('scroll', measure, { passive: true })
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure)
    observer?.observe(element)
    return () => {
      element.removeEventListener('scroll', measure)
      observer?.disconnect()
    }
  }, [containerRef, fallbackHeightPx])

  const range = visibleRange({ scrollTopPx, viewportHeightPx, rowHeightPx, count })
  return {
    ...range,
    /** Scrolls just enough to show row `index` (keyboard moves through rows not rendered). */
    scrollToIndex(index: number) {
      const element = containerRef.current
      if (!element) return
      const top = index * rowHeightPx
      const bottom = top + rowHeightPx
      const height = element.clientHeight || fallbackHeightPx
      let next = element.scrollTop
      if (top < next) next = top
      else if (bottom > next + height) next = bottom - height
      if (next !== element.scrollTop) element.scrollTop = next
      setScrollTopPx(next)
    },
  }
}
