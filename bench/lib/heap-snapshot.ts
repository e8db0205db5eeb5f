import type { CDPSession } from 'playwright-core'

/**
 * Heap snapshots of a page through the Chrome DevTools Protocol, and the one comparison a leak
 * hunt needs: which objects were allocated after a first snapshot and are still alive at a
 * second one (V8 keeps a node's id across snapshots of one session, so "new" is "id above the
 * first snapshot's largest"), grouped by constructor, with a retainer path of one of each group
 * so the report says who holds them.
 */

/** Takes a snapshot after a full collection; answers its JSON text. */
export async function takeHeapSnapshot(cdp: CDPSession): Promise<string> {
  await cdp.send('HeapProfiler.enable')
  await cdp.send('HeapProfiler.collectGarbage')
  const chunks: string[] = []
  const onChunk = (event: { chunk: string }) => chunks.push(event.chunk)
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk)
  try {
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
  } finally {
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk)
  }
  return chunks.join('')
}

interface RawSnapshot {
  snapshot: {
    meta: {
      node_fields: string[]
      node_types: [string[], ...unknown[]]
      edge_fields: string[]
      edge_types: [string[], ...unknown[]]
    }
  }
  nodes: number[]
  edges: number[]
  strings: string[]
}

/** A parsed snapshot: flat arrays with the field offsets resolved. */
export class HeapGraph {
  readonly nodeCount: number
  private readonly raw: RawSnapshot
  private readonly nodeWidth: number
  private readonly edgeWidth: number
  private readonly field: { type: number; name: number; id: number; size: number; edges: number }
  private readonly edgeField: { type: number; name: number; to: number }
  /** First edge index of each node (cumulative edge counts). */
  private readonly firstEdge: Uint32Array
  private retainersOf: Map<number, number[]> | undefined

  constructor(json: string) {
    this.raw = JSON.parse(json) as RawSnapshot
    const meta = this.raw.snapshot.meta
    this.nodeWidth = meta.node_fields.length
    this.edgeWidth = meta.edge_fields.length
    const at = (name: string) => meta.node_fields.indexOf(name)
    this.field = {
      type: at('type'),
      name: at('name'),
      id: at('id'),
      size: at('self_size'),
      edges: at('edge_count'),
    }
    this.edgeField = {
      type: meta.edge_fields.indexOf('type'),
      name: meta.edge_fields.indexOf('name_or_index'),
      to: meta.edge_fields.indexOf('to_node'),
    }
    this.nodeCount = this.raw.nodes.length / this.nodeWidth
    this.firstEdge = new Uint32Array(this.nodeCount + 1)
    for (let node = 0; node < this.nodeCount; node++) {
      this.firstEdge[node + 1] =
        this.firstEdge[node]! + this.raw.nodes[node * this.nodeWidth + this.field.edges]!
    }
  }

  type(node: number): string {
    return this.raw.snapshot.meta.node_types[0][
      this.raw.nodes[node * this.nodeWidth + this.field.type]!
    ]!
  }
  name(node: number): string {
    return this.raw.strings[this.raw.nodes[node * this.nodeWidth + this.field.name]!]!
  }
  id(node: number): number {
    return this.raw.nodes[node * this.nodeWidth + this.field.id]!
  }
  selfSize(node: number): number {
    return this.raw.nodes[node * this.nodeWidth + this.field.size]!
  }
  /** The largest node id: objects allocated later have larger ids. */
  maxId(): number {
    let max = 0
    for (let node = 0; node < this.nodeCount; node++) max = Math.max(max, this.id(node))
    return max
  }

  /** What `node` holds: [held node, edge label] pairs. */
  *edgesOf(node: number): Generator<[number, string]> {
    const edgeTypes = this.raw.snapshot.meta.edge_types[0]
    for (let edge = this.firstEdge[node]!; edge < this.firstEdge[node + 1]!; edge++) {
      const base = edge * this.edgeWidth
      const type = edgeTypes[this.raw.edges[base + this.edgeField.type]!]!
      const nameOrIndex = this.raw.edges[base + this.edgeField.name]!
      const label =
        type === 'element' || type === 'hidden'
          ? `[${nameOrIndex}]`
          : this.raw.strings[nameOrIndex]!
      yield [this.raw.edges[base + this.edgeField.to]! / this.nodeWidth, label]
    }
  }

