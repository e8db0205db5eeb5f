import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EventLink } from '../../../api/event-links'
import { createPoiStore } from '../../../state/pois'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import { createFakePoiServer, poiRecord, sceneTemplate } from '../../pois/testing/fake-poi-server'
import { EventLinkagePanel } from './EventLinkagePanel'
import { linkageStore, resetLinkage } from './linkage-store'

const saved = (target: string, target_name: string, kind: EventLink['target_kind']): EventLink => ({
  id: `link-${target}`,
  projectid: 'project-1',
  source: 'sensor',
  source_name: 'Smoke sensor',
  event: 'alarm',
  target_kind: kind,
  target,
  target_name,
  created_at: '2026-01-01T00:00:00.000Z',
})

/** An in-memory server for the linkage and area calls; records each call's path and body. */
function stubServer(links: EventLink[]) {
  const calls: { path: string; body: Record<string, string> }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://localhost').pathname
      const sent = init?.body
      const body = (
        sent instanceof FormData || sent instanceof URLSearchParams
          ? Object.fromEntries(sent as unknown as Iterable<[string, string]>)
          : JSON.parse(String(sent ?? '{}'))
      ) as Record<string, string>
      calls.push({ path, body })
      const datum = (() => {
        if (path === '/web/eventlink/findall') return links
        if (path === '/web/areadraw/findall') {
          return [{ id: 'area-1', name: 'Hall area', kind: 'area' }]
        }
        if (path === '/web/eventlink/add') {
          const target_name = body.target_kind === 'area' ? 'Hall area' : 'Lobby camera'
          return { ...saved(body.target!, target_name, body.target_kind as 'poi'), id: 'new' }
        }
        throw new Error(`no stub for ${path}`)
      })()
      return new Response(JSON.stringify({ code: '0', message: 'OK', datum }), {
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
  return calls
}

async function poisOf() {
  const camera = sceneTemplate('t1', 'Camera')
  const server = createFakePoiServer(
    [camera],
    [
      poiRecord({ id: 'sensor', category_id: 't1', name: 'Smoke sensor' }, camera),
      poiRecord({ id: 'gate', category_id: 't1', name: 'Gate camera' }, camera),
      poiRecord({ id: 'lobby', category_id: 't1', name: 'Lobby camera' }, camera),
    ],
  )
  const store = createPoiStore(server, { onError: vi.fn() })
  await store.load('project-1', 'building')
  store.select(['sensor'])
  return store
}

afterEach(() => {
  vi.unstubAllGlobals()
  resetLinkage()
})

describe('EventLinkagePanel', () => {
  it("links the selected POI's alarm to a POI and an area, on tabs Area and POI linkage", async () => {
    const calls = stubServer([saved('gate', 'Gate camera', 'poi')])
    const store = await poisOf()
    renderWithI18n(<EventLinkagePanel store={store} />)
    // the Area tab first (SPEC §4 tab 0)
    const areaTab = await screen.findByRole('tab', { name: 'Area' })
    expect(areaTab.getAttribute('aria-selected')).toBe('true')
    await userEvent.click(await screen.findByRole('button', { name: 'Link Hall area' }))
    await waitFor(() => expect(calls.some((call) => call.path === '/web/eventlink/add')).toBe(true))
    expect(calls.find((call) => call.path === '/web/eventlink/add')?.body).toEqual({
      source: 'sensor',
      event: 'alarm',
      target_kind: 'area',
      target: 'area-1',
    })
    await userEvent.click(screen.getByRole('tab', { name: 'POI linkage' }))
    const linked = await screen.findAllByTestId('linkage-linked')
    expect(linked.map((item) => item.textContent)).toContain('Gate camera' + 'Unlink')
    // already linked and the source itself are not offered
    const offered = within(screen.getByRole('list', { name: 'POIs to link' }))
    expect(offered.queryByText('Gate camera')).toBeNull()
    expect(offered.queryByText('Smoke sensor')).toBeNull()
    await userEvent.click(offered.getByRole('button', { name: 'Link Lobby camera' }))
    await waitFor(() => expect(linkageStore.links.map((link) => link.target)).toContain('lobby'))
  })

  it('SPEC §4: a supplied linkage setting forces the POI linkage tab and shows that list', async () => {
    stubServer([])
    const store = await poisOf()
    renderWithI18n(
      <EventLinkagePanel store={store} setting={[saved('lobby', 'Lobby camera', 'poi')]} />,
    )
    expect(
      (await screen.findByRole('tab', { name: 'POI linkage' })).getAttribute('aria-selected'),
    ).toBe('true')
    expect((screen.getByRole('tab', { name: 'Area' }) as HTMLButtonElement).disabled).toBe(true)
    expect(
      (await screen.findAllByTestId('linkage-linked')).map((item) => item.textContent),
    ).toEqual(['Lobby camera'])
  })
})
