import { Group } from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js'
import { type LibraryModelEntry, LibraryModelSet } from '../core/library-models'
import { loadPackageFile, type ViewerPackageData } from './package-data'

/** The project's library models as the viewer shows them. */
export interface ViewerLibraryModels {
  /** The placed models (add it to the scene). */
  group: Group
  /** How many models loaded (one whose file fails is left out, as in the editor). */
  shown: number
  /** Moves the playing animations on by the seconds since the last frame. */
  advance(deltaSeconds: number): void
}

/**
 * The project's model library in the offline viewer (GLB and SBM models placed in the city or
 * the building, issue 21): loaded by the engine's own model set (core/library-models.ts) from
 * the package's scripts, each placed by `place` (the building's scene metres, or the city's
 * longitude, latitude and height through the viewer's frame), and each saved animation
 * started as the editor starts it. Resolves once every model has loaded or failed.
 */
export async function loadLibraryModels(
  data: ViewerPackageData,
  place: (entry: LibraryModelEntry) => void,
): Promise<ViewerLibraryModels> {
  const group = new Group()
  const listed = data.library_models ?? []
  const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder)
  let settle = () => {}
  const settled = new Promise<void>((resolve) => {
    settle = resolve
  })
  const models: LibraryModelSet = new LibraryModelSet(
    {
      added: (entry) => {
        if (!entry.object) return
        place(entry)
        group.add(entry.object)
      },
      removed: (entry) => entry.object?.removeFromParent(),
      changed: () => {
        if (models.all().every((entry) => entry.loadState !== 'loading')) settle()
      },
    },
    // the package's script of the file: no fetch of local files under file://
    async (model) => {
      const bytes = await loadPackageFile(data, model.url)
      return loader.parseAsync(bytes.buffer as ArrayBuffer, '')
    },
  )
  models.set(
    listed.map((model) => ({
      id: model.id,
      url: model.file,
      position: model.position,
      headingDegrees: model.heading,
      scale: model.scale,
    })),
  )
  await settled
  const states = new Map(models.states().map((state) => [state.id, state]))
  for (const model of listed) {
    const clips = states.get(model.id)?.animation.clips.length ?? 0
    if (clips === 0) continue
    try {
      models.setAnimation(model.id, {
        clipIndex: Math.min(model.animation.clip, clips - 1),
        speed: model.animation.speed,
        isLooping: model.animation.loop,
        isPlaying: model.animation.autoplay,
      })
    } catch {
      // a setting the model cannot take: it stays on its first frame, as in the editor
    }
  }
  group.updateMatrixWorld(true)
  return {
    group,
    shown: models.all().filter((entry) => entry.loadState === 'success').length,
    advance: (deltaSeconds) => {
      models.advance(deltaSeconds)
    },
  }
}
