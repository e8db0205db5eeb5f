import { describe, expect, it } from 'vitest'
import { readRealFile, readTwoStoreyFixture, realFiles, testGml } from './fixtures/test-gml'
import { type BuiltNavigationGraph, storeyFromDescription } from './build-navigation-graph'
import { loadIndoorGml } from './load-indoor-gml'
import { EdgeKind, graphInfo, type NavigationGraph } from './navigation-graph'
import { findRoute, indexStates, type RouteResult } from './route'
import { ShortestPathSearch } from './shortest-path'

function route(built: BuiltNavigationGraph, from: string, to: string): RouteResult {
  const graph = built.graph
  return findRoute(graph, indexStates(graph), new ShortestPathSearch(graph), from, to)
}

/** Components using Transitions only, to check the file's own connectivity. */
function transitionComponentSizes(graph: NavigationGraph): number[] {
  const parent = graph.stateIds.map((_, index) => index)
  const find = (node: number): number => {
    while (parent[node] !== node) node = parent[node] = parent[parent[node]!]!
    return node
  }
  graph.edgeKinds.forEach((kind, edge) => {
    if (kind === EdgeKind.transition)
      parent[find(graph.edgeFrom[edge]!)] = find(graph.edgeTo[edge]!)
  })
  const sizes = new Map<number, number>()
  for (let node = 0; node < graph.stateIds.length; node++) {
    sizes.set(find(node), (sizes.get(find(node)) ?? 0) + 1)
  }
  return [...sizes.values()].sort((a, b) => b - a)
}

describe('FJK-Haus', () => {
  const built = loadIndoorGml(readRealFile(realFiles.fjkHaus))

  it('routes R10 "004" to R21 "202" over two floors along the LineStrings: 13.367', () => {
    const result = route(built, 'R10', 'R21')
    expect(result.path).toEqual(['R10', 'R3', 'R12', 'R23', 'R21'])
    if (result.path === null) return
    expect(result.length).toBeCloseTo(13.367, 3)
    expect(result.floorChanges).toEqual([
      { index: 2, fromStateId: 'R3', toStateId: 'R12', fromStorey: '1', toStorey: '2' },
      { index: 3, fromStateId: 'R12', toStateId: 'R23', fromStorey: '2', toStorey: '3' },
    ])
    // The polyline starts at R10, ends at R21, and is as long as the route.
    const polyline = result.polyline
    expect(Array.from(polyline.slice(0, 3))).toEqual([445541.320800571, 5444901.07268952, -2.02])
    expect(Array.from(polyline.slice(-3))).toEqual([445537.477957622, 5444906.82051002, 3.44])
    let length = 0
    for (let offset = 3; offset < polyline.length; offset += 3) {
      length += Math.hypot(
        polyline[offset]! - polyline[offset - 3]!,
        polyline[offset + 1]! - polyline[offset - 2]!,
        polyline[offset + 2]! - polyline[offset - 1]!,
      )
    }
    expect(length).toBeCloseTo(result.length, 9)
  })

  it('merges its directed Transition pairs into one undirected edge per State pair', () => {
    const info = graphInfo(built.graph)
    expect(info).toMatchObject({ states: 14, transitions: 30, edges: 14, components: 1 })
    // Walking back gives the same length as walking there.
    const back = route(built, 'R21', 'R10')
    expect(back.path).toEqual(['R21', 'R23', 'R12', 'R3', 'R10'])
    expect(back.path && back.length).toBeCloseTo(13.367, 3)
  })

  it('answers a route from a State to itself with that State and length 0', () => {
    const result = route(built, 'R10', 'R10')
    expect(result).toMatchObject({ path: ['R10'], length: 0, floorChanges: [] })
    expect(result.path && Array.from(result.polyline)).toEqual([
      445541.320800571, 5444901.07268952, -2.02,
    ])
  })

  it('derives its three storeys from the z levels (names 0xx, 1xx, 2xx)', () => {
    expect(
      built.graph.storeys.map(({ label, elevation, source }) => [label, elevation, source]),
    ).toEqual([
      ['1', -2.02, 'elevation'],
      ['2', 0.66, 'elevation'],
      ['3', 3.44, 'elevation'],
    ])
    const storeyOf = (id: string) =>
      built.graph.storeys[built.graph.stateStoreys[built.graph.stateIds.indexOf(id)]!]!.label
    expect(['R1', 'R10', 'R12', 'R21'].map(storeyOf)).toEqual(['1', '1', '2', '3'])
    expect(built.graph.stateNames[built.graph.stateIds.indexOf('R21')]).toBe('202')
    expect(built.graph.stateCells[built.graph.stateIds.indexOf('R21')]).toBe('C21')
  })
})

