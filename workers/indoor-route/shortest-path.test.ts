import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildNavigationGraph } from './build-navigation-graph'
import type { ParsedIndoorGml, ParsedTransition } from './gml-parser'
import { IndexedMinHeap } from './min-heap'
import { polylineLength } from './navigation-graph'
import { ShortestPathSearch } from './shortest-path'

interface RandomNetwork {
  positions: [number, number, number][]
  transitions: {
    from: number
    to: number
    shape: 'straight' | 'detour' | 'short'
    amount: number
  }[]
  queries: [number, number][]
}

/**
 * Random networks whose Transitions are straight, detour through a point (longer than the
 * straight line) or stop short of their States (shorter than it, which forces the heuristic
 * scale below 1). Integer coordinates make equal-length alternatives, the usual tie traps.
 */
const randomNetwork: fc.Arbitrary<RandomNetwork> = fc
  .integer({ min: 2, max: 40 })
  .chain((nodeCount) =>
    fc.record({
      positions: fc.array(
        fc.tuple(
          fc.integer({ min: 0, max: 20 }),
          fc.integer({ min: 0, max: 20 }),
          fc.constantFrom(0, 0, 3, 6),
        ),
        { minLength: nodeCount, maxLength: nodeCount },
      ),
      transitions: fc.array(
        fc.record({
          from: fc.integer({ min: 0, max: nodeCount - 1 }),
          to: fc.integer({ min: 0, max: nodeCount - 1 }),
          shape: fc.constantFrom('straight', 'straight', 'detour', 'short'),
          amount: fc.double({ min: 0.05, max: 5, noNaN: true }),
        }),
        { minLength: 1, maxLength: nodeCount * 3 },
      ),
      queries: fc.array(
        fc.tuple(
          fc.integer({ min: 0, max: nodeCount - 1 }),
          fc.integer({ min: 0, max: nodeCount - 1 }),
        ),
        { minLength: 1, maxLength: 12 },
      ),
    }),
  )

function geometryOf(
  from: [number, number, number],
  to: [number, number, number],
  shape: RandomNetwork['transitions'][number]['shape'],
  amount: number,
): number[] {
  if (shape === 'straight') return [...from, ...to]
  if (shape === 'detour') {
    const middle = from.map((value, axis) => (value + to[axis]!) / 2 + (axis === 2 ? 0 : amount))
    return [...from, ...middle, ...to]
  }
  // A LineString covering only part of the gap: shorter than the straight line.
  const share = Math.min(amount, 4.9) / 10
  const lerp = (t: number) => from.map((value, axis) => value + (to[axis]! - value) * t)
  return [...lerp(0.5 - share), ...lerp(0.5 + share)]
}

function toParsed(network: RandomNetwork): ParsedIndoorGml {
  const transitions: ParsedTransition[] = network.transitions.map((transition, index) => ({
    id: `T${index}`,
    layerId: 'L',
    name: undefined,
    description: undefined,
    connectsRefs: [`S${transition.from}`, `S${transition.to}`],
    coordinates: geometryOf(
      network.positions[transition.from]!,
      network.positions[transition.to]!,
      transition.shape,
      transition.amount,
    ),
  }))
  return {
    rootElement: 'IndoorFeatures',
    layers: [{ id: 'L' }],
    states: network.positions.map((position, index) => ({
      id: `S${index}`,
      elementName: 'State',
      layerId: 'L',
      name: undefined,
      description: undefined,
      dualityRef: undefined,
      connectsRefs: [],
      position,
    })),
    transitions,
    cells: [],
    interLayerConnections: [],
    warnings: [],
    sizeRead: 0,
  }
}

