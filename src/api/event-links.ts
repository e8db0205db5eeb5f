import {
  type EventLink,
  type EventLinkKind,
  type EventLinkTargetKind,
  eventLinkRoutes,
} from '../../contract/event-links'
import { api } from './index'

export type { EventLink, EventLinkKind, EventLinkTargetKind } from '../../contract/event-links'

/** `POST /web/eventlink/findall`: every event link of a project. */
export async function findAllEventLinks(projectId: string): Promise<EventLink[]> {
  return (await api.call(eventLinkRoutes.findAllEventLinks, { projectid: projectId })).datum
}

/** `POST /web/eventlink/find`: one source POI's links (of one event, when given). */
export async function findEventLinks(source: string, event?: EventLinkKind): Promise<EventLink[]> {
  const body = event === undefined ? { source } : { source, event }
  return (await api.call(eventLinkRoutes.findEventLinks, body)).datum
}

/** `POST /web/eventlink/add`: links a source POI's event to a target POI or area. */
export async function addEventLink(body: {
  source: string
  event: EventLinkKind
  target_kind: EventLinkTargetKind
  target: string
}): Promise<EventLink> {
  return (await api.call(eventLinkRoutes.addEventLink, body)).datum
}

/** `POST /web/eventlink/del`: removes a link. */
export async function deleteEventLink(id: string): Promise<void> {
  await api.call(eventLinkRoutes.deleteEventLink, { id })
}