describe('PNU-201', () => {
  const built = loadIndoorGml(readRealFile(realFiles.pnu))

  it('measures routes by geometry although every weight in the file is 0', () => {
    const result = route(built, 'S1', 'S83')
    expect(result.path).not.toBeNull()
    if (result.path) expect(result.length).toBeGreaterThan(10)
  })

  it('answers {path: null} for the isolated S26 and reports its dangling T88', () => {
    const result = route(built, 'S1', 'S26')
    expect(result).toMatchObject({ path: null, reason: 'unreachable' })
    expect(built.warnings).toContainEqual(
      expect.objectContaining({ code: 'danglingReference', elementId: 'S26' }),
    )
    expect(graphInfo(built.graph)).toMatchObject({
      states: 80,
      transitions: 184,
      components: 2,
      largestComponent: 79,
      isolatedStates: 1,
    })
  })

  it('takes storeys 1, 2, 3 from the storey="…" descriptions', () => {
    expect(
      built.graph.storeys.map(({ label, elevation, source }) => [label, elevation, source]),
    ).toEqual([
      ['1', 0, 'description'],
      ['2', 20, 'description'],
      ['3', 40, 'description'],
    ])
  })

  it('reports a floor change on a route between storeys', () => {
    const graph = built.graph
    const onStorey = (label: string) =>
      graph.stateIds.find(
        (_, node) =>
          graph.storeys[graph.stateStoreys[node]!]!.label === label &&
          graph.componentOf[node] === graph.componentOf[0],
      )!
    const result = route(built, onStorey('1'), onStorey('3'))
    expect(result.path).not.toBeNull()
    if (!result.path) return
    const storeys = result.floorChanges.map((change) => change.toStorey)
    expect(storeys.at(-1)).toBe('3')
    expect(result.storeys[0]).toBe('1')
  })
})

describe('KU-Central-Plaza', () => {
  const built = loadIndoorGml(readRealFile(realFiles.kuCentralPlaza))

  it('loads its 3 SpaceLayers and joins them through the 36 InterLayerConnections', () => {
    const info = graphInfo(built.graph)
    expect(info.layerIds).toEqual(['base', 'PSInstallation', 'Nonnavi'])
    expect(info.interLayerConnections).toBe(36)
    expect(info.states).toBe(88)
    expect(info.components).toBe(1)
    const interLayerEdges = built.graph.edgeKinds.filter((kind) => kind === EdgeKind.interLayer)
    expect(interLayerEdges.length).toBe(36)
  })

  it('keeps the file’s own Transition connectivity: a 52-State network and 24 + 12 States without Transitions', () => {
    const sizes = transitionComponentSizes(built.graph)
    expect(sizes[0]).toBe(52)
    expect(sizes.slice(1).every((size) => size === 1)).toBe(true)
    expect(sizes.length - 1).toBe(24 + 12)
  })

  it('routes from a non-navigable space into the corridor network through its inter-layer edge', () => {
    const result = route(built, 'S53', 'S1')
    expect(result.path?.[0]).toBe('S53')
    expect(result.path?.[1]).toBe('S2')
    expect(result.path?.at(-1)).toBe('S1')
  })
})

describe('KU-EngBuilding (broken references)', () => {
  const built = loadIndoorGml(readRealFile(realFiles.kuEngBuilding))

  it('repairs both kinds of broken reference and reports each repair', () => {
    expect(built.repairCount).toBe(24)
    expect(built.warnings).toEqual([])
    expect(built.repairs).toContainEqual(
      expect.objectContaining({
        kind: 'stateConnectsBySuffix',
        elementId: 'SL0_ST0',
        reference: 'TCell1-Cell2',
        resolvedTo: 'SL0_TCell1-Cell2',
      }),
    )
    expect(built.repairs).toContainEqual(
      expect.objectContaining({
        kind: 'transitionEndpointViaDuality',
        elementId: 'SL0_TCell1-Cell2',
        reference: 'Cell1',
        resolvedTo: 'SL0_ST0',
      }),
    )
  })

  it('yields a connected 7-State tree', () => {
    expect(graphInfo(built.graph)).toMatchObject({ states: 7, edges: 6, components: 1 })
    expect(route(built, 'SL0_ST5', 'SL0_ST6').path).toEqual([
      'SL0_ST5',
      'SL0_ST1',
      'SL0_ST0',
      'SL0_ST3',
      'SL0_ST6',
    ])
  })
})

