import { proxy } from 'valtio'
import {
  type EventLinkKind,
  eventKindsOfStatus,
  eventLinkMaxDepth,
} from '../../../../contract/event-links'
import type { EventLink } from '../../../api/event-links'
import * as linksApi from '../../../api/event-links'

/** The event linkage of the open project and what the last fired event reached (valtio). */
export interface LinkageState {
  projectId: string | null
  links: EventLink[]
  /** Camera (or other) POIs a fired event opened: their videos show on the stage. */
  openPoiIds: string[]
  /** Areas a fired event highlighted, by id, with their names. */
  highlightedAreas: { id: string; name: string }[]
}

/** The linkage of the open project. */
export const linkageStore = proxy<LinkageState>({
  projectId: null,
  links: [],
  openPoiIds: [],
  highlightedAreas: [],
})

let loadSequence = 0

/** Loads the project's links (again after an edit elsewhere). */
export async function loadLinkage(projectId: string): Promise<void> {
  const sequence = ++loadSequence
  if (linkageStore.projectId !== projectId) {
    linkageStore.links = []
    linkageStore.openPoiIds = []
    linkageStore.highlightedAreas = []
  }
  linkageStore.projectId = projectId
  const links = await linksApi.findAllEventLinks(projectId)
  if (sequence === loadSequence) linkageStore.links = links
}

/** Forgets the project (the editor closed). */
export function resetLinkage(): void {
  loadSequence += 1
  linkageStore.projectId = null
  linkageStore.links = []
  linkageStore.openPoiIds = []
  linkageStore.highlightedAreas = []
}

/** What one fired event reaches. */
export interface LinkedTargets {
  poiIds: string[]
  areas: { id: string; name: string }[]
}

/**
 * The targets an event of `sourceId` reaches: its links of `kinds`, then, down POI chains (SPEC
 * §9: at most {@link eventLinkMaxDepth} POIs deep), each reached POI's links of the same kinds
 * and of `link`. Each target once, in link order; cycles (refused by the server) cannot loop.
 */
export function linkedTargets(
  links: readonly EventLink[],
  sourceId: string,
  kinds: readonly EventLinkKind[],
): LinkedTargets {
  const poiIds: string[] = []
  const areas: { id: string; name: string }[] = []
  const seen = new Set<string>([sourceId])
  let level = [sourceId]
  for (let depth = 1; depth < eventLinkMaxDepth && level.length > 0; depth += 1) {
    const wanted = depth === 1 ? kinds : [...kinds, 'link']
    const next: string[] = []
    for (const link of links) {
      if (!level.includes(link.source) || !wanted.includes(link.event)) continue
      if (link.target_kind === 'area') {
        if (!areas.some((area) => area.id === link.target)) {
          areas.push({ id: link.target, name: link.target_name })
        }
      } else if (!seen.has(link.target)) {
        seen.add(link.target)
        poiIds.push(link.target)
        next.push(link.target)
      }
    }
    level = next
  }
  return { poiIds, areas }
}

/**
 * A status code reported by `sourceId`'s device fires its events (contract `eventKindsOfStatus`):
 * the reached POIs open (a camera plays) and the reached areas are highlighted. Answers them.
 */
export function fireLinkage(sourceId: string, code: number): LinkedTargets {
  const kinds = eventKindsOfStatus(code)
  if (kinds.length === 0) return { poiIds: [], areas: [] }
  const reached = linkedTargets(linkageStore.links, sourceId, kinds)
  if (reached.poiIds.length > 0) {
    linkageStore.openPoiIds = [...new Set([...linkageStore.openPoiIds, ...reached.poiIds])]
  }
  if (reached.areas.length > 0) {
    const known = new Set(linkageStore.highlightedAreas.map((area) => area.id))
    linkageStore.highlightedAreas = [
      ...linkageStore.highlightedAreas,
      ...reached.areas.filter((area) => !known.has(area.id)),
    ]
  }
  return reached
}

/** Closes what fired events opened. */
export function dismissLinkage(): void {
  linkageStore.openPoiIds = []
  linkageStore.highlightedAreas = []
}
