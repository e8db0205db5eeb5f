import { proxy } from 'valtio'

/**
 * SPEC §4 upload row status: `ready` shows as waiting; `processing` means every byte is sent
 * and the server is still working on the file (e.g. converting a model), shown with
 * `processingLabel`.
 */
export type UploadStatus = 'ready' | 'uploading' | 'processing' | 'success' | 'failure'

/**
 * One file in the upload window (SPEC §3 "Upload file row": id, name, size, progress,
 * status; the style class is derived from the status when drawing).
 */
export interface UploadRow {
  id: string
  name: string
  sizeBytes: number
  /** 0–100. */
  progressPercent: number
  status: UploadStatus
  /** Bytes really sent so far, when the transport reports them (shown beside the size). */
  sentBytes?: number
  /** Why a failed upload failed: shown under the row, in the language of the moment. */
  errorMessage?: LiveText
  /** What the server does while the row is `processing` (e.g. "converting"). */
  processingLabel?: LiveText
}

/**
 * Words made when drawn, in the UI language of that moment: a function over what was said (a
 * server's message id and parameters, a catalogue message), not the words themselves, so a
 * row that stays on screen follows a language switch. E.g. `() => errorText(error)`.
 */
export type LiveText = () => string

/** What {@link uploadStore}'s `add` takes: progress and status start at 0 and `ready`. */
export type NewUploadRow = Pick<UploadRow, 'id' | 'name' | 'sizeBytes'> &
  Partial<Pick<UploadRow, 'progressPercent' | 'status'>>

/** SPEC §9: above this many files the list becomes a scroll area. */
export const uploadListScrollThreshold = 9

const clampPercent = (percent: number) => Math.min(100, Math.max(0, percent))

/**
 * The upload-progress window's state (SPEC §4 "Upload window"). Upload code anywhere drives
 * it with real byte progress; the {@link UploadWindow} draws it. Opening or closing sets both
 * the window and the file status at once, and closing clears the list.
 */
export const uploadStore = proxy({
  isOpen: false,
  isMinimised: false,
  rows: [] as UploadRow[],

  /** Shows the window, maximised. */
  open(): void {
    uploadStore.isOpen = true
    uploadStore.isMinimised = false
  },

  /** Hides the window and forgets its rows (SPEC: the list clears when the file status ends). */
  close(): void {
    uploadStore.isOpen = false
    uploadStore.isMinimised = false
    uploadStore.rows = []
  },

  /** Adds a file, or resets the row with the same id if it is already listed. */
  add(row: NewUploadRow): void {
    const next: UploadRow = {
      progressPercent: 0,
      status: 'ready',
      ...row,
    }
    next.progressPercent = clampPercent(next.progressPercent)
    const index = uploadStore.rows.findIndex((existing) => existing.id === row.id)
    if (index === -1) uploadStore.rows.push(next)
    else uploadStore.rows[index] = next
  },

  /** Changes a listed file, e.g. `update(id, { status: 'uploading', progressPercent: 42 })`. */
  update(id: string, patch: Partial<Omit<UploadRow, 'id'>>): void {
    const row = uploadStore.rows.find((existing) => existing.id === id)
    if (!row) return
    Object.assign(row, patch)
    row.progressPercent = clampPercent(row.progressPercent)
    // A finished upload has by definition sent everything.
    if (row.status === 'success') row.progressPercent = 100
  },

  /** Removes one file from the list. */
  remove(id: string): void {
    uploadStore.rows = uploadStore.rows.filter((existing) => existing.id !== id)
  },

  /**
   * Forgets the finished rows (succeeded or failed) and closes the window when nothing is left,
   * e.g. when another project is opened: its list must not show the last project's files.
   * Rows still sending stay, so an upload in flight is never hidden.
   */
  clearFinished(): void {
    uploadStore.rows = uploadStore.rows.filter(
      (row) => row.status !== 'success' && row.status !== 'failure',
    )
    if (uploadStore.rows.length === 0) uploadStore.close()
  },

  /** Folds the window to its title bar, or unfolds it. */
  toggleMinimised(): void {
    uploadStore.isMinimised = !uploadStore.isMinimised
  },
})

/** Finished (succeeded or failed) and total file counts, for "uploading (done/total)". */
export function uploadCounts(rows: readonly Pick<UploadRow, 'status'>[]): {
  doneCount: number
  totalCount: number
} {
  const doneCount = rows.filter(
    (row) => row.status === 'success' || row.status === 'failure',
  ).length
  return { doneCount, totalCount: rows.length }
}
