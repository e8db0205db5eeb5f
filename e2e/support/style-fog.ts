import { expect, type Locator, type Page } from '@playwright/test'
import { elementPixels, type ImageBand, meanColour } from './png-pixels'

/**
 * The fog step of the style specs (issue 19, building and city): the fog is turned on in pure
 * magenta, a colour nothing else in either scene is drawn in, so how far a part of the view has
 * faded into the fog can be read from its pixels.
 */
export const magentaFog = {
  hex: '#ff00ff',
  saved: 'rgba(255, 0, 255, 1)',
  color: { r: 255, g: 0, b: 255, a: 1 },
} as const

/** How magenta a colour is: about 0 for greys, greens, reds and blues; 255 for pure magenta. */
export function magentaOf([r = 0, g = 0, b = 0]: readonly number[]): number {
  return Math.min(r, b) - g
}

/** Turns the fog on in the open style panel, in magenta, and types its density. */
export async function chooseMagentaFog(page: Page, density: number): Promise<void> {
  await page.getByRole('checkbox', { name: 'Show fog' }).check()
  await page
    .getByRole('group', { name: 'Fog colour' })
    .locator('input[type="color"]')
    .fill(magentaFog.hex)
  const densityField = page.getByRole('spinbutton', { name: 'Fog density' })
  await densityField.fill(String(density))
  await densityField.press('Enter')
}

/** Where a view shows far things and near things (bands of its picture). */
export interface DepthBands {
  far: ImageBand
  near: ImageBand
}

/** How magenta the far and the near band of a view are as shown now. */
export async function magentaOfBands(
  view: Locator,
  bands: DepthBands,
): Promise<{ far: number; near: number }> {
  const image = await elementPixels(view)
  return {
    far: magentaOf(meanColour(image, bands.far)),
    near: magentaOf(meanColour(image, bands.near)),
  }
}

/**
 * Waits until the far things have faded into the magenta fog, and sees the near ones less so.
 * `lookAtThem` (if given) points the camera before each look, should the scene have moved it.
 */
export async function expectFarThingsInFog(
  view: Locator,
  bands: DepthBands,
  lookAtThem: () => Promise<void> = async () => undefined,
): Promise<void> {
  const look = async () => {
    await lookAtThem()
    return magentaOfBands(view, bands)
  }
  await expect.poll(async () => (await look()).far, { timeout: 60_000 }).toBeGreaterThan(150)
  const { far, near } = await look()
  expect(near).toBeLessThan(far - 80)
}
