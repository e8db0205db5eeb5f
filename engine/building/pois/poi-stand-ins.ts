import {
  Color,
  DirectionalLight,
  HemisphereLight,
  type Object3D,
  OrthographicCamera,
  Scene,
  type Sphere,
  SRGBColorSpace,
  Vector3,
  type WebGLRenderer,
  WebGLRenderTarget,
} from 'three'

/**
 * A 3D POI is drawn as its model when the model's bounding sphere is at least this many pixels
 * in radius on the screen. Between this and {@link MODEL_MIN_PIXELS} it is drawn as its
 * stand-in: a picture of the model taken once per template, one screen quad, which costs a
 * fraction of the model's lit triangles (issue 16, P9: 3,000 small models cost more than the
 * building itself on a software GPU). From this size up the model is drawn as it is, turned by
 * its heading: the look up close is the model's.
 */
export const MODEL_NEAR_PIXELS = 24
/**
 * Below this many pixels of radius a 3D POI is a marker (its template's icon, clustered with
 * the others) like a 2D POI: a model that small reads as a dot.
 */
export const MODEL_MIN_PIXELS = 8

/** How one 3D POI is drawn this frame (the layer keeps one per POI in a byte array). */
export const DRAWN_AS = { marker: 0, model: 1, standIn: 2 } as const

/**
 * How a POI of a ready 3D template is drawn, by the screen radius of its model: the model near,
 * its stand-in further (once the template has one, and unless the POI is highlighted: the
 * selection and hover tints are the model's), a marker far.
 */
export function drawnAsFor(
  radiusPixels: number,
  hasStandIn: boolean,
  isHighlighted: boolean,
): number {
  if (radiusPixels < MODEL_MIN_PIXELS) return DRAWN_AS.marker
  if (radiusPixels >= MODEL_NEAR_PIXELS || !hasStandIn || isHighlighted) return DRAWN_AS.model
  return DRAWN_AS.standIn
}

/** Where the stand-in's picture is taken from: in front of the model (+z) and a little above. */
const VIEW_DIRECTION = new Vector3(0, 0.45, 1).normalize()

/**
 * Takes a model's stand-in picture: `root` seen along {@link VIEW_DIRECTION} under the
 * building's neutral lights, its bounding sphere filling `size` × `size` pixels, on a
 * transparent ground. Rows top first, colours sRGB and not premultiplied: ready for a 2D
 * canvas (the icon atlas). The renderer's target and clear colour are given back as they were.
 */
export function takeStandInPicture(
  renderer: WebGLRenderer,
  root: Object3D,
  sphere: Sphere,
  size: number,
): ImageData {
  const scene = new Scene()
  const hemisphere = new HemisphereLight(0xffffff, 0x6b6660, 2.2)
  const sun = new DirectionalLight(0xffffff, 1.6)
  sun.position.set(0.6, 1, 0.4)
  scene.add(hemisphere, sun)
  const parent = root.parent
  scene.add(root)
  const radius = sphere.radius
  const camera = new OrthographicCamera(-radius, radius, radius, -radius, 0.01, radius * 4)
  camera.position.copy(sphere.center).addScaledVector(VIEW_DIRECTION, radius * 2)
  camera.lookAt(sphere.center)
  camera.updateMatrixWorld()
  const target = new WebGLRenderTarget(size, size, { colorSpace: SRGBColorSpace })
  const previousTarget = renderer.getRenderTarget()
  const previousClear = renderer.getClearColor(new Color())
  const previousAlpha = renderer.getClearAlpha()
  const pixels = new Uint8Array(size * size * 4)
  try {
    renderer.setRenderTarget(target)
    renderer.setClearColor(0x000000, 0)
    renderer.clear()
    renderer.render(scene, camera)
    renderer.readRenderTargetPixels(target, 0, 0, size, size, pixels)
  } finally {
    renderer.setRenderTarget(previousTarget)
    renderer.setClearColor(previousClear, previousAlpha)
    target.dispose()
    scene.remove(root)
    parent?.add(root)
  }
  // GL reads rows bottom first; a canvas wants them top first.
  const picture = new ImageData(size, size)
  const row = size * 4
  for (let y = 0; y < size; y++)
    picture.data.set(pixels.subarray((size - 1 - y) * row, (size - y) * row), y * row)
  return picture
}
