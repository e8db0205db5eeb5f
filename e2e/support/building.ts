import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
  test,
} from '@playwright/test'
import { createEditor, postApi, signInThroughPage, chooseEnglish } from '../project-helpers'
import { enableTestApi } from './accounts'
import { decodePng } from './png-pixels'
import { isCanvasSeenAt } from './screens'
import { createSampleProject, enterProject, openEditorModule, sharedData } from './project-api'

/**
 * Steps of the building-editor specs (building, GML path, conversion): make the SBM files with
 * the project's own converter, create a building project through the API, open it the way a
 * user does, and read the engine through `window.__twinTest`.
 */

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
const runFile = promisify(execFile)
const madeFolders: string[] = []

/** Deletes the temporary folders `makeSbmFiles` and `writeStructureManifest` made. */
export async function removeMadeFiles(): Promise<void> {
  await Promise.all(
    madeFolders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })),
  )
}

/** One SBM to make with `tools/sbm-convert.ts`. */
export interface SbmRecipe {
  /** Source model, relative to ../shared/data. */
  source: string
  /** Output file name, e.g. `1F.sbm`. */
  output: string
  role: 'shell' | 'floor' | 'model'
  floors?: { id: string; name: string; elevation: number }[]
}

/**
 * Converts the recipes in parallel (each is a separate `tsx` process, mostly start-up time) into
 * a fresh temporary folder; answers each output's path by its file name.
 */
export async function makeSbmFiles(recipes: readonly SbmRecipe[]): Promise<Record<string, string>> {
  const folder = await mkdtemp(join(tmpdir(), 'twinscape-e2e-sbm-'))
  madeFolders.push(folder)
  const paths: Record<string, string> = {}
  await Promise.all(
    recipes.map(async (recipe) => {
      const output = join(folder, recipe.output)
      const args = ['tsx', 'tools/sbm-convert.ts', sharedData(recipe.source), output]
      args.push('--role', recipe.role)
      if (recipe.floors) args.push('--floors', JSON.stringify(recipe.floors))
      await runFile('npx', args, { cwd: repositoryRoot })
      paths[recipe.output] = output
    }),
  )
  return paths
}

/** Writes a building-structure manifest (the "shell" .json) and answers its path. */
export async function writeStructureManifest(manifest: {
  name: string
  shell: string | null
  floors: { id: string; name: string; elevation: number; model: string | null }[]
}): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'twinscape-e2e-structure-'))
  madeFolders.push(folder)
  const path = join(folder, 'structure.json')
  const body = {
    version: 1,
    kind: 'building',
    name: manifest.name,
    shell: manifest.shell ? { model: manifest.shell } : null,
    floors: manifest.floors.map((floor) => ({ ...floor, maps: [] })),
  }
  await writeFile(path, JSON.stringify(body, null, 2))
  return path
}

/** Creates a building project owned by the token's user (see createProjectThroughApi). */
export function createBuildingProject(
  request: APIRequestContext,
  token: string,
  name: string,
): Promise<string> {
  return createSampleProject(request, token, 'building', name)
}

/**
 * The start of most building specs: a new editor (English UI, test API on) with a new building
 * project named `namePrefix` plus a time stamp, signed in through the page and inside it.
 */
export async function startInNewBuildingProject(
  {
    page,
    context,
    request,
    baseURL,
  }: { page: Page; context: BrowserContext; request: APIRequestContext; baseURL?: string },
  namePrefix: string,
): Promise<{ token: string; projectId: string; projectName: string }> {
  await chooseEnglish(context, baseURL)
  await enableTestApi(page)
  const account = await createEditor(request)
  const signedIn = await postApi<{ token: string }>(request, 'login', account)
  const token = signedIn.datum.token
  const projectName = `${namePrefix} ${Date.now()}`
  const projectId = await createBuildingProject(request, token, projectName)
  await signInThroughPage(page, account)
  await enterBuildingProject(page, projectName)
  return { token, projectId, projectName }
}

/** Enters a building project from the project home, as a user does; lands on /bim4/poi. */
export function enterBuildingProject(page: Page, projectName: string): Promise<void> {
  return enterProject(page, 'building', projectName)
}

/** Opens a module of the space sidebar by its label. */
export function openSpaceModule(page: Page, label: string): Promise<void> {
  return openEditorModule(page, 'building', label)
}

/** The engine's building snapshot, read through the test API. */
export async function buildingSnapshot(page: Page) {
  // the engine (and its test API) comes with the editor's lazy chunk, after a navigation
  await page.waitForFunction(
    () => typeof window.__twinTest?.getEngineSnapshot === 'function',
    null,
    {
      timeout: 30_000,
    },
  )
  return page.evaluate(() => {
    const snapshot = window.__twinTest?.getEngineSnapshot()
    if (!snapshot) throw new Error('the test API is not enabled')
    return snapshot.building
  })
}

/** Waits until every model of the open scene has settled, and answers their load states. */
export async function waitForModelsSettled(
  page: Page,
  expectedCount: number,
): Promise<Record<string, string>> {
  await expect
    .poll(
      async () => {
        const building = await buildingSnapshot(page)
        return building.models.filter((model) => model.loadState !== 'loading').length
      },
      { timeout: 30_000, message: 'every model loaded or failed' },
    )
    .toBe(expectedCount)
  const building = await buildingSnapshot(page)
  return Object.fromEntries(building.models.map((model) => [model.name, model.loadState]))
}

