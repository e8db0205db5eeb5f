import type { BuildingModelRole } from '../api/building-snapshot'

/** The switches the user set, as the visibility rules read them. */
export interface VisibilityInput {
  floors: readonly { id: string; elevationMeters: number; isVisible: boolean }[]
  selectedFloorId: string | null
  shell: { modelId: string | null; isVisible: boolean; opacity: number }
  models: readonly {
    id: string
    role: BuildingModelRole
    floorId: string | null
    isVisible: boolean
  }[]
}

/** What is drawn: per floor, per model, and the shell. */
export interface VisibilityResult {
  floorShown: Map<string, boolean>
  modelShown: Map<string, boolean>
  isShellShown: boolean
}

/**
 * The floor-select rules: choosing a floor isolates it. A floor is drawn when its own switch is
 * on and either no floor is selected or it is the selected one; the shell is drawn when its
 * switch is on, no floor is selected (the point of selecting a floor is to look into it) and it
 * is not fully transparent; a model is drawn when its own switch is on and so is whatever holds
 * it (its floor, the shell for the shell model, and for a model on no floor: no selection).
 * Isolating rather than "this floor and the ones below" also works when floors share an
 * elevation, as floors made from plain uploads do until someone sets their heights.
 */
export function computeVisibility(input: VisibilityInput): VisibilityResult {
  const selected = input.floors.find((floor) => floor.id === input.selectedFloorId)
  const floorShown = new Map<string, boolean>()
  for (const floor of input.floors) {
    const isOtherThanSelection = selected !== undefined && floor.id !== selected.id
    floorShown.set(floor.id, floor.isVisible && !isOtherThanSelection)
  }
  const isShellShown = input.shell.isVisible && selected === undefined && input.shell.opacity > 0
  const modelShown = new Map<string, boolean>()
  for (const model of input.models) {
    let isHolderShown = true
    if (model.id === input.shell.modelId || model.role === 'shell') isHolderShown = isShellShown
    else if (model.floorId !== null) isHolderShown = floorShown.get(model.floorId) ?? true
    else isHolderShown = selected === undefined
    modelShown.set(model.id, model.isVisible && isHolderShown)
  }
  return { floorShown, modelShown, isShellShown }
}

/** Floors ordered bottom-up (by elevation, then by their order in the description). */
export function sortFloorsBottomUp<Floor extends { elevationMeters: number }>(
  floors: readonly Floor[],
): Floor[] {
  return floors
    .map((floor, index) => ({ floor, index }))
    .sort((a, b) => a.floor.elevationMeters - b.floor.elevationMeters || a.index - b.index)
    .map(({ floor }) => floor)
}
