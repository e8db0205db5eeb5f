/**
 * The in-browser half of the building POI frame benchmark (bench/poi-building-frames.ts drives
 * it), built by Vite for production with the real SBM decode worker. One view (the engine's
 * `BuildingView`: renderer, camera) draws one seeded 8-floor building in three cases, rounds
 * rotating their order: `baseline` (no POIs), `ours` (the engine's `BuildingPoiLayer` with
 * 10,000 POIs, 2D and 3D mixed, labels and clusters) and `anchor` (one `THREE.Sprite` per POI,
 * the common three.js way). Each frame moves the camera along a fixed orbit, renders, and reads
 * one pixel back so the GPU work (SwiftShader) is inside the time. Then picking is timed among
 * 100,000 POIs.
 */
import {
  BoxGeometry,
  type BufferGeometry,
  CanvasTexture,
  Group,
  type InstancedBufferGeometry,
  type InstancedMesh,
  Mesh,
  type Object3D,
  MeshStandardMaterial,
  Sprite,
  SpriteMaterial,
} from 'three'
import { mergeGeometries } from 'three/examples/jsm/utils/BufferGeometryUtils.js'
import type { SbmDecodeWorkerApi } from '../../workers/sbm/sbm-decode.worker'
import type { PoiTemplateLook, ScenePoi } from '../../engine/api/poi-commands'
import { BuildingView } from '../../engine/building/building-view'
import { BuildingPoiLayer } from '../../engine/building/pois/poi-layer'
import { boxSbm } from '../../engine/building/testing/box-sbm'
import { createSbmDecodeWorker } from '../../engine/workers/building-workers'
import { createWorkerPool } from '../../engine/workers/create-worker-client'
import { quietRound } from '../lib/page-rounds'
import type { PoiFramesConfig, PoiFramesResult } from './poi-building-frames-protocol'

declare global {
  interface Window {
    runPoiFramesBench(config: PoiFramesConfig): Promise<PoiFramesResult>
    gc?: () => void
  }
}

const FLOORS = 8
const FLOOR_HEIGHT = 3.5
const HALF = 20
const COLOURS = ['#e53935', '#1e88e5', '#43a047']

/** A small deterministic generator, so every run places the same POIs. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let value = state
    value = Math.imul(value ^ (value >>> 15), value | 1)
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296
  }
}

/** Slabs and walls per floor, merged per floor (8 draw calls, like converted floors). */
function building(): Group {
  const root = new Group()
  const next = random(7)
  for (let floor = 0; floor < FLOORS; floor++) {
    const parts: BufferGeometry[] = []
    const slab = new BoxGeometry(HALF * 2, 0.3, HALF * 2)
    slab.translate(0, floor * FLOOR_HEIGHT, 0)
    parts.push(slab)
    for (let wall = 0; wall < 40; wall++) {
      const isAlongX = wall % 2 === 0
      const geometry = new BoxGeometry(isAlongX ? 6 : 0.2, FLOOR_HEIGHT - 0.3, isAlongX ? 0.2 : 6)
      geometry.translate(
        (next() * 2 - 1) * (HALF - 3),
        floor * FLOOR_HEIGHT + FLOOR_HEIGHT / 2,
        (next() * 2 - 1) * (HALF - 3),
      )
      parts.push(geometry)
    }
    const material = new MeshStandardMaterial({ color: 0x9e9e9e, roughness: 0.9 })
    root.add(new Mesh(mergeGeometries(parts)!, material))
  }
  return root
}

async function iconUrl(colour: string): Promise<string> {
  const canvas = new OffscreenCanvas(48, 48)
  const context = canvas.getContext('2d')!
  context.fillStyle = colour
  context.beginPath()
  context.arc(24, 24, 20, 0, Math.PI * 2)
  context.fill()
  return URL.createObjectURL(await canvas.convertToBlob({ type: 'image/png' }))
}

