import { expect, type Locator, type Page } from '@playwright/test'
import { sharedDataFile, toastMessage } from '../project-helpers'
import { decodePng, type RgbaImage } from './png-pixels'

/**
 * The model library as the city and building specs use it (issue 21): the same tabs serve both
 * editors, so the same steps check them.
 */

/** How many pixels differ clearly (summed RGB distance above 30) between two same-size images. */
export function changedPixelCount(first: RgbaImage, second: RgbaImage): number {
  let count = 0
  for (let index = 0; index < first.data.length; index += 4) {
    const distance =
      Math.abs(first.data[index]! - second.data[index]!) +
      Math.abs(first.data[index + 1]! - second.data[index + 1]!) +
      Math.abs(first.data[index + 2]! - second.data[index + 2]!)
    if (distance > 30) count++
  }
  return count
}

/**
 * Uploads the AnimatedMorphCube glTF (with its .bin) through the open model library tab of
 * `scene` and waits until the engine has loaded it; answers the library list.
 */
export async function uploadAnimatedCube(page: Page, scene: 'city' | 'building'): Promise<Locator> {
  await page
    .getByTestId(`${scene}-model-upload-input`)
    .setInputFiles([
      sharedDataFile('gltf/AnimatedMorphCube/AnimatedMorphCube.gltf'),
      sharedDataFile('gltf/AnimatedMorphCube/AnimatedMorphCube.bin'),
    ])
  await expect(
    toastMessage(page, '“AnimatedMorphCube” was added to the model library.'),
  ).toBeVisible({ timeout: 30_000 })
  const library = page.getByRole('list', { name: 'Model library' })
  await expect(library.getByText('Loaded')).toBeVisible({ timeout: 30_000 })
  return library
}

/**
 * The playing model moves on screen: paused, the pixels of `around` are read; played until its
 * clock (`clockSeconds`, the snapshot's) moved on by more than a second, paused and read again;
 * more than 100 of them changed. Leaves the animation paused.
 */
export async function expectAnimationChangesPixels(
  page: Page,
  animationTab: Locator,
  around: { x: number; y: number; width: number; height: number },
  clockSeconds: () => Promise<number>,
): Promise<void> {
  await animationTab.getByRole('button', { name: 'Pause' }).click()
  await expect(animationTab.getByRole('button', { name: 'Play' })).toBeVisible()
  const pausedAt = await clockSeconds()
  const first = decodePng(await page.screenshot({ clip: around }))
  await animationTab.getByRole('button', { name: 'Play' }).click()
  await expect
    .poll(async () => Math.abs((await clockSeconds()) - pausedAt), {
      timeout: 30_000,
      message: 'the animation clock runs',
    })
    .toBeGreaterThan(1)
  await animationTab.getByRole('button', { name: 'Pause' }).click()
  await expect(animationTab.getByRole('button', { name: 'Play' })).toBeVisible()
  const second = decodePng(await page.screenshot({ clip: around }))
  expect(changedPixelCount(first, second)).toBeGreaterThan(100)
}
