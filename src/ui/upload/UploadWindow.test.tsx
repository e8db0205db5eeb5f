import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { renderWithI18n } from '../testing/render-with-i18n'
import { type UploadStatus, uploadListScrollThreshold, uploadStore } from './upload-store'
import { UploadWindow } from './UploadWindow'

/** valtio tells components about changes in a microtask, so let that run inside act. */
async function inStore(change: () => void) {
  await act(async () => change())
}

afterEach(() => inStore(() => uploadStore.close()))

function addRows(statuses: UploadStatus[]) {
  return inStore(() => {
    statuses.forEach((status, index) => {
      uploadStore.add({ id: `file-${index}`, name: `file-${index}.sbm`, sizeBytes: 1536, status })
    })
  })
}

const uploadWindow = () => screen.getByRole('region', { name: 'upload list' })
const rowOf = (name: string) => screen.getByText(name).closest('li') as HTMLElement

describe('UploadWindow', () => {
  it('is hidden until opened', async () => {
    renderWithI18n(<UploadWindow />)
    expect(screen.queryByRole('region')).toBeNull()
    await inStore(() => uploadStore.open())
    expect(uploadWindow()).toBeTruthy()
  })

  it('says no files were uploaded yet when the list is empty', async () => {
    renderWithI18n(<UploadWindow />)
    await inStore(() => uploadStore.open())
    expect(within(uploadWindow()).getByText('no files uploaded yet')).toBeTruthy()
  })

  it('counts finished files as "uploading (done/total)"', async () => {
    renderWithI18n(<UploadWindow />)
    await inStore(() => uploadStore.open())
    await addRows(['success', 'failure', 'uploading', 'ready'])
    expect(within(uploadWindow()).getByText('uploading (2/4)')).toBeTruthy()
  })

  it('says "uploaded (n/n)" once every file has finished', async () => {
    renderWithI18n(<UploadWindow />)
    await inStore(() => uploadStore.open())
    await addRows(['success', 'failure'])
    expect(within(uploadWindow()).getByText('uploaded (2/2)')).toBeTruthy()
  })

  it('forgets finished rows when cleared, keeps the ones still sending', async () => {
    renderWithI18n(<UploadWindow />)
    await inStore(() => uploadStore.open())
    await addRows(['success', 'uploading', 'failure'])
    await inStore(() => uploadStore.clearFinished())
    expect(screen.queryByText('file-0.sbm')).toBeNull()
    expect(screen.queryByText('file-2.sbm')).toBeNull()
    expect(rowOf('file-1.sbm')).toBeTruthy()
    await inStore(() => uploadStore.update('file-1', { status: 'success' }))
    await inStore(() => uploadStore.clearFinished())
    expect(screen.queryByRole('region')).toBeNull()
  })

  it('shows each row’s name, size and state label', async () => {
    renderWithI18n(<UploadWindow />)
    await inStore(() => uploadStore.open())
    await addRows(['ready', 'uploading', 'success', 'failure'])
    await inStore(() => uploadStore.update('file-1', { progressPercent: 42.4 }))
    expect(rowOf('file-0.sbm').textContent).toContain('1.5 KB')
    expect(rowOf('file-0.sbm').textContent).toContain('waiting')
    expect(rowOf('file-1.sbm').textContent).toContain('42%')
    expect(within(rowOf('file-1.sbm')).getByRole('progressbar').getAttribute('aria-valuenow')).toBe(
      '42.4',
    )
    expect(rowOf('file-2.sbm').textContent).toContain('success')
    expect(rowOf('file-3.sbm').textContent).toContain('failure')
    expect(rowOf('file-3.sbm').dataset.status).toBe('failure')
  })

  it('follows real progress reported by upload code', async () => {
    renderWithI18n(<UploadWindow />)
    await inStore(() => uploadStore.open())
    await addRows(['uploading'])
    await inStore(() => uploadStore.update('file-0', { progressPercent: 73 }))
    expect(rowOf('file-0.sbm').textContent).toContain('73%')
    await inStore(() => uploadStore.update('file-0', { status: 'success' }))
    expect(rowOf('file-0.sbm').textContent).toContain('success')
    expect(screen.getByText('uploaded (1/1)')).toBeTruthy()
  })

  it(`scrolls only above ${uploadListScrollThreshold} files`, async () => {
    renderWithI18n(<UploadWindow />)
    await inStore(() => uploadStore.open())
    await addRows(Array.from({ length: uploadListScrollThreshold }, () => 'ready' as const))
    expect(uploadWindow().querySelector('[data-scrollable]')).toBeNull()
    await inStore(() => uploadStore.add({ id: 'tenth', name: 'tenth.sbm', sizeBytes: 1 }))
    expect(uploadWindow().querySelector('[data-scrollable]')).not.toBeNull()
    expect(within(uploadWindow()).getAllByRole('listitem')).toHaveLength(10)
  })

  it('minimises to its title bar and maximises again', async () => {
    renderWithI18n(<UploadWindow />)
    await inStore(() => uploadStore.open())
    await addRows(['uploading'])
    await userEvent.click(screen.getByRole('button', { name: 'Minimise' }))
    expect(screen.queryByText('file-0.sbm')).toBeNull()
    expect(uploadWindow()).toBeTruthy()
    await userEvent.click(screen.getByRole('button', { name: 'Maximise' }))
    expect(screen.getByText('file-0.sbm')).toBeTruthy()
  })

  it('closes with its close button, which also clears the list', async () => {
    renderWithI18n(<UploadWindow />)
    await inStore(() => uploadStore.open())
    await addRows(['success'])
    await userEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(screen.queryByRole('region')).toBeNull()
    expect(uploadStore.rows).toEqual([])
    await inStore(() => uploadStore.open())
    expect(screen.getByText('no files uploaded yet')).toBeTruthy()
  })
})
