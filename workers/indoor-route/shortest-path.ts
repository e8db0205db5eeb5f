import { IndexedMinHeap } from './min-heap'
import type { NavigationGraph } from './navigation-graph'

/**
 * Keeps the heuristic a hair under the scaled distance so float rounding in k · distance can
 * never make it overestimate an edge whose length equals the straight line.
 */
const HEURISTIC_SLACK = 1 - 1e-9

/** Outcome of one search: the length and the settled-node count (for benchmarks). */
export interface SearchOutcome {
  isFound: boolean
  /** Sum of edge lengths along the path, file units; +Infinity when unreachable. */
  length: number
  settledCount: number
}

/** One direction of the bidirectional search: its tentative distances, tree and queue. */
class SearchSide {
  readonly distances: Float64Array
  readonly estimates: Float64Array
  readonly parentArcs: Int32Array
  readonly parentNodes: Int32Array
  readonly seenIn: Uint32Array
  readonly heap: IndexedMinHeap
  /** The point this side's heuristic aims at (the other side's start). */
  goalX = 0
  goalY = 0
  goalZ = 0
  scale = 0

  constructor(nodeCount: number) {
    this.distances = new Float64Array(nodeCount)
    this.estimates = new Float64Array(nodeCount)
    this.parentArcs = new Int32Array(nodeCount)
    this.parentNodes = new Int32Array(nodeCount)
    this.seenIn = new Uint32Array(nodeCount)
    this.heap = new IndexedMinHeap(nodeCount)
  }

  start(node: number, goal: number, graph: NavigationGraph, scale: number, generation: number) {
    const positions = graph.positions
    this.goalX = positions[goal * 3]!
    this.goalY = positions[goal * 3 + 1]!
    this.goalZ = positions[goal * 3 + 2]!
    this.scale = scale
    this.heap.clear()
    this.seenIn[node] = generation
    this.distances[node] = 0
    this.parentArcs[node] = -1
    this.parentNodes[node] = -1
    const estimate = this.estimate(positions, node)
    this.estimates[node] = estimate
    this.heap.push(node, estimate)
  }

  estimate(positions: Float64Array, node: number): number {
    if (this.scale === 0) return 0
    const dx = positions[node * 3]! - this.goalX
    const dy = positions[node * 3 + 1]! - this.goalY
    const dz = positions[node * 3 + 2]! - this.goalZ
    return this.scale * Math.sqrt(dx * dx + dy * dy + dz * dz)
  }
}

/**
 * Shortest paths over the CSR graph with NBA* (Pijls & Post's bidirectional A*): both ends
 * grow towards each other, each guided by the scaled Euclidean distance to the other end, and
 * a node is dropped as soon as its bounds show it cannot improve the best meeting found. With
 * the consistent heuristic of `NavigationGraph.heuristicScale` the result is optimal.
 *
 * All per-node state lives in typed arrays allocated once per graph. A generation counter
 * marks which entries belong to the current query, so starting a query costs O(1) instead of
 * clearing arrays the size of the graph.
 */
export class ShortestPathSearch {
  private readonly graph: NavigationGraph
  private readonly forward: SearchSide
  private readonly backward: SearchSide
  /** NBA*'s shared "middle" set: nodes settled or rejected by either side. */
  private readonly doneIn: Uint32Array
  private generation = 0
  private meetingNode = -1
  private lastSource = -1

  constructor(graph: NavigationGraph) {
    const nodeCount = graph.stateIds.length
    this.graph = graph
    this.forward = new SearchSide(nodeCount)
    this.backward = new SearchSide(nodeCount)
    this.doneIn = new Uint32Array(nodeCount)
  }

