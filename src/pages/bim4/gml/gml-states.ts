/** One State of the loaded network, as the shortest-path tool lists it. */
export interface GmlStateEntry {
  id: string
  /** The State's name in the file, or its id when it has none. */
  name: string
  /** The storey label the network gave it ('' when unknown). */
  storey: string
}

const cache = new Map<string, Promise<GmlStateEntry[]>>()

/**
 * The States of a project's GML file, for the searchable list of the shortest-path tool. The
 * engine's snapshot carries counts, storeys and the route but not every State, so the list is
 * read from the same file with the same pure parser the routing worker uses, loaded on demand
 * in its own chunk and cached per file address (a new upload has a new address). Ids are the
 * ones the engine's `gml.route` accepts as `{ stateId }`.
 */
export function loadGmlStates(url: string): Promise<GmlStateEntry[]> {
  let entry = cache.get(url)
  if (!entry) {
    entry = (async () => {
      const response = await fetch(url)
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
      const bytes = new Uint8Array(await response.arrayBuffer())
      const { loadIndoorGml } = await import('../../../../workers/indoor-route/load-indoor-gml')
      const { graph } = loadIndoorGml(bytes)
      return statesOf(graph)
    })()
    entry.catch(() => cache.delete(url))
    cache.set(url, entry)
  }
  return entry
}

/** The list entries of a navigation graph's per-State arrays, sorted by storey then name. */
export function statesOf(graph: {
  stateIds: readonly string[]
  stateNames: readonly (string | null | undefined)[]
  stateStoreys: ArrayLike<number>
  storeys: readonly { label: string }[]
}): GmlStateEntry[] {
  const entries = graph.stateIds.map((id, index) => {
    const storeyIndex = graph.stateStoreys[index] ?? -1
    return {
      id,
      name: graph.stateNames[index] || id,
      storey: graph.storeys[storeyIndex]?.label ?? '',
    }
  })
  return entries.sort(
    (a, b) =>
      a.storey.localeCompare(b.storey, undefined, { numeric: true }) ||
      a.name.localeCompare(b.name, undefined, { numeric: true }),
  )
}

/** States whose id, name or storey contains the text (case-insensitive). */
export function filterStates(states: readonly GmlStateEntry[], text: string): GmlStateEntry[] {
  const needle = text.trim().toLowerCase()
  if (!needle) return [...states]
  return states.filter(
    (state) =>
      state.id.toLowerCase().includes(needle) ||
      state.name.toLowerCase().includes(needle) ||
      state.storey.toLowerCase().includes(needle),
  )
}
