import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import vm from 'node:vm'
import { Logger, NodeIO } from '@gltf-transform/core'
import { ALL_EXTENSIONS } from '@gltf-transform/extensions'
import { MeshoptDecoder } from 'meshoptimizer/decoder'
import { MeshoptEncoder } from 'meshoptimizer/encoder'

const require = createRequire(import.meta.url)

/**
 * Loads the Draco decoder three.js ships (the glTF build of Google's WebAssembly decoder). It is
 * an Emscripten script that assigns `module.exports`, while three's package is ESM-only, so it
 * runs in its own VM context with a CommonJS-shaped `module`. Null when it cannot be loaded: the
 * converter then refuses Draco files by name instead of failing obscurely.
 */
async function loadDracoDecoder(): Promise<unknown | null> {
  try {
    // three's export map opens examples/jsm/* but not package.json, so resolve a file in it.
    const folder = dirname(require.resolve('three/examples/jsm/libs/draco/gltf/draco_decoder.wasm'))
    const [wrapperSource, wasmBinary] = await Promise.all([
      readFile(join(folder, 'draco_wasm_wrapper.js'), 'utf8'),
      readFile(join(folder, 'draco_decoder.wasm')),
    ])
    const module = { exports: {} as unknown }
    vm.runInNewContext(
      wrapperSource,
      {
        module,
        exports: module.exports,
        console,
        WebAssembly,
        performance,
        setTimeout,
        TextDecoder,
      },
      { filename: 'draco_wasm_wrapper.js' },
    )
    const factory = module.exports as (options: { wasmBinary: Uint8Array }) => Promise<unknown>
    return await factory({ wasmBinary: new Uint8Array(wasmBinary) })
  } catch {
    return null
  }
}

/** The configured glTF I/O and which optional decoders this process actually has. */
export interface ModelCodecs {
  io: NodeIO
  hasDracoDecoder: boolean
  meshoptEncoder: typeof MeshoptEncoder
}

let codecs: Promise<ModelCodecs> | null = null

/**
 * One NodeIO for the process with every extension glTF-Transform knows and the decoders and
 * encoders they need, created on first use (the WebAssembly modules take a few ms to start).
 */
export function loadModelCodecs(): Promise<ModelCodecs> {
  codecs ??= (async () => {
    await Promise.all([MeshoptDecoder.ready, MeshoptEncoder.ready])
    const draco = await loadDracoDecoder()
    // Silent: glTF-Transform's notes (unknown optional extensions, prune counts) would flood
    // server logs; whatever matters to the user is reported in the conversion summary.
    const io = new NodeIO()
      .setLogger(new Logger(Logger.Verbosity.SILENT))
      .registerExtensions(ALL_EXTENSIONS)
      .registerDependencies({
        'meshopt.decoder': MeshoptDecoder,
        'meshopt.encoder': MeshoptEncoder,
        ...(draco ? { 'draco3d.decoder': draco } : {}),
      })
    return { io, hasDracoDecoder: draco !== null, meshoptEncoder: MeshoptEncoder }
  })()
  return codecs
}
