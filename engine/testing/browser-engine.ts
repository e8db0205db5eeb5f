import { afterEach } from 'vitest'
import { Engine } from '../core/engine'

/**
 * The start of a browser test of the engine: an engine on a real 320 × 240 canvas in the page
 * (real Chromium, WebGL2 on SwiftShader, the real workers), disposed with its canvas after each
 * test, and blob URLs for model bytes made in the test, revoked after it. Call it once at the
 * top of a test file.
 */
export function browserEngineFixture(): {
  startEngine(): Engine
  blobUrlOf(bytes: Uint8Array<ArrayBuffer> | Blob | string): string
} {
  const cleanups: (() => void)[] = []
  afterEach(() => {
    for (const cleanup of cleanups.splice(0).reverse()) cleanup()
  })
  return {
    startEngine() {
      const canvas = document.createElement('canvas')
      canvas.style.width = '320px'
      canvas.style.height = '240px'
      canvas.style.display = 'block'
      document.body.append(canvas)
      const engine = new Engine({ canvas })
      cleanups.push(() => {
        engine.dispose()
        canvas.remove()
      })
      return engine
    },
    blobUrlOf(bytes) {
      const url = URL.createObjectURL(bytes instanceof Blob ? bytes : new Blob([bytes]))
      cleanups.push(() => URL.revokeObjectURL(url))
      return url
    },
  }
}