describe('refusals and repairs on written-to-order files', () => {
  it('refuses the primal-space-only KU file: GML has no navigation network', () => {
    expect(() => loadIndoorGml(readRealFile(realFiles.noDualGraph))).toThrow(
      expect.objectContaining({
        code: 'gml.noNavigationNetwork',
        message: expect.stringMatching(/^GML has no navigation network/),
      }),
    )
  })

  it('keeps the shorter geometry of a directed pair and orients LineStrings by their ends', () => {
    const built = loadIndoorGml(readTwoStoreyFixture())
    // 9 Transitions, T2 and T2-REVERSE (a detour) joining the same two States.
    expect(graphInfo(built.graph)).toMatchObject({ transitions: 9, edges: 8 })
    expect(route(built, 'C1a', 'C1b')).toMatchObject({ path: ['C1a', 'C1b'], length: 10 })
    // T3 is written C1b → R102 with its points running R102 → C1b.
    const toRoom = route(built, 'C1b', 'R102')
    expect(toRoom.path && Array.from(toRoom.polyline)).toEqual([10, 0, 0, 10, 2, 0, 10, 5, 0])
  })

  it('routes the fixture across its stair and reports where the floor changes', () => {
    const built = loadIndoorGml(readTwoStoreyFixture())
    const result = route(built, 'R101', 'R201')
    expect(result.path).toEqual(['R101', 'C1a', 'C1b', 'ST1', 'ST2', 'C2b', 'C2a', 'R201'])
    if (!result.path) return
    expect(result.length).toBeCloseTo(5 + 10 + 3 + 2 * Math.hypot(3, 2) + 3 + 10 + 5, 9)
    expect(result.floorChanges).toEqual([
      { index: 4, fromStateId: 'ST1', toStateId: 'ST2', fromStorey: '1', toStorey: '2' },
    ])
    expect(route(built, 'R101', 'X201')).toMatchObject({ path: null })
  })

  it('takes a Transition’s ends from the two States that list it when it names none', () => {
    const built = loadIndoorGml(
      testGml({
        states: [
          { id: 'A', position: [0, 0, 0], connects: ['T1'] },
          { id: 'B', position: [2, 0, 0], connects: ['T1'] },
        ],
        transitions: [{ id: 'T1', connects: [] }],
      }),
    )
    expect(built.repairs).toEqual([
      expect.objectContaining({ kind: 'transitionEndpointsFromStates', resolvedTo: 'A B' }),
    ])
    expect(route(built, 'A', 'B')).toMatchObject({ path: ['A', 'B'], length: 2 })
  })

  it('does not guess when a suffix matches two Transitions', () => {
    const built = loadIndoorGml(
      testGml({
        states: [
          { id: 'A', position: [0, 0, 0], connects: ['T1', 'X'] },
          { id: 'B', position: [1, 0, 0], connects: ['L1_X', 'L2_X'] },
        ],
        transitions: [
          { id: 'L1_X', connects: ['A', 'B'] },
          { id: 'L2_X', connects: ['A', 'B'] },
          { id: 'T1', connects: ['A', 'B'] },
        ],
      }),
    )
    expect(built.repairs.filter((repair) => repair.kind === 'stateConnectsBySuffix')).toEqual([])
    expect(built.warnings).toContainEqual(
      expect.objectContaining({ code: 'danglingReference', elementId: 'A' }),
    )
  })

  it('resolves a Transition that names CellSpaces through their duality', () => {
    const built = loadIndoorGml(
      testGml({
        cells: [
          { id: 'CA', duality: 'A' },
          { id: 'CB', duality: 'B' },
        ],
        states: [
          { id: 'A', position: [0, 0, 0], duality: 'CA' },
          { id: 'B', position: [0, 3, 0], duality: 'CB' },
        ],
        transitions: [{ id: 'T1', connects: ['CA', 'CB'] }],
      }),
    )
    expect(built.repairs.map((repair) => [repair.reference, repair.resolvedTo])).toEqual([
      ['CA', 'A'],
      ['CB', 'B'],
    ])
    expect(route(built, 'A', 'B')).toMatchObject({ path: ['A', 'B'], length: 3 })
  })

  it('takes a storey from the CellSpace description when the State has none', () => {
    const built = loadIndoorGml(
      testGml({
        cells: [
          { id: 'CA', duality: 'A', description: 'storey="B1"' },
          { id: 'CB', duality: 'B', description: 'storey="1"' },
        ],
        states: [
          { id: 'A', position: [0, 0, -3], duality: 'CA' },
          { id: 'B', position: [0, 0, 0], duality: 'CB' },
        ],
        transitions: [{ id: 'T1', connects: ['A', 'B'] }],
      }),
    )
    expect(built.graph.storeys.map(({ label, source }) => [label, source])).toEqual([
      ['B1', 'cell'],
      ['1', 'cell'],
    ])
  })

  it('reads storey labels from the description forms exporters write', () => {
    expect(storeyFromDescription('storey="1":indoor="room":')).toBe('1')
    expect(storeyFromDescription("storey='B2'")).toBe('B2')
    expect(storeyFromDescription('Storey: 3; kind=room')).toBe('3')
    expect(storeyFromDescription('a room')).toBeUndefined()
  })
})
