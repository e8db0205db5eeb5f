import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../api/client'
import { createPoiStore } from '../../state/pois'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { PoiBatchAddDialog } from './PoiBatchAddDialog'
import {
  createFakePoiServer,
  createFakeScreenServices,
  poiRecord,
  sceneTemplate,
} from './testing/fake-poi-server'

const camera = sceneTemplate('t1', 'Camera')

type BatchInput = {
  isDryRun: boolean
  onProgress?: (sentBytes: number, totalBytes: number) => void
}

async function setUp(
  batch: (
    isDryRun: boolean,
    input: BatchInput,
  ) => Promise<{ count: number; isDryRun: boolean; ids: string[] }>,
) {
  const server = createFakePoiServer([camera], [])
  const store = createPoiStore(server, { onError: vi.fn() })
  await store.load('project-1', 'city')
  const services = createFakeScreenServices(server)
  const batchCreatePois = vi.fn((input: BatchInput) => batch(input.isDryRun, input))
  const onClose = vi.fn()
  renderWithI18n(
    <PoiBatchAddDialog
      isOpen
      onClose={onClose}
      store={store}
      services={{ ...services, batchCreatePois }}
    />,
  )
  await userEvent.click(await screen.findByRole('combobox', { name: 'Template' }))
  await userEvent.click(await screen.findByRole('option', { name: 'Camera' }))
  const file = new File(['name,x,y\n'], 'pois.csv', { type: 'text/csv' })
  await userEvent.upload(screen.getByLabelText('Filled batch file (.xlsx or .csv)'), file)
  return { server, store, batchCreatePois, onClose }
}

describe('PoiBatchAddDialog', () => {
  it('lists the bad cells of a refused file and adds nothing', async () => {
    const refusal = new ApiError({
      reason: 'server',
      envelope: {
        code: '400',
        message: 'Some rows are wrong.',
        messageId: 'poiBatch.rowErrors',
        datum: {
          details: [
            {
              row: 3,
              column: 'x',
              field: 'x',
              message: 'bad',
              messageId: 'poi.longitudeRange',
              params: {},
            },
          ],
        },
      },
      httpStatus: 400,
      fallbackMessage: 'Some rows are wrong.',
    })
    const { batchCreatePois } = await setUp(async () => {
      throw refusal
    })
    await userEvent.click(screen.getByRole('button', { name: 'Check the file' }))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Nothing was added.')
    expect(alert.textContent).toContain('The longitude must be between -180 and 180.')
    expect(screen.getByRole('cell', { name: '3' })).toBeTruthy()
    expect((screen.getByRole('button', { name: 'Add' }) as HTMLButtonElement).disabled).toBe(true)
    expect(batchCreatePois).toHaveBeenCalledTimes(1)
    expect(batchCreatePois.mock.calls[0]?.[0]).toMatchObject({
      isDryRun: true,
      templateId: 't1',
      projectId: 'project-1',
    })
  })

  it('checks first, then adds every row and reloads the POIs', async () => {
    let isAdded = false
    const { server, store, onClose } = await setUp(async (isDryRun) => {
      if (!isDryRun) {
        isAdded = true
        server.pois.set('n1', poiRecord({ id: 'n1', category_id: 't1' }, camera))
      }
      return { count: 200, isDryRun, ids: [] }
    })
    await userEvent.click(screen.getByRole('button', { name: 'Check the file' }))
    expect(await screen.findByText('All rows are fine: 200 POIs will be added.')).toBeTruthy()
    expect(isAdded).toBe(false)
    await userEvent.click(screen.getByRole('button', { name: 'Add' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(isAdded).toBe(true)
    expect(store.get('n1')).toBeDefined()
  })

  it('shows the bytes of the file on their way up, then checks the rows', async () => {
    let report: ((sentBytes: number, totalBytes: number) => void) | undefined
    let answer: (() => void) | undefined
    await setUp(
      (isDryRun, input) =>
        new Promise((resolve) => {
          report = input.onProgress
          answer = () => resolve({ count: 200, isDryRun, ids: [] })
        }),
    )
    await userEvent.click(screen.getByRole('button', { name: 'Check the file' }))
    await waitFor(() => expect(report).toBeDefined())
    act(() => report?.(512 * 1024, 2 * 1024 * 1024))
    const bar = await screen.findByRole('progressbar', { name: 'Upload progress' })
    expect(bar.getAttribute('value')).toBe(String(512 * 1024))
    expect(bar.getAttribute('max')).toBe(String(2 * 1024 * 1024))
    expect(screen.getByText('Uploading the file: 512.0 KB of 2.0 MB')).toBeTruthy()
    // every byte is in: the server reads the rows now
    act(() => report?.(2 * 1024 * 1024, 2 * 1024 * 1024))
    expect(await screen.findByRole('status', { name: 'Checking the rows…' })).toBeTruthy()
    expect(screen.queryByRole('progressbar', { name: 'Upload progress' })).toBeNull()
    act(() => answer?.())
    expect(await screen.findByText('All rows are fine: 200 POIs will be added.')).toBeTruthy()
  })
})
