import { useEffect, useState } from 'react'
import type { GmlStateEntry } from '../../../../engine/api'
import type { EngineHandle } from '../../../engine-bridge'

export type { GmlStateEntry }

/** The fields of a State the list shows and searches. */
type StateText = Pick<GmlStateEntry, 'stateId' | 'name' | 'storey'>

/**
 * The States of the loaded network for the searchable list, asked of the engine
 * (`gml.listStates`, answered by the routing worker that holds the graph). Asked again whenever
 * the network changes (`networkRevision`); null while nothing is loaded or the answer is
 * pending, and an empty list when the engine could not answer.
 */
export function useGmlStates(
  engine: EngineHandle,
  networkRevision: number,
  isLoaded: boolean,
): GmlStateEntry[] | null {
  const [answer, setAnswer] = useState<{
    revision: number
    states: GmlStateEntry[]
  } | null>(null)
  useEffect(() => {
    if (!isLoaded) return
    let isCurrent = true
    engine.run('gml.listStates').then(
      (states) => isCurrent && setAnswer({ revision: networkRevision, states: sortStates(states) }),
      () => isCurrent && setAnswer({ revision: networkRevision, states: [] }),
    )
    return () => {
      isCurrent = false
    }
  }, [engine, networkRevision, isLoaded])
  // An answer about an earlier network is never shown, not even for the render before the
  // effect above runs again.
  return isLoaded && answer?.revision === networkRevision ? answer.states : null
}

/** States by storey then name, numbers compared as numbers ('2' before '10'). */
export function sortStates<State extends StateText>(states: readonly State[]): State[] {
  return [...states].sort(
    (a, b) =>
      a.storey.localeCompare(b.storey, undefined, { numeric: true }) ||
      a.name.localeCompare(b.name, undefined, { numeric: true }) ||
      a.stateId.localeCompare(b.stateId, undefined, { numeric: true }),
  )
}

/** States whose id, name or storey contains the text (case-insensitive). */
export function filterStates<State extends StateText>(
  states: readonly State[],
  text: string,
): State[] {
  const needle = text.trim().toLowerCase()
  if (!needle) return [...states]
  return states.filter(
    (state) =>
      state.stateId.toLowerCase().includes(needle) ||
      state.name.toLowerCase().includes(needle) ||
      state.storey.toLowerCase().includes(needle),
  )
}

/**
 * How a State reads in the list and in a chosen end: "name (id) · storey", the id alone when
 * the State has no name of its own.
 */
export function stateLabel(state: StateText): string {
  const name = state.name === state.stateId ? state.stateId : `${state.name} (${state.stateId})`
  return state.storey ? `${name} · ${state.storey}` : name
}
