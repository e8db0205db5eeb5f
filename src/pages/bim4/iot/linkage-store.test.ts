import { afterEach, describe, expect, it } from 'vitest'
import type { EventLink } from '../../../api/event-links'
import {
  dismissLinkage,
  fireLinkage,
  linkageStore,
  linkedTargets,
  resetLinkage,
} from './linkage-store'

const link = (
  source: string,
  target: string,
  event: EventLink['event'] = 'alarm',
  target_kind: EventLink['target_kind'] = 'poi',
): EventLink => ({
  id: `${source}-${event}-${target}`,
  projectid: 'p',
  source,
  source_name: source,
  event,
  target_kind,
  target,
  target_name: `name of ${target}`,
  created_at: '2026-01-01T00:00:00.000Z',
})

afterEach(() => resetLinkage())

describe('linkedTargets', () => {
  it("follows the source's links of the fired event, then POI chains by their link events", () => {
    const links = [
      link('sensor', 'camera'),
      link('sensor', 'hall', 'alarm', 'area'),
      link('sensor', 'other', 'fault'),
      link('camera', 'camera-2', 'link'),
      link('camera', 'siren', 'alarm'),
      link('camera', 'unused', 'offline'),
    ]
    expect(linkedTargets(links, 'sensor', ['alarm'])).toEqual({
      poiIds: ['camera', 'camera-2', 'siren'],
      areas: [{ id: 'hall', name: 'name of hall' }],
    })
    expect(linkedTargets(links, 'sensor', ['fault']).poiIds).toEqual(['other'])
    expect(linkedTargets(links, 'camera', ['offline']).poiIds).toEqual(['unused'])
  })

  it('stops at the SPEC §9 depth and never loops', () => {
    const chain = [link('a', 'b'), link('b', 'c'), link('c', 'd'), link('d', 'e'), link('e', 'a')]
    expect(linkedTargets(chain, 'a', ['alarm']).poiIds).toEqual(['b', 'c', 'd'])
  })
})

describe('fireLinkage', () => {
  it('opens the linked POIs and areas for alarm codes and offline, nothing for normal codes', () => {
    linkageStore.links = [
      link('sensor', 'camera', 'alarm'),
      link('sensor', 'hall', 'alarm', 'area'),
      link('sensor', 'gate-camera', 'offline'),
      link('sensor', 'pump', 'fault'),
    ]
    expect(fireLinkage('sensor', 2)).toEqual({ poiIds: [], areas: [] })
    expect(linkageStore.openPoiIds).toEqual([])
    fireLinkage('sensor', 3)
    expect(linkageStore.openPoiIds).toEqual(['camera'])
    expect(linkageStore.highlightedAreas).toEqual([{ id: 'hall', name: 'name of hall' }])
    fireLinkage('sensor', 3)
    fireLinkage('sensor', 11)
    fireLinkage('sensor', 0)
    expect(linkageStore.openPoiIds).toEqual(['camera', 'pump', 'gate-camera'])
    expect(linkageStore.highlightedAreas).toHaveLength(1)
    dismissLinkage()
    expect(linkageStore.openPoiIds).toEqual([])
    expect(linkageStore.highlightedAreas).toEqual([])
  })
})
