import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Investigation } from '../../../api/investigations'
import type { Alarm } from '../../../api/iot'
import type { LiveEvent } from '../../../api/iot-live'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import { Inspections } from './Inspections'
import { investigationsStore } from './investigations-store'
import { applyLiveEvent } from './iot-store'

const alarm = { id: 'alarm-1', poi_id: 'poi-1', devicecode: 'S-1', code: 3 } as Alarm

const record = (id: string, alarmId: string, findings: string): Investigation => ({
  id,
  projectid: 'project-1',
  alarm_id: alarmId,
  poi_id: 'poi-1',
  devicecode: 'S-1',
  inspector: 'Kim Min-jun',
  inspected_at: '2026-11-27T06:00:00.000Z',
  findings,
  state: 'in_progress',
  photos: [{ id: 'p-1', url: '/web/files/p-1.jpg', thumbnail_url: '/web/files/thumbs/p-1.jpg' }],
  created_by: 'demo',
  created_at: '2026-11-27T06:05:00.000Z',
  updated_by: 'demo',
  updated_at: '2026-11-27T06:05:00.000Z',
})

/** Records each call's path and body (JSON, or the multipart form's text fields). */
function stubServer() {
  const calls: { path: string; body: Record<string, unknown> }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://localhost').pathname
      const sent = init?.body
      const body =
        sent instanceof FormData
          ? Object.fromEntries(
              [...sent.entries()].map(([key, value]) => [
                key,
                typeof value === 'string' ? value : 'file',
              ]),
            )
          : JSON.parse(String(sent ?? '{}'))
      calls.push({ path, body })
      const datum =
        path === '/web/upload/uploadJpg'
          ? {
              rootPath: '/web/files/',
              jpgName: 'up-1.jpg',
              uuid: 'up-1',
              sizeBytes: 3,
              contentType: 'image/jpeg',
              thumbnailPath: '/web/files/thumbs/up-1.jpg',
            }
          : {
              ...record('new-1', String(body.alarm_id), String(body.findings)),
              state: body.state,
              photos: [
                {
                  id: 'up-1',
                  url: '/web/files/up-1.jpg',
                  thumbnail_url: '/web/files/thumbs/up-1.jpg',
                },
              ],
            }
      return new Response(JSON.stringify({ code: '0', message: 'OK', datum }), {
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
  return calls
}

/** One event of the project's live stream (the store tells React after a microtask). */
async function tell(event: LiveEvent): Promise<void> {
  await act(async () => applyLiveEvent(event))
}

afterEach(() => {
  vi.unstubAllGlobals()
  investigationsStore.projectId = null
  investigationsStore.list = []
})

describe('Inspections (issue 17 item 7)', () => {
  it("lists the alarm's inspections with state, inspector, findings and photos; readers cannot change them", () => {
    investigationsStore.projectId = 'project-1'
    investigationsStore.list = [
      record('r-1', 'alarm-1', 'Detector cleaned.'),
      record('r-2', 'alarm-2', 'Another alarm'),
    ]
    renderWithI18n(
      <Inspections projectId="project-1" subject={{ alarmId: alarm.id }} canEdit={false} />,
    )
    const section = screen.getByRole('region', { name: 'Inspections' })
    expect(within(section).getByText('Inspections (1)')).toBeTruthy()
    expect(within(section).getByText('In progress')).toBeTruthy()
    expect(within(section).getByText('Kim Min-jun')).toBeTruthy()
    expect(within(section).getByText('Detector cleaned.')).toBeTruthy()
    expect(within(section).queryByText('Another alarm')).toBeNull()
    expect(within(section).getByRole('img', { name: 'Attachment 1' }).getAttribute('src')).toBe(
      '/web/files/thumbs/p-1.jpg',
    )
    expect(within(section).queryByRole('button', { name: 'Add inspection' })).toBeNull()
    expect(within(section).queryByRole('button', { name: 'Edit' })).toBeNull()
  })

  it('records an inspection with findings, a state and a photo uploaded for the project', async () => {
    const calls = stubServer()
    // the project's records are loaded (none yet)
    investigationsStore.projectId = 'project-1'
    renderWithI18n(<Inspections projectId="project-1" subject={{ alarmId: alarm.id }} canEdit />)
    await userEvent.click(screen.getByRole('button', { name: 'Add inspection' }))
    // nobody is signed in here, so the inspector is typed (it defaults to the user's name)
    await userEvent.type(screen.getByLabelText(/Inspector/), 'Lee Seo-yeon')
    await userEvent.type(screen.getByLabelText(/Findings/), 'Burnt toast; detector cleaned.')
    await userEvent.click(screen.getByRole('combobox', { name: 'State' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Resolved' }))
    const photo = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'site.jpg', { type: 'image/jpeg' })
    await userEvent.upload(screen.getByLabelText('Add photos'), photo)
    await waitFor(() => expect(screen.getByRole('img', { name: 'Attachment 1' })).toBeTruthy())
    expect(calls[0]).toEqual({
      path: '/web/upload/uploadJpg',
      body: { project_id: 'project-1', file: 'file' },
    })
    await userEvent.click(screen.getByRole('button', { name: 'Record inspection' }))
    await waitFor(() => expect(calls).toHaveLength(2))
    expect(calls[1]?.path).toBe('/web/investigation/add')
    expect(calls[1]?.body).toMatchObject({
      alarm_id: 'alarm-1',
      inspector: 'Lee Seo-yeon',
      findings: 'Burnt toast; detector cleaned.',
      state: 'resolved',
      photos: ['up-1'],
    })
    expect(String(calls[1]?.body.inspected_at)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/)
    // the saved record is listed under the alarm, and the form is closed
    expect(await screen.findByText('Inspections (1)')).toBeTruthy()
    expect(screen.getByText('Resolved')).toBeTruthy()
    expect(screen.queryByTestId('inspection-form')).toBeNull()
  })

  it("lists a POI's inspections, with or without an alarm, and records a new one against the POI", async () => {
    const calls = stubServer()
    investigationsStore.projectId = 'project-1'
    investigationsStore.list = [
      record('r-1', 'alarm-1', 'Detector cleaned.'),
      { ...record('r-2', '', 'Door closer loose.'), poi_id: 'poi-2' },
    ]
    renderWithI18n(<Inspections projectId="project-1" subject={{ poiId: 'poi-1' }} canEdit />)
    expect(screen.getByText('Inspections (1)')).toBeTruthy()
    expect(screen.getByText('Detector cleaned.')).toBeTruthy()
    expect(screen.queryByText('Door closer loose.')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Add inspection' }))
    await userEvent.type(screen.getByLabelText(/Inspector/), 'Lee Seo-yeon')
    await userEvent.click(screen.getByRole('button', { name: 'Record inspection' }))
    await waitFor(() => expect(calls).toHaveLength(1))
    expect(calls[0]?.path).toBe('/web/investigation/add')
    expect(calls[0]?.body).toMatchObject({
      poi_id: 'poi-1',
      inspector: 'Lee Seo-yeon',
      state: 'open',
    })
    expect(calls[0]?.body).not.toHaveProperty('alarm_id')
  })

  it('shows what another open editor adds, changes and deletes, without a reload (live stream)', async () => {
    investigationsStore.projectId = 'project-1'
    investigationsStore.list = [record('r-1', 'alarm-1', 'Detector cleaned.')]
    renderWithI18n(
      <Inspections projectId="project-1" subject={{ alarmId: alarm.id }} canEdit={false} />,
    )
    expect(screen.getByText('Inspections (1)')).toBeTruthy()
    const added = {
      ...record('r-9', 'alarm-1', 'Sprinkler head checked.'),
      inspector: 'Park Ji-ho',
      inspected_at: '2026-11-27T07:00:00.000Z',
      updated_at: '2026-11-27T07:05:00.000Z',
    }
    await tell({ type: 'investigation', investigation: added })
    expect(screen.getByText('Inspections (2)')).toBeTruthy()
    expect(screen.getByText('Sprinkler head checked.')).toBeTruthy()
    expect(screen.getByText('Park Ji-ho')).toBeTruthy()

    const resolved = {
      ...added,
      state: 'resolved' as const,
      updated_at: '2026-11-27T07:09:00.000Z',
    }
    await tell({ type: 'investigation', investigation: resolved })
    expect(screen.getByText('Resolved')).toBeTruthy()
    // an older version told late never replaces the newer one
    await tell({ type: 'investigation', investigation: added })
    expect(screen.getByText('Resolved')).toBeTruthy()
    // another project's record is not listed here
    await tell({
      type: 'investigation',
      investigation: { ...record('r-x', 'alarm-1', 'Not ours.'), projectid: 'project-2' },
    })
    expect(screen.queryByText('Not ours.')).toBeNull()

    await tell({ type: 'investigationDeleted', id: 'r-9' })
    expect(screen.getByText('Inspections (1)')).toBeTruthy()
    expect(screen.queryByText('Sprinkler head checked.')).toBeNull()
  })
})
