import type { CommandHandlers } from '../api/commands'
import { EngineError } from '../api/errors'
import type { WebGLInfo } from '../api/snapshot'
import type { EngineContext } from '../core/engine-context'

/**
 * The attributes of the one WebGL2 context the engine creates per canvas. A canvas keeps the
 * attributes of its first context, so the renderer must be handed this same context later.
 */
export const engineContextAttributes: WebGLContextAttributes = {
  alpha: false,
  antialias: true,
  depth: true,
  stencil: false,
  powerPreference: 'high-performance',
  preserveDrawingBuffer: false,
}

type EngineCanvas = HTMLCanvasElement | OffscreenCanvas

/** Reads what a WebGL2 context runs on; the unmasked renderer names the real GPU or SwiftShader. */
export function describeWebGL2(gl: WebGL2RenderingContext): WebGLInfo {
  const debugInfo = gl.getExtension('WEBGL_debug_renderer_info')
  return {
    isAvailable: true,
    version: String(gl.getParameter(gl.VERSION)),
    shadingLanguageVersion: String(gl.getParameter(gl.SHADING_LANGUAGE_VERSION)),
    vendor: String(gl.getParameter(debugInfo ? debugInfo.UNMASKED_VENDOR_WEBGL : gl.VENDOR)),
    renderer: String(gl.getParameter(debugInfo ? debugInfo.UNMASKED_RENDERER_WEBGL : gl.RENDERER)),
    maxTextureSizePixels: Number(gl.getParameter(gl.MAX_TEXTURE_SIZE)),
  }
}

/** Handlers of the `view.*` commands: the engine owns the canvas and its WebGL2 context. */
export function createViewHandlers(
  context: EngineContext,
  initialCanvas: EngineCanvas | undefined,
): Pick<CommandHandlers, 'view.attachCanvas' | 'view.probeWebGL'> {
  let canvas = initialCanvas ?? null
  let gl: WebGL2RenderingContext | null = null
  if (canvas) context.updateState({ view: { hasCanvas: true, webgl: null } })

  return {
    'view.attachCanvas': async ({ canvas: next }) => {
      canvas = next
      gl = null
      context.updateState({ view: { hasCanvas: next !== null, webgl: null } })
    },

    'view.probeWebGL': async () => {
      if (!canvas) throw new EngineError('view.noCanvas', 'No canvas is attached to the engine.')
      gl ??= canvas.getContext('webgl2', engineContextAttributes) as WebGL2RenderingContext | null
      const webgl: WebGLInfo = gl ? describeWebGL2(gl) : { isAvailable: false }
      context.updateState({ view: { hasCanvas: true, webgl } })
      return webgl
    },
  }
}