async function looks(): Promise<PoiTemplateLook[]> {
  const icons = await Promise.all(COLOURS.map(iconUrl))
  const model = (size: [number, number, number]) =>
    URL.createObjectURL(
      new Blob([boxSbm([{ name: 'body', size, centre: [0, size[1] / 2, 0] }], { role: 'model' })]),
    )
  return [
    { templateId: 's0', kind: '2D', iconUrl: icons[0]! },
    { templateId: 's1', kind: '2D', iconUrl: icons[1]! },
    { templateId: 's2', kind: '2D', iconUrl: icons[2]! },
    { templateId: 'c0', kind: '3D', iconUrl: icons[0]!, modelUrl: model([0.5, 0.5, 0.5]) },
    { templateId: 'c1', kind: '3D', iconUrl: icons[1]!, modelUrl: model([0.3, 0.8, 0.3]) },
  ]
}

function pois(count: number, share3d: number, seed: number): ScenePoi[] {
  const next = random(seed)
  const list: ScenePoi[] = []
  for (let index = 0; index < count; index++) {
    const floor = Math.floor(next() * FLOORS)
    const is3d = next() < share3d
    list.push({
      id: `poi-${index}`,
      templateId: is3d ? `c${index % 2}` : `s${index % 3}`,
      label: `${is3d ? 'Camera' : 'Sensor'} ${index}`,
      position: [
        (next() * 2 - 1) * (HALF - 1),
        floor * FLOOR_HEIGHT + 0.15,
        (next() * 2 - 1) * (HALF - 1),
      ],
      heading: Math.round(next() * 24) * 15 - 180,
      pitch: 0,
      roll: 0,
      floorId: `F${floor}`,
      groupId: is3d ? 'cameras' : 'sensors',
    })
  }
  return list
}

/** Draws as SwiftShader runs them: one per instance of an instanced draw, one per sprite. */
function rasterDraws(scene: Object3D): number {
  let draws = 0
  scene.traverseVisible((object) => {
    if (object.layers.mask === 0) return
    if ((object as Sprite).isSprite) draws++
    if (!(object as Mesh).isMesh) return
    const geometry = (object as Mesh).geometry as InstancedBufferGeometry
    if ((object as InstancedMesh).isInstancedMesh) draws += (object as InstancedMesh).count
    else if (geometry.isInstancedBufferGeometry) draws += geometry.instanceCount
    else draws++
  })
  return draws
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return Math.round((sorted[Math.floor(sorted.length / 2)] ?? 0) * 10) / 10
}

