import type { Locator } from '@playwright/test'

/**
 * Keeps a screenshot for people to look at when E2E_SCREENS_DIR names a folder (a review run);
 * ordinary runs write nothing.
 */
export async function keepScreenshot(target: Locator, name: string): Promise<void> {
  const folder = process.env.E2E_SCREENS_DIR
  if (folder) await target.screenshot({ path: `${folder}/${name}.png` })
}
