import { describe, expect, it } from 'vitest'
import type { DrawPosition, DrawShape } from '../../api/draw-commands'
import type { Engine } from '../../core/engine'
import { cityTestPage } from '../testing/city-test-page'

/**
 * Snapping and redo in Chromium (issue 18): a point clicked or dragged within a few pixels of a
 * saved drawing's vertex lands on it, else on its edge within a few pixels, through terra-draw's
 * real pointer handling; redo takes again what undo took back in the geometry bar.
 */

const center = { lng: 126.978, lat: 37.5665 }
const offlineStyle = {
  version: 8,
  sources: {},
  layers: [{ id: 'land', type: 'background', paint: { 'background-color': '#f5f2eb' } }],
}

const { createContainer, createEngine, city } = cityTestPage()

function savedShape(id: string, type: DrawShape['type'], points: DrawPosition[]): DrawShape {
  return {
    id,
    type,
    points,
    fillColor: '#ff000080',
    outlineColor: '#ff0000ff',
    outlineWidthPx: 2,
    displayMode: 1,
    isVisible: true,
  }
}

/** A ~180 m × 110 m rectangle around the centre, and a point south-west of its first corner. */
const rectangle = savedShape('field', 4, [
  [center.lng - 0.001, center.lat - 0.0005],
  [center.lng + 0.001, center.lat - 0.0005],
  [center.lng + 0.001, center.lat + 0.0005],
  [center.lng - 0.001, center.lat + 0.0005],
])
const post = savedShape('post', 2, [[center.lng - 0.0013, center.lat - 0.0007]])

async function openCity(engine: Engine, container: HTMLElement) {
  await engine.run('city.attachContainer', { container })
  await engine.run('city.open', {
    projectId: 'project-1',
    center,
    zoom: 16,
    basemap: { kind: 'offline', style: offlineStyle },
    tilesets: [],
  })
  await engine.run('draw.setShapes', { shapes: [rectangle, post] })
}

/** Waits for a state the scene reaches after some frames (never a fixed sleep). */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (condition()) return
    await new Promise((resolve) => requestAnimationFrame(resolve))
  }
  throw new Error(`Timed out waiting for ${what}`)
}

/** Pointer events on the map canvas at container pixels, as a mouse sends them. */
function pointerOn(container: HTMLElement) {
  const canvas = container.querySelector('canvas')!
  const send = (type: string, x: number, y: number, isPressed: boolean) => {
    const bounds = canvas.getBoundingClientRect()
    canvas.dispatchEvent(
      new PointerEvent(type, {
        bubbles: true,
        cancelable: true,
        isPrimary: true,
        pointerId: 1,
        pointerType: 'mouse',
        clientX: bounds.left + x,
        clientY: bounds.top + y,
        button: type === 'pointermove' && !isPressed ? -1 : 0,
        buttons: isPressed ? 1 : 0,
      }),
    )
  }
  return {
    async click(x: number, y: number) {
      send('pointermove', x, y, false)
      send('pointerdown', x, y, true)
      send('pointerup', x, y, false)
      await new Promise((resolve) => requestAnimationFrame(resolve))
    },
    async drag(from: { x: number; y: number }, to: { x: number; y: number }) {
      send('pointermove', from.x, from.y, false)
      send('pointerdown', from.x, from.y, true)
      for (let step = 1; step <= 8; step++) {
        await new Promise((resolve) => requestAnimationFrame(resolve))
        const x = from.x + ((to.x - from.x) * step) / 8
        const y = from.y + ((to.y - from.y) * step) / 8
        send('pointermove', x, y, true)
      }
      send('pointerup', to.x, to.y, false)
      await new Promise((resolve) => requestAnimationFrame(resolve))
    },
  }
}

/** Where a place is drawn, container pixels. */
async function pixelOf(engine: Engine, [lng, lat]: DrawPosition) {
  return engine.run('city.projectToScreen', { lng, lat, heightMeters: 0 })
}

const isSamePlace = (a: DrawPosition, b: DrawPosition) =>
  Math.abs(a[0] - b[0]) < 1e-9 && Math.abs(a[1] - b[1]) < 1e-9

