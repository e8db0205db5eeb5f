import { afterEach, describe, expect, it } from 'vitest'
import { findExtractedFile } from '../../workers/unzip/extracted-archive'
import { sampleBytes, zipOf } from '../../workers/unzip/zip-test-fixtures'
import { EngineError } from '../api/errors'
import { Engine } from './engine'

/** The engine as the app runs it: real module workers, real canvas, real WebGL2 (SwiftShader). */
const engines: Engine[] = []
afterEach(() => {
  for (const engine of engines.splice(0)) engine.dispose()
})

describe('Engine in Chromium', () => {
  it('reports the WebGL2 context of the canvas it owns', async () => {
    const canvas = document.createElement('canvas')
    const engine = new Engine({ canvas })
    engines.push(engine)
    const webgl = await engine.run('view.probeWebGL')
    expect(webgl.isAvailable).toBe(true)
    if (!webgl.isAvailable) return
    expect(webgl.version).toMatch(/^WebGL 2\.0/)
    expect(webgl.shadingLanguageVersion).toMatch(/GLSL ES 3\.00/)
    expect(webgl.renderer.length).toBeGreaterThan(0)
    expect(webgl.maxTextureSizePixels).toBeGreaterThanOrEqual(2048)
    // The context is the engine's: asking the canvas again returns the same one.
    expect(canvas.getContext('webgl2')).not.toBeNull()
    await expect.poll(() => engine.getSnapshot().view.webgl).toEqual(webgl)

    await engine.run('view.attachCanvas', { canvas: null })
    const error = await engine.run('view.probeWebGL').catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(EngineError)
    expect((error as EngineError).code).toBe('view.noCanvas')
  })

  it('extracts an uploaded File on the real unzip worker', async () => {
    const engine = new Engine()
    engines.push(engine)
    const model = sampleBytes(500_000)
    const file = new File([zipOf({ 'Duck.glb': model, 'readme.txt': 'duck' })], 'duck.zip')
    const progressed: number[] = []
    engine.on('archive.progressed', (event) => progressed.push(event.doneBytes))
    const archive = await engine.run('archive.extract', { source: file })
    const duck = findExtractedFile(archive, 'Duck.glb')!
    expect(duck.byteLength).toBe(model.byteLength)
    expect(duck.every((byte, index) => byte === model[index])).toBe(true)
    await expect.poll(() => progressed.at(-1)).toBe(model.byteLength + 4)
  })
})
