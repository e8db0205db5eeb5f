import { describe, expect, it } from 'vitest'
import { measureDrawing } from '../../../workers/geodesy/draw-geometry'
import type { DrawShape } from '../../api/draw-commands'
import type { Engine } from '../../core/engine'
import { cityTestPage } from '../testing/city-test-page'

/**
 * Drawing in the city engine in Chromium (issue 18): saved shapes drawn by deck.gl, and the
 * geometry control bar (terra-draw select mode) turning, undoing and closing on a saved shape.
 */

const center = { lng: 126.978, lat: 37.5665 }
const offlineStyle = {
  version: 8,
  sources: {},
  layers: [{ id: 'land', type: 'background', paint: { 'background-color': '#f5f2eb' } }],
}

const { createContainer, createEngine, city } = cityTestPage()

/** A ~180 m × 110 m rectangle around the centre, red and opaque. */
const rectangle: DrawShape = {
  id: 'field',
  type: 4,
  points: [
    [center.lng - 0.001, center.lat - 0.0005],
    [center.lng + 0.001, center.lat - 0.0005],
    [center.lng + 0.001, center.lat + 0.0005],
    [center.lng - 0.001, center.lat + 0.0005],
  ],
  fillColor: '#ff0000ff',
  outlineColor: '#ff0000ff',
  outlineWidthPx: 2,
  displayMode: 1,
  isVisible: true,
}

async function openCity(engine: Engine, container: HTMLElement) {
  await engine.run('city.attachContainer', { container })
  await engine.run('city.open', {
    projectId: 'project-1',
    center,
    zoom: 16,
    basemap: { kind: 'offline', style: offlineStyle },
    tilesets: [],
    keepDrawingBuffer: true,
  })
}

/** Pixels of the map canvas whose colour `isCounted` accepts. */
function countPixels(
  container: HTMLElement,
  isCounted: (red: number, green: number, blue: number) => boolean,
): number {
  const canvas = container.querySelector('canvas')!
  const copy = document.createElement('canvas')
  copy.width = canvas.width
  copy.height = canvas.height
  const context = copy.getContext('2d')!
  context.drawImage(canvas, 0, 0)
  const { data } = context.getImageData(0, 0, copy.width, copy.height)
  let count = 0
  for (let index = 0; index < data.length; index += 4)
    if (isCounted(data[index]!, data[index + 1]!, data[index + 2]!)) count++
  return count
}

/** Red pixels of the map canvas: what the rectangle covers. */
const countRedPixels = (container: HTMLElement) =>
  countPixels(container, (red, green, blue) => red > 200 && green < 60 && blue < 60)
const countBluePixels = (container: HTMLElement) =>
  countPixels(container, (red, green, blue) => blue > 200 && red < 60 && green < 60)

/** Waits for a condition the map reaches after some frames (never a fixed sleep). */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (condition()) return
    await new Promise((resolve) => requestAnimationFrame(resolve))
  }
  throw new Error(`Timed out waiting for ${what}`)
}

