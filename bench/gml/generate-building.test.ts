import { describe, expect, it } from 'vitest'
import { buildNavigationGraph } from '../../workers/indoor-route/build-navigation-graph'
import { parseIndoorGml } from '../../workers/indoor-route/gml-parser'
import { graphInfo } from '../../workers/indoor-route/navigation-graph'
import { type BuildingRecipe, generateBuilding, writeIndoorGml } from './generate-building'

const small: BuildingRecipe = {
  seed: 3,
  storeys: 3,
  corridorRows: 3,
  corridorColumns: 4,
  roomsPerJunction: 2,
  stairCores: 2,
  reverseShare: 0.3,
  storeyHeight: 3.5,
}

describe('generateBuilding', () => {
  it('is reproducible from its seed', () => {
    expect(generateBuilding(small)).toEqual(generateBuilding(small))
    expect(generateBuilding({ ...small, seed: 4 })).not.toEqual(generateBuilding(small))
  })

  it('makes one connected network with a storey per floor', () => {
    const info = graphInfo(buildNavigationGraph(generateBuilding(small)).graph)
    // Per storey: 12 junctions, 24 rooms, 2 stairs, 1 elevator.
    expect(info).toMatchObject({ states: 3 * 39, components: 1, storeys: 3 })
  })

  it('writes IndoorGML that our parser reads back to the same network', () => {
    const network = generateBuilding(small)
    const text = [...writeIndoorGml(network, { withCellGeometry: true, seed: 1 })].join('')
    const parsed = parseIndoorGml(text)
    expect(parsed.warnings).toEqual([])
    expect(parsed.states.map((state) => state.id)).toEqual(network.states.map((state) => state.id))
    expect(parsed.transitions.map((transition) => transition.connectsRefs)).toEqual(
      network.transitions.map((transition) => transition.connectsRefs),
    )
    const fromText = graphInfo(buildNavigationGraph(parsed).graph)
    const direct = graphInfo(buildNavigationGraph(network).graph)
    expect(fromText).toEqual(direct)
  })
})
