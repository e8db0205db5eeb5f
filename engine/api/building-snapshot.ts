/** What the UI may know about the open building scene (plain, JSON-safe). */
export interface BuildingSnapshot {
  readonly isOpen: boolean
}

export function createInitialBuildingSnapshot(): BuildingSnapshot {
  return { isOpen: false }
}