describe('snapping and redo in Chromium', () => {
  it('lands a clicked point on a saved vertex a few pixels away, and not one farther', async () => {
    const container = createContainer()
    const engine = createEngine()
    await openCity(engine, container)
    await until(() => city(engine).draw.visibleShapeCount === 2, 'the shapes handed over')
    const pointer = pointerOn(container)
    const corner = rectangle.points[2]!
    const cornerPixel = await pixelOf(engine, corner)

    await engine.run('draw.start', { type: 3 })
    // 4 px right of and 3 px above the rectangle's north-east corner: the corner itself.
    await pointer.click(cornerPixel.x + 4, cornerPixel.y - 3)
    // 40 px further right: nothing there to land on.
    const free = { x: cornerPixel.x + 44, y: cornerPixel.y - 3 }
    await pointer.click(free.x, free.y)
    // A second click on the last place finishes the line.
    await pointer.click(free.x, free.y)
    await until(() => city(engine).draw.pending !== null, 'the line finished')
    const line = city(engine).draw.pending!
    expect(line.type).toBe(3)
    expect(line.points).toHaveLength(2)
    expect(isSamePlace(line.points[0]!, corner)).toBe(true)
    const freePixel = await pixelOf(engine, line.points[1]!)
    expect(Math.hypot(freePixel.x - free.x, freePixel.y - free.y)).toBeLessThan(1)
    await engine.run('draw.cancel')

    // A point clicked 20 px from every vertex and edge stays where it was clicked.
    await engine.run('draw.start', { type: 2 })
    await pointer.click(cornerPixel.x - 20, cornerPixel.y - 20)
    await until(() => city(engine).draw.pending !== null, 'the point placed')
    const placed = await pixelOf(engine, city(engine).draw.pending!.points[0]!)
    expect(
      Math.hypot(placed.x - (cornerPixel.x - 20), placed.y - (cornerPixel.y - 20)),
    ).toBeLessThan(1)
    await engine.run('draw.cancel')
  })

  it('lands a clicked point on a saved edge when no vertex is near', async () => {
    const container = createContainer()
    const engine = createEngine()
    await openCity(engine, container)
    await until(() => city(engine).draw.visibleShapeCount === 2, 'the shapes handed over')
    const pointer = pointerOn(container)
    // The middle of the rectangle's north side, far from its corners (≈ 90 m each way).
    const [west, north] = rectangle.points[3]!
    const [east] = rectangle.points[2]!
    const middle = await pixelOf(engine, [(west + east) / 2, north])

    // 5 px north of the side: the point lands on the side, where it is drawn.
    await engine.run('draw.start', { type: 2 })
    await pointer.click(middle.x, middle.y - 5)
    await until(() => city(engine).draw.pending !== null, 'the point placed')
    const onSide = city(engine).draw.pending!.points[0]!
    expect(Math.abs(onSide[1] - north)).toBeLessThan(1e-7)
    const onSidePixel = await pixelOf(engine, onSide)
    expect(Math.hypot(onSidePixel.x - middle.x, onSidePixel.y - middle.y)).toBeLessThan(1)
    await engine.run('draw.cancel')

    // 12 px north of it: beyond the snapping radius, where it was clicked.
    await engine.run('draw.start', { type: 2 })
    await pointer.click(middle.x, middle.y - 12)
    await until(() => city(engine).draw.pending !== null, 'the second point placed')
    const free = await pixelOf(engine, city(engine).draw.pending!.points[0]!)
    expect(Math.hypot(free.x - middle.x, free.y - (middle.y - 12))).toBeLessThan(1)
    await engine.run('draw.cancel')
  })

  it('lands a dragged vertex on another drawing’s vertex; undo and redo step through it', async () => {
    const container = createContainer()
    const engine = createEngine()
    await openCity(engine, container)
    await until(() => city(engine).draw.visibleShapeCount === 2, 'the shapes handed over')
    const pointer = pointerOn(container)

    await engine.run('draw.edit', { id: 'field' })
    await engine.run('draw.editTool', { tool: 'edit' })
    await until(() => city(engine).draw.editing?.tool === 'edit', 'the edit tool')
    const from = await pixelOf(engine, rectangle.points[0]!)
    const target = await pixelOf(engine, post.points[0]!)
    // Dropped 3 px off the post: the corner lands on the post.
    await pointer.drag(from, { x: target.x + 3, y: target.y - 2 })
    await until(() => city(engine).draw.editing?.undoDepth === 1, 'the drag taken')
    const dragged = city(engine).draw.editing!
    expect(isSamePlace(dragged.points[0]!, post.points[0]!)).toBe(true)
    expect(dragged.redoDepth).toBe(0)

    expect(await engine.run('draw.editUndo')).toBe(true)
    await until(() => city(engine).draw.editing?.redoDepth === 1, 'the undo')
    expect(city(engine).draw.editing!.points).toEqual(rectangle.points)
    expect(city(engine).draw.editing!.undoDepth).toBe(0)

    expect(await engine.run('draw.editRedo')).toBe(true)
    await until(() => city(engine).draw.editing?.undoDepth === 1, 'the redo')
    expect(isSamePlace(city(engine).draw.editing!.points[0]!, post.points[0]!)).toBe(true)
    expect(city(engine).draw.editing!.redoDepth).toBe(0)
    expect(await engine.run('draw.editRedo')).toBe(false)

    // A new change after an undo leaves nothing to redo.
    await engine.run('draw.editUndo')
    await until(() => city(engine).draw.editing?.redoDepth === 1, 'the second undo')
    await engine.run('draw.editRotate', { degrees: 15 })
    await until(() => city(engine).draw.editing?.rotationDegrees === 15, 'the turn')
    expect(city(engine).draw.editing).toMatchObject({ undoDepth: 1, redoDepth: 0 })
  })
})
