import {
  AmbientLight,
  Box3,
  CanvasTexture,
  Color,
  DirectionalLight,
  Euler,
  Group,
  type Object3D,
  PerspectiveCamera,
  Scene,
  SRGBColorSpace,
  Texture,
  Vector3,
  WebGLRenderer,
} from 'three'
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js'
import { placeInBuilding } from '../building/building-library-models'
import { type CityView, openCityView } from './city-view'
import { loadGmlNetwork } from './gml-network'
import { loadLibraryModels, type ViewerLibraryModels } from './library-models'
import { loadPackageData, loadPackageFile, type ViewerPackageData } from './package-data'
import { poiBillboards } from './poi-billboards'
import { addPoiModels } from './poi-models'
import { viewerText } from './viewer-text'
import { applyViewerStyle } from './viewer-style'

/**
 * The offline package's viewer (decisions.md "Formats"): opened from `index.html` on a disk,
 * with no server and no network. A building project shows its SBM models (each a GLB, read by
 * three.js's GLTFLoader on the main thread: module workers cannot start under `file://`) and
 * IndoorGML network; a city project its tilesets on its basemap (city-view.ts); both their
 * library models (animated as saved), the POIs (a 3D template's as its model, others as their
 * template's icon), the POI list, the project's style (viewer-style.ts) and the trial watermark.
 * Built as one classic script (vite.viewer.config.ts) because Chromium refuses module scripts
 * of local files.
 */
async function start(): Promise<void> {
  const text = viewerText(navigator.language)
  // the page speaks the browser's language (Korean then breaks lines between words)
  document.documentElement.lang = navigator.language
  const status = document.getElementById('status')!
  const data = await loadPackageData()
  document.title = `${data.manifest.project.name} - Twinscape`
  document.getElementById('project-name')!.textContent = data.manifest.project.name
  if (data.manifest.watermark) {
    const mark = document.getElementById('watermark')!
    mark.textContent = data.manifest.variant === 'trial' ? text.trialWatermark : text.watermark
    mark.hidden = false
  }

  const canvas = document.getElementById('scene') as HTMLCanvasElement
  const renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true })
  renderer.setPixelRatio(Math.min(2, window.devicePixelRatio))
  const scene = new Scene()
  // the look until the project's style is drawn (and if its sky cannot be)
  scene.background = new Color('#dfe6ee')
  const neutralLights = new Group()
  const sun = new DirectionalLight(0xffffff, 2)
  sun.position.set(50, 100, 30)
  neutralLights.add(new AmbientLight(0xffffff, 1.2), sun)
  scene.add(neutralLights)
  const camera = new PerspectiveCamera(50, 1, 0.1, 100_000)
  const controls = new OrbitControls(camera, canvas)
  const resize = () => {
    const { clientWidth, clientHeight } = canvas
    renderer.setSize(clientWidth, clientHeight, false)
    camera.aspect = clientWidth / Math.max(1, clientHeight)
    camera.updateProjectionMatrix()
  }
  window.addEventListener('resize', resize)
  resize()

  let bounds: Box3
  let city: CityView | null = null
  let library: ViewerLibraryModels
  let shown = 0
  if (data.manifest.project.kind === 'city') {
    status.textContent = text.loadingCity
    city = await openCityView(data, scene, camera, renderer, navigator.language)
    const { frame } = city
    library = await loadLibraryModels(data, ({ object, source }) => {
      frame
        .modelMatrix(source.position, source.headingDegrees, source.scale)
        .decompose(object!.position, object!.quaternion, object!.scale)
    })
    scene.add(library.group)
    const poiLayer = await addPois(data, scene, (poi) => frame.toWorld(poi.x, poi.y, poi.z), true)
    bounds = city.bounds.clone().union(new Box3().setFromObject(library.group))
    if (city.tilesets.count === 0 && data.pois.length > 0)
      bounds.union(new Box3().setFromObject(poiLayer))
  } else {
    const building = new Group()
    scene.add(building)
    const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder)
    for (const model of data.models.models) {
      if (!model.is_visible || model.file === undefined) continue
      status.textContent = text.loading(shown + 1, data.models.models.length)
      const bytes = await loadPackageFile(data, model.file)
      const gltf = await loader.parseAsync(bytes.buffer as ArrayBuffer, '')
      place(gltf.scene, model.position, model.rotation, model.scale)
      building.add(gltf.scene)
      shown++
    }
    library = await loadLibraryModels(data, placeInBuilding)
    scene.add(library.group)
    shown += library.shown
    const poiLayer = await addPois(data, scene, (poi) => new Vector3(poi.x, poi.y, poi.z), false)
    const network = await loadGmlNetwork(data, new Box3().setFromObject(building))
    if (network) {
      scene.add(network.group)
      network.group.updateMatrixWorld(true)
      const line = document.getElementById('network')!
      line.textContent = text.network(network.states)
      line.hidden = false
    }
    bounds = new Box3().setFromObject(building).union(new Box3().setFromObject(library.group))
    if (bounds.isEmpty() && network) bounds.setFromObject(network.group)
    if (bounds.isEmpty()) bounds.setFromObject(poiLayer)
  }
  if (bounds.isEmpty()) bounds.set(new Vector3(-10, -10, -10), new Vector3(10, 10, 10))
  const centre = bounds.getCenter(new Vector3())
  const radius = Math.max(1, bounds.getSize(new Vector3()).length())
  camera.position.copy(centre).add(new Vector3(radius * 0.8, radius * 0.6, radius * 0.8))
  camera.near = radius / 1000
  camera.far = radius * 20
  camera.updateProjectionMatrix()
  controls.target.copy(centre)
  controls.update()
  const style = applyViewerStyle(data, {
    scene,
    camera,
    renderer,
    controls,
    neutralLights,
    bounds,
    isCity: city !== null,
  })

  const cityView = city
  const doneText = cityView
    ? text.cityShown(cityView.tilesets.count, library.shown, data.pois.length)
    : text.shown(shown, data.pois.length)
  let isReady = false
  let lastFrameMs: number | null = null
  renderer.setAnimationLoop((nowMs) => {
    // the library models' animations move on by the time since the last frame
    library.advance(lastFrameMs === null ? 0 : (nowMs - lastFrameMs) / 1000)
    lastFrameMs = nowMs
    controls.update()
    camera.updateMatrixWorld()
    cityView?.tilesets.update()
    style.beforeRender()
    renderer.render(scene, camera)
    // ready once a frame shows the scene: for a city, with the tiles the first view asked for
    if (!isReady && (!cityView || cityView.tilesets.isSettled())) {
      isReady = true
      status.textContent = doneText
      // what a test, a bench (or a curious person in the console) reads to know the scene is up
      document.body.dataset.firstFrameMs = performance.now().toFixed(1)
      document.body.dataset.viewer = 'ready'
    }
  })
}

