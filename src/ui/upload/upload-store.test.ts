import { afterEach, describe, expect, it } from 'vitest'
import { formatFileSize } from './file-size'
import { uploadCounts, uploadStore } from './upload-store'

afterEach(() => uploadStore.close())

describe('uploadStore', () => {
  it('opens maximised and closes clearing the list', () => {
    uploadStore.open()
    uploadStore.add({ id: 'a', name: 'tower.sbm', sizeBytes: 10 })
    uploadStore.toggleMinimised()
    expect(uploadStore.isMinimised).toBe(true)
    uploadStore.close()
    expect(uploadStore.isOpen).toBe(false)
    expect(uploadStore.rows).toEqual([])
    uploadStore.open()
    expect(uploadStore.isMinimised).toBe(false)
  })

  it('adds rows as ready at 0 % and replaces a row added again', () => {
    uploadStore.add({ id: 'a', name: 'tower.sbm', sizeBytes: 10 })
    expect(uploadStore.rows).toEqual([
      { id: 'a', name: 'tower.sbm', sizeBytes: 10, progressPercent: 0, status: 'ready' },
    ])
    uploadStore.update('a', { status: 'failure' })
    uploadStore.add({ id: 'a', name: 'tower.sbm', sizeBytes: 10 })
    expect(uploadStore.rows).toHaveLength(1)
    expect(uploadStore.rows[0]?.status).toBe('ready')
  })

  it('updates progress within 0..100 and completes it on success', () => {
    uploadStore.add({ id: 'a', name: 'a.zip', sizeBytes: 1 })
    uploadStore.update('a', { status: 'uploading', progressPercent: 140 })
    expect(uploadStore.rows[0]?.progressPercent).toBe(100)
    uploadStore.update('a', { progressPercent: -3 })
    expect(uploadStore.rows[0]?.progressPercent).toBe(0)
    uploadStore.update('a', { status: 'success' })
    expect(uploadStore.rows[0]).toMatchObject({ status: 'success', progressPercent: 100 })
  })

  it('ignores updates for unknown rows and removes rows', () => {
    uploadStore.add({ id: 'a', name: 'a.zip', sizeBytes: 1 })
    uploadStore.update('missing', { status: 'success' })
    expect(uploadStore.rows.map((row) => row.status)).toEqual(['ready'])
    uploadStore.remove('a')
    expect(uploadStore.rows).toEqual([])
  })
})

describe('uploadCounts', () => {
  it('counts succeeded and failed files as done', () => {
    const statuses = ['success', 'failure', 'uploading', 'ready'] as const
    expect(uploadCounts(statuses.map((status) => ({ status })))).toEqual({
      doneCount: 2,
      totalCount: 4,
    })
  })
})

describe('formatFileSize', () => {
  it('writes bytes for people', () => {
    expect(formatFileSize(0)).toBe('0 B')
    expect(formatFileSize(512)).toBe('512 B')
    expect(formatFileSize(1536)).toBe('1.5 KB')
    expect(formatFileSize(2 * 1024 * 1024)).toBe('2.0 MB')
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1.0 MB')
    expect(formatFileSize(5 * 1024 ** 3)).toBe('5.0 GB')
    expect(formatFileSize(-1)).toBe('—')
  })
})