  /** Finds a shortest path between two node indices; read it with `pathTo` afterwards. */
  search(source: number, target: number): SearchOutcome {
    const graph = this.graph
    this.lastSource = source
    this.meetingNode = -1
    if (this.generation === 0xffffffff) {
      this.forward.seenIn.fill(0)
      this.backward.seenIn.fill(0)
      this.doneIn.fill(0)
      this.generation = 0
    }
    const generation = ++this.generation
    if (source === target) {
      this.forward.start(source, target, graph, 0, generation)
      this.meetingNode = source
      this.backward.seenIn[source] = generation
      this.backward.distances[source] = 0
      this.backward.parentNodes[source] = -1
      return { isFound: true, length: 0, settledCount: 0 }
    }
    if (graph.componentOf[source] !== graph.componentOf[target]) {
      return { isFound: false, length: Number.POSITIVE_INFINITY, settledCount: 0 }
    }
    // Ends without a position (a component with no geometry at all) degrade to Dijkstra.
    const { positionKnown, positions, offsets, arcTargets, arcWeights } = graph
    const scale =
      positionKnown[source] && positionKnown[target] ? graph.heuristicScale * HEURISTIC_SLACK : 0
    const forward = this.forward
    const backward = this.backward
    forward.start(source, target, graph, scale, generation)
    backward.start(target, source, graph, scale, generation)
    const doneIn = this.doneIn
    let bestLength = Number.POSITIVE_INFINITY
    let settledCount = 0

    while (forward.heap.size > 0 && backward.heap.size > 0) {
      // Grow the side with the smaller frontier: it is the cheaper one to extend.
      const isForward = forward.heap.size <= backward.heap.size
      const side = isForward ? forward : backward
      const other = isForward ? backward : forward
      const node = side.heap.pop()
      if (doneIn[node] === generation) continue
      doneIn[node] = generation
      const distance = side.distances[node]!
      const otherLowestF = other.heap.peekKey()
      // NBA* pruning: this node's bounds say no path through it beats the best one.
      if (
        distance + side.estimates[node]! >= bestLength ||
        distance + otherLowestF - other.estimate(positions, node) >= bestLength
      ) {
        continue
      }
      settledCount++
      const end = offsets[node + 1]!
      for (let arc = offsets[node]!; arc < end; arc++) {
        const next = arcTargets[arc]!
        if (doneIn[next] === generation) continue
        const candidate = distance + arcWeights[arc]!
        if (side.seenIn[next] !== generation) {
          side.seenIn[next] = generation
          side.distances[next] = candidate
          side.parentArcs[next] = arc
          side.parentNodes[next] = node
          const estimate = side.estimate(positions, next)
          side.estimates[next] = estimate
          side.heap.push(next, candidate + estimate)
        } else if (candidate < side.distances[next]!) {
          side.distances[next] = candidate
          side.parentArcs[next] = arc
          side.parentNodes[next] = node
          side.heap.decrease(next, candidate + side.estimates[next]!)
        } else {
          continue
        }
        if (other.seenIn[next] === generation) {
          const through = candidate + other.distances[next]!
          if (through < bestLength) {
            bestLength = through
            this.meetingNode = next
          }
        }
      }
    }
    if (this.meetingNode < 0) {
      return { isFound: false, length: Number.POSITIVE_INFINITY, settledCount }
    }
    return { isFound: true, length: bestLength, settledCount }
  }

  /**
   * Node indices from the source to the target of the last successful search, and the arc
   * taken between each pair (arcs[i] leads from nodes[i] to nodes[i + 1]).
   */
  pathTo(): { nodes: Int32Array; arcs: Int32Array } {
    const meeting = this.meetingNode
    if (meeting < 0) throw new Error('pathTo() needs a successful search first')
    const forward = this.forward
    const backward = this.backward
    let before = 0
    for (let node = meeting; node !== this.lastSource; node = forward.parentNodes[node]!) before++
    let after = 0
    for (let node = meeting; backward.parentNodes[node]! >= 0; node = backward.parentNodes[node]!) {
      after++
    }
    const nodes = new Int32Array(before + after + 1)
    const arcs = new Int32Array(before + after)
    let node = meeting
    for (let index = before; index > 0; index--) {
      nodes[index] = node
      arcs[index - 1] = forward.parentArcs[node]!
      node = forward.parentNodes[node]!
    }
    nodes[0] = node
    node = meeting
    for (let index = before; index < before + after; index++) {
      // The backward tree stores the arc from the parent (nearer the target) to the node;
      // its edge is the same undirected edge we travel.
      arcs[index] = backward.parentArcs[node]!
      node = backward.parentNodes[node]!
      nodes[index + 1] = node
    }
    return { nodes, arcs }
  }
}