function place(
  object: Object3D,
  position: [number, number, number],
  rotation: [number, number, number],
  scale: [number, number, number],
): void {
  object.position.set(...position)
  object.rotation.copy(new Euler(...rotation))
  object.scale.set(...scale)
}

/**
 * Each POI of a 3D template as its model (poi-models.ts), each other POI as its template's icon
 * (a dot when it has none; all POIs of one icon in one draw call, poi-billboards.ts), and the
 * POI list. In a city the icons keep their size on screen (kilometres of city around them), as
 * online; the models are in metres there too, as online.
 */
async function addPois(
  data: ViewerPackageData,
  scene: Scene,
  positionOf: (poi: ViewerPackageData['pois'][number]) => Vector3,
  isScreenSized: boolean,
): Promise<Group> {
  const layer = new Group()
  scene.add(layer)
  const models = await addPoiModels(data, positionOf)
  layer.add(models.group)
  const templates = new Map(data.templates.map((template) => [template.id, template]))
  // the POIs that show each icon (null: a dot), drawn together
  const centresByIcon = new Map<string | null, Vector3[]>()
  const list = document.createDocumentFragment()
  for (const poi of data.pois) {
    const item = document.createElement('li')
    item.textContent = poi.name
    list.append(item)
    if (models.drawnIds.has(poi.id)) continue
    const iconPath = templates.get(poi.category_id)?.package.icon ?? null
    let centres = centresByIcon.get(iconPath)
    if (centres === undefined) {
      centres = []
      centresByIcon.set(iconPath, centres)
    }
    centres.push(positionOf(poi))
  }
  if (data.pois.length === 0) {
    // said in words: an empty list was a blank strip beside the scene
    const empty = document.createElement('li')
    empty.className = 'empty'
    empty.textContent = viewerText(navigator.language).noPois
    list.append(empty)
  }
  // one insertion, one layout
  document.getElementById('poi-list')!.append(list)
  for (const [iconPath, centres] of centresByIcon) {
    const texture = iconPath === null ? dotTexture() : await iconTexture(data, iconPath)
    layer.add(poiBillboards(texture, centres, { size: isScreenSized ? 0.05 : 2, isScreenSized }))
  }
  return layer
}

async function iconTexture(data: ViewerPackageData, path: string): Promise<Texture> {
  try {
    const bytes = await loadPackageFile(data, path)
    const bitmap = await createImageBitmap(new Blob([bytes.buffer as ArrayBuffer]))
    const texture = new Texture(bitmap)
    texture.colorSpace = SRGBColorSpace
    texture.needsUpdate = true
    return texture
  } catch {
    return dotTexture()
  }
}

function dotTexture(): Texture {
  const canvas = document.createElement('canvas')
  canvas.width = canvas.height = 64
  const context = canvas.getContext('2d')!
  context.fillStyle = '#1769e0'
  context.beginPath()
  context.arc(32, 32, 26, 0, Math.PI * 2)
  context.fill()
  const texture = new CanvasTexture(canvas)
  texture.colorSpace = SRGBColorSpace
  return texture
}

start().catch((error: unknown) => {
  const status = document.getElementById('status')
  if (status) status.textContent = viewerText(navigator.language).failed(String(error))
  document.body.dataset.viewer = 'failed'
})