window.runPoiFramesBench = async (config) => {
  const canvas = document.getElementById('stage') as HTMLCanvasElement
  const decodePool = createWorkerPool<SbmDecodeWorkerApi>(createSbmDecodeWorker, { maxWorkers: 1 })
  let layer: BuildingPoiLayer | null = null
  const layerMs: number[] = []
  /** Names (prefixes) of the layer's meshes a diagnostic case leaves out of the draw. */
  let leftOut: readonly string[] = []
  const view = new BuildingView({
    onRendered: () => {},
    onCameraChanged: () => {},
    beforeRender: (camera, viewport) => {
      if (!layer?.group.parent) return
      const startedAt = performance.now()
      layer.beforeRender(camera, viewport)
      layerMs.push(performance.now() - startedAt)
      // layer mask 0: the camera skips the mesh, whatever the layer set its `visible` to
      for (const child of layer.group.children) {
        child.layers.mask = leftOut.some((prefix) => child.name.startsWith(prefix)) ? 0 : 1
      }
    },
  })
  view.attach(canvas)
  view.scene.add(building())
  const gl = canvas.getContext('webgl2') as WebGL2RenderingContext
  const pixel = new Uint8Array(4)
  const centre = [0, (FLOORS * FLOOR_HEIGHT) / 2, 0] as const

  const templateLooks = await looks()
  const drawn = pois(config.poiCount, config.share3d, 11)
  layer = new BuildingPoiLayer({
    decodePool,
    cssSize: () => view.cssSize(),
    requestRender: () => {},
    renderer: () => view.getRenderer(),
    onChange: () => {},
  })
  layer.setFloorVisibility(
    Array.from({ length: FLOORS }, (_, floor) => ({ id: `F${floor}`, isShown: true })),
    null,
  )
  layer.setLooks(templateLooks)
  layer.setPois(drawn)
  // Wait for the icons and both 3D models (each adds an instanced draw).
  const oursGroup = layer.group
  view.scene.add(oursGroup)
  for (let attempt = 0; attempt < 100; attempt++) {
    view.renderNow()
    if ((view.renderState()?.drawCalls ?? 0) >= FLOORS + 2 + 2) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  oursGroup.removeFromParent()

  const spriteMaterials = new Map<string, SpriteMaterial>()
  await Promise.all(
    templateLooks.map(async (look) => {
      const bitmap = await createImageBitmap(await (await fetch(look.iconUrl)).blob())
      const texture = new CanvasTexture(bitmap as unknown as HTMLCanvasElement)
      spriteMaterials.set(look.templateId, new SpriteMaterial({ map: texture }))
    }),
  )
  const anchorGroup = new Group()
  for (const poi of drawn) {
    const sprite = new Sprite(spriteMaterials.get(poi.templateId))
    sprite.position.fromArray(poi.position)
    sprite.scale.setScalar(0.6)
    anchorGroup.add(sprite)
  }

  const oursWithout = (prefixes: readonly string[]) => () => {
    leftOut = prefixes
    view.scene.add(oursGroup)
  }
  const cases: Record<string, () => void> = {
    baseline: () => {},
    ours: oursWithout([]),
    anchor: () => view.scene.add(anchorGroup),
    ...(config.partCases
      ? {
          'ours-no-models': oursWithout(['poi-model:']),
          'ours-no-labels': oursWithout(['poi-labels']),
          'ours-no-markers': oursWithout(['poi-markers']),
          'ours-cpu-only': oursWithout(['poi-']),
        }
      : {}),
  }
  const names = Object.keys(cases).filter(
    (name) => !config.caseNames || config.caseNames.includes(name),
  )
  const frames: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]))
  const drawCalls: Record<string, number> = Object.fromEntries(names.map((name) => [name, 0]))
  const swiftShaderDraws: Record<string, number> = Object.fromEntries(
    names.map((name) => [name, 0]),
  )
  const triangles: Record<string, number> = Object.fromEntries(names.map((name) => [name, 0]))
  const frame = (step: number) => {
    const angle = (step / config.framesPerRound) * Math.PI * 2
    const position = [Math.cos(angle) * 55, 38 + Math.sin(angle * 2) * 8, Math.sin(angle) * 55]
    view.setCamera(position, centre)
    view.renderNow()
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel)
  }
  for (let round = 0; round < config.warmupRounds + config.rounds; round++) {
    for (let offset = 0; offset < names.length; offset++) {
      const name = names[(round + offset) % names.length]!
      cases[name]!()
      window.gc?.()
      const isTimed = round >= config.warmupRounds
      await quietRound(
        `${name} round ${round + 1}`,
        async () => {
          frame(0)
          for (let step = 0; step < config.framesPerRound; step++) {
            const startedAt = performance.now()
            frame(step)
            const took = performance.now() - startedAt
            if (isTimed) frames[name]!.push(took)
          }
        },
        isTimed,
      )
      drawCalls[name] = view.renderState()?.drawCalls ?? 0
      triangles[name] = view.renderState()?.triangles ?? 0
      swiftShaderDraws[name] = rasterDraws(view.scene)
      if (round < config.warmupRounds) layerMs.length = 0
      console.log(`[poi-frames] round ${round} ${name}: median ${median(frames[name]!)} ms`)
      oursGroup.removeFromParent()
      anchorGroup.removeFromParent()
      leftOut = []
    }
  }

  // Picking among 100,000: the engine's pick, fresh projection with the current camera.
  view.scene.add(oursGroup)
  layer.setPois(pois(config.pickPoiCount, config.share3d, 13))
  view.setCamera([0, 90, 40], centre)
  view.renderNow()
  const next = random(5)
  const { width, height } = view.cssSize()
  const pickMs: number[] = []
  let hits = 0
  for (let round = 0; round < config.rounds; round++) {
    await quietRound(`pick round ${round + 1}`, async () => {
      for (let pick = 0; pick < config.picksPerRound; pick++) {
        const x = next() * width
        const y = next() * height
        const startedAt = performance.now()
        const id = layer!.pickAt(view.camera, x, y)
        pickMs.push(performance.now() - startedAt)
        if (id) hits++
      }
    })
  }
  layer.dispose()
  decodePool.dispose()
  view.dispose()
  return {
    frames,
    drawCalls,
    rasterDraws: swiftShaderDraws,
    triangles,
    layerMs,
    pickMs,
    pickHitShare: hits / pickMs.length,
  }
}