/** Textbook O(n²) Dijkstra over the Transitions as written: the reference answer. */
function referenceDistances(parsed: ParsedIndoorGml, source: number): number[] {
  const nodeCount = parsed.states.length
  const weight: number[][] = Array.from({ length: nodeCount }, () =>
    new Array(nodeCount).fill(Number.POSITIVE_INFINITY),
  )
  for (const transition of parsed.transitions) {
    const a = Number(transition.connectsRefs[0]!.slice(1))
    const b = Number(transition.connectsRefs[1]!.slice(1))
    if (a === b) continue
    const length = polylineLength(transition.coordinates)
    weight[a]![b] = Math.min(weight[a]![b]!, length)
    weight[b]![a] = Math.min(weight[b]![a]!, length)
  }
  const distance = new Array(nodeCount).fill(Number.POSITIVE_INFINITY)
  const done = new Array(nodeCount).fill(false)
  distance[source] = 0
  for (;;) {
    let best = -1
    for (let node = 0; node < nodeCount; node++) {
      if (!done[node] && distance[node] < Number.POSITIVE_INFINITY) {
        if (best < 0 || distance[node] < distance[best]) best = node
      }
    }
    if (best < 0) return distance
    done[best] = true
    for (let next = 0; next < nodeCount; next++) {
      const through = distance[best] + weight[best]![next]!
      if (through < distance[next]) distance[next] = through
    }
  }
}

describe('ShortestPathSearch', () => {
  it('finds the same shortest length as a reference Dijkstra on random networks', () => {
    fc.assert(
      fc.property(randomNetwork, (network) => {
        const parsed = toParsed(network)
        const hasEdge = parsed.transitions.some(
          (transition) => transition.connectsRefs[0] !== transition.connectsRefs[1],
        )
        fc.pre(hasEdge)
        const { graph } = buildNavigationGraph(parsed)
        const search = new ShortestPathSearch(graph)
        for (const [source, target] of network.queries) {
          const expected = referenceDistances(parsed, source)[target]!
          const outcome = search.search(source, target)
          if (!Number.isFinite(expected)) {
            expect(outcome.isFound).toBe(false)
            continue
          }
          expect(outcome.isFound).toBe(true)
          expect(outcome.length).toBeCloseTo(expected, 9)

          // The path is real: it starts and ends right, each step is an edge, and the steps
          // add up to the reported length.
          const { nodes, arcs } = search.pathTo()
          expect(nodes[0]).toBe(source)
          expect(nodes[nodes.length - 1]).toBe(target)
          let walked = 0
          arcs.forEach((arc, step) => {
            const edge = graph.arcEdges[arc]!
            const ends = [graph.edgeFrom[edge], graph.edgeTo[edge]]
            expect(ends).toContain(nodes[step])
            expect(ends).toContain(nodes[step + 1])
            walked += graph.edgeLengths[edge]!
          })
          expect(walked).toBeCloseTo(outcome.length, 9)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('keeps answering correctly across thousands of queries on one search (generation reuse)', () => {
    const network: RandomNetwork = {
      positions: Array.from({ length: 30 }, (_, index) => [index % 6, Math.floor(index / 6), 0]),
      transitions: Array.from({ length: 29 }, (_, index) => ({
        from: index,
        to: index + 1,
        shape: index % 3 === 0 ? 'detour' : 'straight',
        amount: 1,
      })),
      queries: [],
    }
    const parsed = toParsed(network)
    const { graph } = buildNavigationGraph(parsed)
    const search = new ShortestPathSearch(graph)
    const distancesFromZero = referenceDistances(parsed, 0)
    for (let round = 0; round < 3000; round++) {
      const target = round % 30
      expect(search.search(0, target).length).toBeCloseTo(distancesFromZero[target]!, 9)
    }
  })
})

describe('IndexedMinHeap', () => {
  it('pops in key order, with decrease-key, like a sorted list', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 0, max: 100, noNaN: true }), fc.boolean()), {
          minLength: 1,
          maxLength: 200,
        }),
        (entries) => {
          const heap = new IndexedMinHeap(entries.length)
          const keys = new Map<number, number>()
          entries.forEach(([key], node) => {
            heap.push(node, key)
            keys.set(node, key)
          })
          entries.forEach(([key, shouldLower], node) => {
            if (shouldLower) {
              heap.decrease(node, key / 2)
              keys.set(node, key / 2)
            }
          })
          const popped: number[] = []
          while (heap.size > 0) popped.push(keys.get(heap.pop())!)
          expect(popped).toEqual([...keys.values()].sort((a, b) => a - b))
        },
      ),
    )
  })
})