  /** Who holds `node`: [retaining node, edge label] pairs, weak edges left out. */
  retainers(node: number): Array<[number, string]> {
    if (!this.retainersOf) {
      this.retainersOf = new Map()
      const edgeTypes = this.raw.snapshot.meta.edge_types[0]
      for (let from = 0; from < this.nodeCount; from++) {
        for (let edge = this.firstEdge[from]!; edge < this.firstEdge[from + 1]!; edge++) {
          const base = edge * this.edgeWidth
          if (edgeTypes[this.raw.edges[base + this.edgeField.type]!] === 'weak') continue
          const to = this.raw.edges[base + this.edgeField.to]! / this.nodeWidth
          const list = this.retainersOf.get(to)
          if (list) list.push(base)
          else this.retainersOf.set(to, [base])
        }
      }
    }
    const edgeTypes = this.raw.snapshot.meta.edge_types[0]
    const answer: Array<[number, string]> = []
    for (const base of this.retainersOf.get(node) ?? []) {
      const type = edgeTypes[this.raw.edges[base + this.edgeField.type]!]!
      const nameOrIndex = this.raw.edges[base + this.edgeField.name]!
      const label =
        type === 'element' || type === 'hidden'
          ? `[${nameOrIndex}]`
          : this.raw.strings[nameOrIndex]!
      answer.push([this.ownerOfEdge(base), label])
    }
    return answer
  }

  private ownerOfEdge(edgeBase: number): number {
    // binary search: the node whose edge range holds this edge
    const edge = edgeBase / this.edgeWidth
    let low = 0
    let high = this.nodeCount - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (this.firstEdge[middle]! <= edge) low = middle
      else high = middle - 1
    }
    return low
  }

  /** A readable label of a node: its type and constructor or name. */
  label(node: number): string {
    const name = this.name(node)
    return `${this.type(node)} ${name.length > 60 ? `${name.slice(0, 60)}…` : name}`
  }
}

/** A snapshot's bytes: V8's code (bytecode, machine code, feedback) and everything else. */
export interface HeapSplit {
  codeBytes: number
  otherBytes: number
}

/**
 * Splits a snapshot's live bytes into V8's code (nodes of type `code`: bytecode, baseline and
 * optimised machine code, their relocation and deoptimisation data, feedback) and the rest (the
 * page's objects, strings, arrays, DOM wrappers). A soak that grows only by the first kind grows
 * by V8 tiering up the loop it keeps running, not by something the page keeps.
 */
export function splitHeap(graph: HeapGraph): HeapSplit {
  let codeBytes = 0
  let otherBytes = 0
  for (let node = 0; node < graph.nodeCount; node++) {
    if (graph.type(node) === 'code') codeBytes += graph.selfSize(node)
    else otherBytes += graph.selfSize(node)
  }
  return { codeBytes, otherBytes }
}

/** One group of surviving new objects. */
export interface NewObjectGroup {
  group: string
  count: number
  bytes: number
  /** A retainer path of one member, nearest holder first. */
  path: string[]
}

/**
 * The objects in `after` allocated after `before` was taken (and alive at `after`), grouped by
 * type and constructor name, largest total first; `top` groups with a retainer path each.
 */
export function newObjects(before: HeapGraph, after: HeapGraph, top = 25): NewObjectGroup[] {
  const since = before.maxId()
  const groups = new Map<string, { count: number; bytes: number; sample: number }>()
  for (let node = 0; node < after.nodeCount; node++) {
    if (after.id(node) <= since) continue
    const type = after.type(node)
    // strings' names are their text: group them by type only
    const key =
      type === 'string' || type === 'concatenated string' || type === 'sliced string'
        ? type
        : `${type} ${after.name(node)}`
    const group = groups.get(key)
    if (group) {
      group.count++
      group.bytes += after.selfSize(node)
    } else groups.set(key, { count: 1, bytes: after.selfSize(node), sample: node })
  }
  return [...groups.entries()]
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .slice(0, top)
    .map(([group, { count, bytes, sample }]) => ({
      group,
      count,
      bytes,
      path: retainerPath(after, sample),
    }))
}

