import type { Locator, Page } from '@playwright/test'

/**
 * Keeps a screenshot for people to look at when E2E_SCREENS_DIR names a folder (a review run);
 * ordinary runs write nothing.
 */
export async function keepScreenshot(target: Locator, name: string): Promise<void> {
  const folder = process.env.E2E_SCREENS_DIR
  if (folder) await target.screenshot({ path: `${folder}/${name}.png` })
}

/**
 * Whether a person sees the canvas of the element with `testId` (the canvas itself or its
 * container) around each of these points (CSS pixels of that element): at the point and at the
 * four corners of the square `radius` around it, the topmost element is that canvas, not a
 * panel, notice, control or toast over it (a finished upload's list, for one, stays over the
 * bottom-right corner until it is closed). Hit testing looks through what lets the pointer pass
 * (`pointer-events: none`), so callers keep clear of that by a margin.
 */
export async function isCanvasSeenAt(
  page: Page,
  testId: string,
  points: readonly { x: number; y: number }[],
  radius: number,
): Promise<boolean[]> {
  return page.evaluate(
    ({ testId, points, radius }) => {
      const element = document.querySelector(`[data-testid="${testId}"]`)!
      const bounds = element.getBoundingClientRect()
      const isCanvasAt = (x: number, y: number) => {
        const top = document.elementFromPoint(bounds.left + x, bounds.top + y)
        return top instanceof HTMLCanvasElement && (top === element || element.contains(top))
      }
      const around = [
        [0, 0],
        [-radius, -radius],
        [radius, -radius],
        [-radius, radius],
        [radius, radius],
      ] as const
      return points.map(({ x, y }) => around.every(([dx, dy]) => isCanvasAt(x + dx, y + dy)))
    },
    { testId, points: points.map(({ x, y }) => ({ x, y })), radius },
  )
}
