/**
 * Material overrides (issue 21 item 4): a material of the library drawn on one mesh of a
 * building model instead of the model's own, without touching the model file. The UI sends
 * every override of the open building (from `/materialManager/findMaterial`); the engine keeps
 * them across model loads and draws them as soon as the mesh is there.
 */

/** A PBR look: glTF's metal-rough model (three.js MeshStandardMaterial). */
export interface MaterialLook {
  /** `#rrggbb`, sRGB. */
  baseColor: string
  /** 0–1. */
  metalness: number
  /** 0–1. */
  roughness: number
  /** `#rrggbb`, sRGB; black is no glow. */
  emissive: string
  /** Image addresses (fetched by the engine); a missing one leaves that channel plain. */
  maps: {
    baseColor?: string
    normal?: string
    emissive?: string
    /** glTF packing: roughness in green, metalness in blue. */
    metalRough?: string
  }
}

/** One mesh drawn with a look; `meshName` is the name a pick reports (`BuildingPick.meshName`). */
export interface MaterialOverride {
  modelId: string
  meshName: string
  look: MaterialLook
}

/** The override part of the building snapshot (`snapshot.building.materials`). */
export interface MaterialOverrideState {
  /** Overrides set. */
  overrideCount: number
  /** Meshes of loaded models drawn with an override now. */
  appliedMeshCount: number
  /** Texture images still being fetched. */
  pendingTextureCount: number
  /** Texture addresses that failed to load (the channel stays plain). */
  failedTextureUrls: string[]
  /** Changes with every change above (tests wait on it). */
  revision: number
}

/** The override part before any was set. */
export function createInitialMaterialOverrideState(): MaterialOverrideState {
  return {
    overrideCount: 0,
    appliedMeshCount: 0,
    pendingTextureCount: 0,
    failedTextureUrls: [],
    revision: 0,
  }
}

/** Material commands of the building half. */
export interface MaterialCommands {
  /**
   * Replaces every material override of the open building. Meshes that lose theirs get their
   * own material back; models still loading get theirs when they arrive. Fails with
   * `engine.invalidArgument` on a malformed look (colours `#rrggbb`, factors 0–1).
   */
  'building.setMaterialOverrides': {
    args: { overrides: MaterialOverride[] }
    result: undefined
  }
}
