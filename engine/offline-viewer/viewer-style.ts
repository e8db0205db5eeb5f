import { type Box3, type PerspectiveCamera, type Scene, Vector2, type WebGLRenderer } from 'three'
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js'
import { defaultStyleSetting, type StyleSetting } from '../../contract/style'
import type { SceneStyle } from '../api/style-commands'
import { StyleController, type StyleView } from '../building/style/style-controller'
import { styleProblem } from '../core/style-problem'
import { sceneStyleOf } from '../core/style-setting'
import type { ViewerPackageData } from './package-data'

/** The style part of the viewer's frame loop. */
export interface ViewerStyle {
  /** Before each render: rain and snow follow the camera. */
  beforeRender(): void
}

/**
 * The project's style in the offline viewer: sky, lights, fog, weather and the building's ground,
 * drawn by the online building preview's own StyleController over the viewer's scene (one
 * implementation, so a package looks as the preview does). A package without a saved style
 * shows the defaults, as the preview does. A city keeps its basemap as its ground: online the
 * city draws no ground style either. Call once the camera frames the scene (`bounds`).
 */
export function applyViewerStyle(
  data: ViewerPackageData,
  parts: {
    scene: Scene
    camera: PerspectiveCamera
    renderer: WebGLRenderer
    controls: OrbitControls
    neutralLights: { visible: boolean }
    bounds: Box3
    isCity: boolean
  },
): ViewerStyle {
  const { scene, camera, renderer, controls } = parts
  const view: StyleView = {
    scene,
    target: controls.target,
    neutralLights: parts.neutralLights,
    framedRadius: Math.max(1, camera.position.distanceTo(controls.target)),
    getRenderer: () => renderer,
    distance: () => camera.position.distanceTo(controls.target),
    // the viewer draws every frame: nothing to schedule
    setAnimating: () => {},
    requestRender: () => {},
    renderNow: () => {
      renderer.render(scene, camera)
      return true
    },
    setMouseSpeed: (speed) => {
      controls.rotateSpeed = speed
      controls.panSpeed = speed
    },
  }
  const controller = new StyleController(view, () => {})
  controller.fitTo(parts.bounds)
  const style = projectStyle(data)
  controller.apply(parts.isCity ? { ...style, ground: 'none' } : style)
  const viewport = new Vector2()
  return {
    beforeRender: () => controller.beforeRender(camera, renderer.getDrawingBufferSize(viewport)),
  }
}

/** The package's saved style over the defaults; the defaults when it cannot be drawn. */
function projectStyle(data: ViewerPackageData): SceneStyle {
  const saved = (data.style?.setting ?? {}) as Partial<StyleSetting>
  const style = sceneStyleOf({ ...defaultStyleSetting, ...saved })
  return styleProblem(style) === null ? style : sceneStyleOf(defaultStyleSetting)
}