/**
 * Whether the canvas shows a picture, from a screenshot (what the compositor shows, as a person
 * sees it), decoded here in Node (decoding inside the page stalled its frames under load). "Not
 * blank" is more than a handful of distinct colours and no colour covering nearly all of it. The
 * building scene's sky alone passes this: use {@link buildingIsDrawn} for the model itself.
 */
export async function canvasIsNotBlank(canvas: Locator): Promise<boolean> {
  const { data } = decodePng(await canvas.screenshot())
  const counts = new Map<number, number>()
  for (let index = 0; index < data.length; index += 4) {
    const key = ((data[index] ?? 0) << 16) | ((data[index + 1] ?? 0) << 8) | (data[index + 2] ?? 0)
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  const pixelCount = Math.max(1, data.length / 4)
  const dominantShare = Math.max(0, ...counts.values()) / pixelCount
  return counts.size > 8 && dominantShare < 0.98
}

/**
 * Whether the building's models are drawn: the engine renders with sky, ground and weather hidden
 * and counts what is left, so a sky over an empty scene does not count as a building.
 */
export async function buildingIsDrawn(page: Page): Promise<boolean> {
  return page.evaluate(async () => (await window.__twinTest?.canvasHasContent()) ?? false)
}

export { sharedData }

/**
 * A fixed view of the building, set through the test API: from 20 m up and 14 m south, looking
 * down on the building's origin. Every ray through the canvas points down, so a click anywhere
 * on it meets a model or the ground under the building, never the sky. Waits until the engine
 * reports it (no camera fit of a model loading later moves a camera the user has set).
 */
export async function lookDownOnBuilding(page: Page): Promise<void> {
  const view = { position: [0, 20, 14] as const, target: [0, 0, 0] as const }
  await buildingSnapshot(page)
  await page.evaluate(
    (pose) => window.__twinTest?.runEngineCommand('building.setCamera', pose),
    view,
  )
  await expect
    .poll(async () => {
      const { position, target } = (await buildingSnapshot(page)).camera
      const distance = (from: readonly number[], to: readonly number[]) =>
        Math.hypot(...from.map((value, index) => value - to[index]!))
      return distance(position, view.position) + distance(target, view.target)
    })
    .toBeLessThan(0.01)
}

/**
 * Where the first library model of the building stands on the page: the engine's place for it
 * (`libraryModels[0].position`, projected by `building.poiToScreen`) as a 200 × 200 px page
 * square around it, once nothing covers the canvas there (toasts go).
 */
export async function libraryModelOnPage(
  page: Page,
): Promise<{ x: number; y: number; width: number; height: number }> {
  const canvas = page.getByTestId('building-canvas')
  const box = await canvas.boundingBox()
  if (!box) throw new Error('the canvas has no box')
  const model = (await buildingSnapshot(page)).libraryModels[0]
  if (!model) throw new Error('no library model is in the building')
  const at = await page.evaluate(
    (position) => window.__twinTest!.runEngineCommand('building.poiToScreen', { position }),
    model.position,
  )
  expect(at.isVisible, 'the model stands in the view').toBe(true)
  // what stands over the canvas there, if anything, is named in the failure
  const coveredBy = () =>
    page.evaluate(({ x, y }) => {
      const bounds = document.querySelector('[data-testid="building-canvas"]')!
      const { left, top } = bounds.getBoundingClientRect()
      return [-100, 100].flatMap((dx) =>
        [-100, 100].map((dy) => {
          const element = document.elementFromPoint(left + x + dx, top + y + dy)
          return element instanceof HTMLCanvasElement
            ? 'canvas'
            : (element?.outerHTML ?? 'nothing').slice(0, 120)
        }),
      )
    }, at)
  await expect
    .poll(
      async () =>
        (await isCanvasSeenAt(page, 'building-canvas', [at], 100))[0] ? [] : coveredBy(),
      {
        message: 'nothing over the canvas around the model',
      },
    )
    .toEqual([])
  return { x: box.x + at.x - 100, y: box.y + at.y - 100, width: 200, height: 200 }
}

/**
 * A one-floor building for a spec file (the Box as 1F, no shell), made once before its tests and
 * removed after them; `upload` puts it into the open project through the model library, as a
 * user does, and waits until the model is loaded.
 */
export function oneFloorBoxBuilding(name: string) {
  let floorFile = ''
  let structurePath = ''
  test.beforeAll(async () => {
    test.setTimeout(120_000)
    const files = await makeSbmFiles([
      {
        source: 'gltf/edge-cases/Box.glb',
        output: '1F.sbm',
        role: 'floor',
        floors: [{ id: 'F1', name: '1F', elevation: 0 }],
      },
    ])
    floorFile = files['1F.sbm']!
    structurePath = await writeStructureManifest({
      name,
      shell: null,
      floors: [{ id: 'F1', name: '1F', elevation: 0, model: '1F.sbm' }],
    })
  })
  test.afterAll(removeMadeFiles)
  return {
    async upload(page: Page): Promise<void> {
      await page.evaluate(() => {
        window.location.hash = '#/bim4/model/library'
      })
      await page.getByTestId('floor-file-input').setInputFiles(floorFile)
      await page.getByTestId('shell-file-input').setInputFiles(structurePath)
      await expect
        .poll(async () => (await buildingSnapshot(page)).models.map((entry) => entry.loadState), {
          timeout: 60_000,
        })
        .toEqual(['success'])
    },
  }
}