/** Up to `depth` holders of `node`, each the first retainer not already on the path. */
function retainerPath(graph: HeapGraph, node: number, depth = 8): string[] {
  const path: string[] = []
  const seen = new Set([node])
  let current = node
  for (let step = 0; step < depth; step++) {
    const next = graph.retainers(current).find(([holder]) => !seen.has(holder))
    if (!next) break
    const [holder, edge] = next
    path.push(`${edge} ← ${graph.label(holder)}`)
    seen.add(holder)
    current = holder
  }
  return path
}

/** Machine code V8 compiled after a first snapshot, for the functions of one script. */
export interface NewCodeOfScript {
  /** The script's address (its file name), or '(no script)' for V8's own and evaluated code. */
  script: string
  functions: number
  bytes: number
  /** Its largest functions' names (minified in a production build) and code bytes. */
  largest: string[]
}

/**
 * The compiled code (optimised or baseline machine code: the code object with its instructions,
 * relocation and deoptimisation data) made after `before` and alive at `after`, by the script
 * of its function, largest first. A soak's heap grows by it while V8 tiers up the functions a
 * loop keeps running: warm-up, not objects the page keeps.
 */
export function newCompiledCodeByScript(
  before: HeapGraph,
  after: HeapGraph,
  top = 12,
): NewCodeOfScript[] {
  const since = before.maxId()
  // a code object's function: a function's shared info holds its code, or a closure holds both
  const functionOfCode = new Map<number, number>()
  const scriptOfFunction = new Map<number, string>()
  for (let node = 0; node < after.nodeCount; node++) {
    const isShared = after.name(node).includes('SharedFunctionInfo')
    if (!isShared && after.type(node) !== 'closure') continue
    let code: number | undefined
    let shared: number | undefined
    for (const [held, edge] of after.edgesOf(node)) {
      if (isShared) {
        if (edge === 'script' || edge === 'script_or_debug_info') {
          scriptOfFunction.set(node, after.name(held))
        } else if (after.name(held) === 'system / Code') functionOfCode.set(held, node)
      } else if (edge === 'code') code = held
      else if (edge === 'shared') shared = held
    }
    if (code !== undefined && shared !== undefined && !functionOfCode.has(code)) {
      functionOfCode.set(code, shared)
    }
  }
  const groups = new Map<string, { functions: number; bytes: number; sizes: Map<string, number> }>()
  for (let node = 0; node < after.nodeCount; node++) {
    if (after.id(node) <= since || after.name(node) !== 'system / Code') continue
    let bytes = after.selfSize(node)
    for (const [held, edge] of after.edgesOf(node)) {
      if (['instruction_stream', 'relocation_info', 'deoptimization_data'].includes(edge)) {
        bytes += after.selfSize(held)
      }
    }
    const owner = functionOfCode.get(node)
    const script =
      (owner === undefined ? undefined : scriptOfFunction.get(owner))
        ?.replace(/^system \/ Script \/ ?/, '')
        .replace(/^https?:\/\/[^/]+/, '') || '(no script)'
    const name =
      owner === undefined
        ? '?'
        : after.name(owner).replace(/^system \/ SharedFunctionInfo( \/ )?/, '') || '(anonymous)'
    const group = groups.get(script) ?? { functions: 0, bytes: 0, sizes: new Map() }
    group.functions++
    group.bytes += bytes
    group.sizes.set(name, (group.sizes.get(name) ?? 0) + bytes)
    groups.set(script, group)
  }
  return [...groups.entries()]
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .slice(0, top)
    .map(([script, { functions, bytes, sizes }]) => ({
      script,
      functions,
      bytes,
      largest: [...sizes.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([name, size]) => `${name} ${size}`),
    }))
}
