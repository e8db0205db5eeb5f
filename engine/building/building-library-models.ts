import { Group } from 'three'
import type { CommandHandlers } from '../api/commands'
import type { LibraryModelCommands, LibraryModelState } from '../api/library-model-commands'
import { type LibraryModelEntry, LibraryModelSet } from '../core/library-models'
import type { BuildingView } from './building-view'

/**
 * Library models in the building scene (issue 21 item 6): glTF/SBM models placed in scene
 * metres, turned about the up axis and scaled, drawn by the building's own renderer, with their
 * glTF animations played by the same clock as in the city (core/library-models.ts). The view
 * draws on demand; while an animation plays, each frame asks for the next.
 */
export class BuildingLibraryModels {
  private readonly group = new Group()
  private readonly models: LibraryModelSet
  private lastFrameAtMs: number | null = null

  constructor(
    private readonly view: BuildingView,
    private readonly publish: () => void,
  ) {
    this.group.name = 'library-models'
    // placed on the building: they turn and scale with its placement
    view.placed.add(this.group)
    this.models = new LibraryModelSet({
      added: (entry) => {
        if (entry.object) this.group.add(entry.object)
      },
      removed: (entry) => {
        if (entry.object) this.group.remove(entry.object)
      },
      changed: () => {
        for (const entry of this.models.all()) placeInBuilding(entry)
        view.requestRender()
        publish()
      },
    })
  }

  /**
   * Moves the clocks on before a frame is drawn; asks for the next frame while one plays, and
   * publishes the clocks' times (and a clip that just played to its end): a render alone no
   * longer makes the snapshot's parts again.
   */
  beforeRender(): void {
    const nowMs = performance.now()
    const wasPlaying = this.lastFrameAtMs !== null
    const deltaSeconds = this.lastFrameAtMs === null ? 0 : (nowMs - this.lastFrameAtMs) / 1000
    const isPlaying = this.models.advance(deltaSeconds)
    if (isPlaying) {
      this.lastFrameAtMs = nowMs
      this.view.requestRender()
    } else {
      this.lastFrameAtMs = null
    }
    if (isPlaying || wasPlaying) this.publish()
  }

  /** The snapshot's part (`snapshot.building.libraryModels`). */
  states(): LibraryModelState[] {
    return this.models.states()
  }

  /** The command handlers. */
  handlers(): Pick<CommandHandlers, keyof LibraryModelCommands<'building'>> {
    return {
      'building.setLibraryModels': async ({ models }) => {
        this.models.set(models)
      },
      'building.setModelAnimation': async ({ id, ...patch }) => {
        this.models.setAnimation(id, patch)
        // a clock that starts now counts from this frame
        this.lastFrameAtMs = null
      },
    }
  }

  /** Frees every model (a closed building, a disposed engine). */
  clear(): void {
    this.models.set([])
  }

  dispose(): void {
    this.models.dispose()
    this.group.removeFromParent()
  }
}

/**
 * Scene metres, a clockwise heading about +Y seen from above, a uniform scale (the offline
 * viewer places a building's library models the same way).
 */
export function placeInBuilding(entry: LibraryModelEntry): void {
  const object = entry.object
  if (!object) return
  const { position, headingDegrees, scale } = entry.source
  object.position.set(position[0], position[1], position[2])
  object.rotation.set(0, (-headingDegrees * Math.PI) / 180, 0)
  object.scale.setScalar(scale)
  object.updateMatrixWorld(true)
}