describe('city drawing in Chromium', () => {
  it('draws a saved area, edits it in the geometry bar (rotate, undo) and keeps its measure', async () => {
    const container = createContainer()
    const engine = createEngine()
    await openCity(engine, container)
    await engine.run('draw.setShapes', { shapes: [rectangle] })
    await until(() => countRedPixels(container) > 2000, 'the rectangle drawn')
    expect(city(engine).draw.visibleShapeCount).toBe(1)
    // Painted into the ground picture off the page's thread, it is drawn the same.
    await until(() => !city(engine).draw.isPicturePainting, 'the ground picture painted')
    await until(() => countRedPixels(container) > 2000, 'the rectangle drawn in the picture')

    await engine.run('draw.edit', { id: 'field' })
    await until(() => city(engine).draw.editing !== null, 'the bar opened')
    const opened = city(engine).draw.editing!
    expect(opened).toMatchObject({ id: 'field', type: 4, tool: null, undoDepth: 0, issue: null })
    const area = measureDrawing(4, rectangle.points).areaSquareMeters
    expect(opened.areaSquareMeters).toBeCloseTo(area, 3)
    // The edited shape is terra-draw's now: the red deck.gl fill is gone.
    await until(() => countRedPixels(container) < 50, 'the saved rectangle taken off')

    await engine.run('draw.editTool', { tool: 'rotate' })
    await engine.run('draw.editRotate', { degrees: 90 })
    await until(() => city(engine).draw.editing?.rotationDegrees === 90, 'the turn')
    const turned = city(engine).draw.editing!
    expect(turned).toMatchObject({ tool: 'rotate', rotationDegrees: 90, undoDepth: 1 })
    // Turned a quarter about its centre: a wide rectangle became a tall one, same area.
    const spanOf = (points: readonly (readonly [number, number])[], axis: 0 | 1) =>
      Math.max(...points.map((point) => point[axis])) -
      Math.min(...points.map((point) => point[axis]))
    expect(spanOf(turned.points, 1)).toBeGreaterThan(spanOf(turned.points, 0))
    expect(turned.areaSquareMeters / area).toBeCloseTo(1, 4)
    await engine.run('draw.editRotate', { degrees: 45 })
    await until(() => city(engine).draw.editing?.rotationDegrees === 45, 'the second turn')
    // One rotate is one step of undo, however far the slider went.
    expect(city(engine).draw.editing!.undoDepth).toBe(1)

    expect(await engine.run('draw.editUndo')).toBe(true)
    await until(() => city(engine).draw.editing?.undoDepth === 0, 'the undo')
    expect(city(engine).draw.editing!.points).toEqual(rectangle.points)
    expect(await engine.run('draw.editUndo')).toBe(false)
    await expect(engine.run('draw.editRotate', { degrees: 200 })).rejects.toThrow()

    await engine.run('draw.editStop')
    await until(() => city(engine).draw.editing === null, 'the bar closed')
    await until(() => countRedPixels(container) > 2000, 'the saved rectangle drawn again')
    await expect(engine.run('draw.edit', { id: 'missing' })).rejects.toThrow()
  })

  it('draws a path and its nodes over an area, and an outline without a fill', async () => {
    const container = createContainer()
    const engine = createEngine()
    await openCity(engine, container)
    // A blue path across the red rectangle's middle, 4 px wide.
    const path: DrawShape = {
      id: 'walk',
      type: 3,
      points: [
        [center.lng - 0.0008, center.lat],
        [center.lng, center.lat + 0.0002],
        [center.lng + 0.0008, center.lat],
      ],
      fillColor: '#00000000',
      outlineColor: '#0000ffff',
      outlineWidthPx: 4,
      displayMode: 3,
      isVisible: true,
    }
    await engine.run('draw.setShapes', { shapes: [rectangle, path] })
    await until(() => countRedPixels(container) > 2000, 'the rectangle drawn')
    // ≈ 180 m of path at zoom 16 (≈ 1.9 m a pixel) is ≈ 95 px long: ≈ 380 px at 4 px wide,
    // all over the red fill (lines lie on the fills' plane and must not be hidden by them).
    await until(() => countBluePixels(container) > 250, 'the path drawn over the fill')
    const pathOnly = countBluePixels(container)
    expect(pathOnly).toBeLessThan(800)

    // Display mode 1 adds a node (a 5 px disc in the path's colour, ringed white) per point.
    await engine.run('draw.setShapes', { shapes: [rectangle, { ...path, displayMode: 1 }] })
    await until(() => countBluePixels(container) > pathOnly + 60, 'the nodes drawn')
    const white = (red: number, green: number, blue: number) =>
      red > 230 && green > 230 && blue > 230
    expect(countPixels(container, white)).toBeGreaterThan(20)

    // An area with a see-through fill shows its outline only: red on the pale land.
    await engine.run('draw.setShapes', { shapes: [{ ...rectangle, fillColor: '#ff000000' }] })
    await until(() => countBluePixels(container) === 0, 'the path taken off')
    await until(() => countRedPixels(container) > 300, 'the outline drawn')
    // ≈ 2 × (95 + 52) px of outline at 2 px wide, far less than the 4,900 px of the filled area.
    expect(countRedPixels(container)).toBeLessThan(1500)
  })

  it('shows a drawing saved among others at once, and takes a deleted or hidden one off at once', async () => {
    const container = createContainer()
    const engine = createEngine()
    await openCity(engine, container)
    await engine.run('draw.setShapes', { shapes: [rectangle] })
    await until(() => !city(engine).draw.isPicturePainting, 'the ground picture painted')
    await until(() => countRedPixels(container) > 2000, 'the rectangle drawn in the picture')
    const red = countRedPixels(container)
    // A blue square saved beside it: drawn over the picture shown until the new one is painted,
    // which keeps showing the rectangle.
    const square: DrawShape = {
      ...rectangle,
      id: 'square',
      points: [
        [center.lng + 0.0015, center.lat - 0.0005],
        [center.lng + 0.0025, center.lat - 0.0005],
        [center.lng + 0.0025, center.lat + 0.0005],
        [center.lng + 0.0015, center.lat + 0.0005],
      ],
      fillColor: '#0000ffff',
      outlineColor: '#0000ffff',
    }
    await engine.run('draw.setShapes', { shapes: [rectangle, square] })
    await until(() => countBluePixels(container) > 1000, 'the square drawn')
    expect(countRedPixels(container)).toBeGreaterThan(red * 0.9)
    await until(() => !city(engine).draw.isPicturePainting, 'the new picture painted')
    expect(countBluePixels(container)).toBeGreaterThan(1000)
    // Saved again while its picture is painted: both still shown.
    await engine.run('draw.setShapes', { shapes: [rectangle, { ...square, id: 'square-2' }] })
    await until(() => countBluePixels(container) > 1000, 'the square drawn again')
    // The rectangle deleted: gone from the very next frames, not left in the old picture.
    await engine.run('draw.setShapes', { shapes: [{ ...square, id: 'square-2' }] })
    await until(() => countRedPixels(container) === 0, 'the rectangle taken off')
    expect(countBluePixels(container)).toBeGreaterThan(1000)
    // The square hidden: gone as well, and nothing drawn once the picture is painted.
    await engine.run('draw.setShapes', {
      shapes: [{ ...square, id: 'square-2', isVisible: false }],
    })
    await until(() => countBluePixels(container) === 0, 'the square hidden')
    await until(() => !city(engine).draw.isPicturePainting, 'painted without drawings')
    expect(countBluePixels(container) + countRedPixels(container)).toBe(0)
  })
})
