/**
 * A binary min-heap of node indices keyed by float priorities, with decrease-key, on typed
 * arrays sized once for the whole graph. Nodes and keys sit side by side so a sift touches two
 * arrays, and nothing is allocated while a search runs.
 */
export class IndexedMinHeap {
  private readonly nodes: Int32Array
  private readonly keys: Float64Array
  /** Slot of each node while it is in the heap; stale otherwise (the caller knows which). */
  private readonly slotOf: Int32Array
  size = 0

  constructor(capacity: number) {
    this.nodes = new Int32Array(capacity)
    this.keys = new Float64Array(capacity)
    this.slotOf = new Int32Array(capacity)
  }

  /** Empties the heap in O(1). */
  clear(): void {
    this.size = 0
  }

  /** Adds a node that is not in the heap. */
  push(node: number, key: number): void {
    this.siftUp(this.size++, node, key)
  }

  /** Lowers the key of a node that is in the heap. */
  decrease(node: number, key: number): void {
    this.siftUp(this.slotOf[node]!, node, key)
  }

  /** Removes and returns the node with the smallest key. The heap must not be empty. */
  pop(): number {
    const nodes = this.nodes
    const top = nodes[0]!
    const last = --this.size
    if (last > 0) this.siftDown(nodes[last]!, this.keys[last]!)
    return top
  }

  /** The smallest key, or +Infinity when empty. */
  peekKey(): number {
    return this.size > 0 ? this.keys[0]! : Number.POSITIVE_INFINITY
  }

  private siftUp(start: number, node: number, key: number): void {
    const nodes = this.nodes
    const keys = this.keys
    const slotOf = this.slotOf
    let slot = start
    while (slot > 0) {
      const parent = (slot - 1) >> 1
      const parentKey = keys[parent]!
      if (parentKey <= key) break
      const parentNode = nodes[parent]!
      nodes[slot] = parentNode
      keys[slot] = parentKey
      slotOf[parentNode] = slot
      slot = parent
    }
    nodes[slot] = node
    keys[slot] = key
    slotOf[node] = slot
  }

  private siftDown(node: number, key: number): void {
    const nodes = this.nodes
    const keys = this.keys
    const slotOf = this.slotOf
    const size = this.size
    let slot = 0
    for (;;) {
      let child = slot * 2 + 1
      if (child >= size) break
      let childKey = keys[child]!
      const right = child + 1
      if (right < size && keys[right]! < childKey) {
        child = right
        childKey = keys[right]!
      }
      if (childKey >= key) break
      const childNode = nodes[child]!
      nodes[slot] = childNode
      keys[slot] = childKey
      slotOf[childNode] = slot
      slot = child
    }
    nodes[slot] = node
    keys[slot] = key
    slotOf[node] = slot
  }
}
