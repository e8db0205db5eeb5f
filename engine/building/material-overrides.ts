import {
  Color,
  type Material,
  Mesh,
  MeshStandardMaterial,
  type Object3D,
  SRGBColorSpace,
  type Texture,
  TextureLoader,
} from 'three'
import { EngineError } from '../api/errors'
import type {
  MaterialLook,
  MaterialOverride,
  MaterialOverrideState,
} from '../api/material-commands'

/** Where a model's decoded mesh names are kept on its three.js root (set at load). */
export const meshNamesKey = 'sbmMeshNames'

const hexColor = /^#[0-9a-fA-F]{6}$/

/** The name a pick reports for a mesh (pick-controller.ts names meshes the same way). */
function meshNameOf(mesh: Mesh, meshNames: readonly string[] | undefined): string {
  const meshIndex = mesh.userData.meshIndex as number | undefined
  if (mesh.name) return mesh.name
  const fromFile = meshIndex === undefined ? undefined : meshNames?.[meshIndex]
  return fromFile || `mesh ${meshIndex}`
}

/** Why a look cannot be drawn, or null. */
export function lookProblem(look: MaterialLook): string | null {
  if (!look || typeof look !== 'object') return 'a look is missing'
  if (!hexColor.test(look.baseColor) || !hexColor.test(look.emissive)) {
    return 'colours must be #rrggbb'
  }
  for (const factor of [look.metalness, look.roughness]) {
    if (!(factor >= 0 && factor <= 1)) return 'metalness and roughness must be between 0 and 1'
  }
  if (!look.maps || typeof look.maps !== 'object') return 'maps must be an object'
  return null
}

/**
 * Draws material overrides on the meshes of an open building: one shared three.js material per
 * distinct look, textures fetched once per address. The model's own materials are kept on the
 * mesh (`userData`) and put back when an override goes, so nothing of the model is lost.
 */
export class MaterialOverrides {
  private overrides = new Map<string, MaterialLook>()
  private readonly materials = new Map<string, MeshStandardMaterial>()
  private readonly textures = new Map<string, Texture>()
  private readonly failedUrls = new Set<string>()
  private pendingTextureCount = 0
  private appliedMeshCount = 0
  private revision = 0
  private readonly loader = new TextureLoader()

  constructor(
    private readonly requestRender: () => void,
    private readonly onChange: () => void,
  ) {}

  /** Replaces every override (checked first: a bad one changes nothing). */
  set(overrides: readonly MaterialOverride[]): void {
    if (!Array.isArray(overrides)) throw invalid('Overrides must be a list.')
    const next = new Map<string, MaterialLook>()
    for (const override of overrides) {
      if (typeof override?.modelId !== 'string' || typeof override.meshName !== 'string') {
        throw invalid('Each override needs a model id and a mesh name.')
      }
      const problem = lookProblem(override.look)
      if (problem) throw invalid(`Material override: ${problem}.`)
      next.set(keyOf(override.modelId, override.meshName), override.look)
    }
    this.overrides = next
    this.revision++
  }

  /** Applies the overrides to every model under `root` (the building's group). */
  apply(root: Object3D | undefined): void {
    let applied = 0
    const used = new Set<string>()
    for (const model of root?.children ?? []) {
      const meshNames = model.userData[meshNamesKey] as string[] | undefined
      if (!meshNames) continue
      for (const child of model.children) {
        if (!(child instanceof Mesh)) continue
        const look = this.overrides.get(keyOf(model.name, meshNameOf(child, meshNames)))
        const own = child.userData.ownMaterial as Material | undefined
        if (look) {
          if (!own) child.userData.ownMaterial = child.material
          const lookKey = JSON.stringify(look)
          used.add(lookKey)
          child.material = this.materialOf(lookKey, look)
          applied++
        } else if (own) {
          child.material = own
          delete child.userData.ownMaterial
        }
      }
    }
    // looks nobody uses any more
    for (const [lookKey, material] of this.materials) {
      if (!used.has(lookKey) && !this.isLookSet(lookKey)) {
        material.dispose()
        this.materials.delete(lookKey)
      }
    }
    if (applied !== this.appliedMeshCount) {
      this.appliedMeshCount = applied
      this.revision++
    }
    this.requestRender()
  }

  /** The snapshot part. */
  state(): MaterialOverrideState {
    return {
      overrideCount: this.overrides.size,
      appliedMeshCount: this.appliedMeshCount,
      pendingTextureCount: this.pendingTextureCount,
      failedTextureUrls: [...this.failedUrls].sort(),
      revision: this.revision,
    }
  }

  /** Frees the materials and textures (the building closed). */
  dispose(): void {
    for (const material of this.materials.values()) material.dispose()
    for (const texture of this.textures.values()) texture.dispose()
    this.materials.clear()
    this.textures.clear()
    this.overrides.clear()
    this.appliedMeshCount = 0
    this.revision++
  }

  private isLookSet(lookKey: string): boolean {
    for (const look of this.overrides.values()) if (JSON.stringify(look) === lookKey) return true
    return false
  }

  private materialOf(lookKey: string, look: MaterialLook): MeshStandardMaterial {
    const existing = this.materials.get(lookKey)
    if (existing) return existing
    const metalRough = this.textureOf(look.maps.metalRough, false)
    const normalMap = this.textureOf(look.maps.normal, false)
    const material = new MeshStandardMaterial({
      name: 'override',
      color: new Color(look.baseColor),
      metalness: look.metalness,
      roughness: look.roughness,
      emissive: new Color(look.emissive),
      map: this.textureOf(look.maps.baseColor, true),
      emissiveMap: this.textureOf(look.maps.emissive, true),
      metalnessMap: metalRough,
      roughnessMap: metalRough,
      normalMap,
    })
    this.materials.set(lookKey, material)
    return material
  }

  private textureOf(url: string | undefined, isColor: boolean): Texture | null {
    if (!url) return null
    const key = `${isColor ? 'srgb' : 'linear'} ${url}`
    const existing = this.textures.get(key)
    if (existing) return existing
    this.pendingTextureCount++
    this.revision++
    const settle = () => {
      this.pendingTextureCount--
      this.revision++
      this.requestRender()
      this.onChange()
    }
    const texture = this.loader.load(
      url,
      () => settle(),
      undefined,
      () => {
        this.failedUrls.add(url)
        settle()
      },
    )
    // glTF's texture convention, like the SBM's own (uv origin at the top)
    texture.flipY = false
    if (isColor) texture.colorSpace = SRGBColorSpace
    this.textures.set(key, texture)
    return texture
  }
}

function keyOf(modelId: string, meshName: string): string {
  return `${modelId}\u0000${meshName}`
}

function invalid(message: string): EngineError {
  return new EngineError('engine.invalidArgument', message)
}
