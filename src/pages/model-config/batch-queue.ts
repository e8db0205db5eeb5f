import type { ConversionDatum } from '../../api/building'
import { createExternalStore, type ExternalStore } from '../../ui/external-store'

/** Where one file of a batch is. */
export type BatchItemState = 'waiting' | 'uploading' | 'converting' | 'succeeded' | 'failed'

/** One file of a batch conversion. */
export interface BatchItem {
  id: number
  file: File
  state: BatchItemState
  /** 0–1 of the bytes sent. */
  uploadFraction: number
  datum: ConversionDatum | null
  /** What went wrong, as the console says it (rendered when the row is drawn). */
  error: unknown
}

/** Converts one file, reporting its upload; rejects with the server's refusal. */
export type ConvertOne = (
  file: File,
  onProgress: (sentBytes: number, totalBytes: number) => void,
) => Promise<ConversionDatum>

/** A queue of conversions, one at a time, with retry of failures. */
export interface BatchQueue {
  store: ExternalStore<readonly BatchItem[]>
  /** Adds files at the end of the queue and starts it when idle. */
  add(files: readonly File[]): void
  /** Puts failed files (one, or all when no id is given) back in the queue. */
  retry(id?: number): void
  /** Removes the files that are not being converted. */
  clear(): void
}

/**
 * A batch of conversions (issue 21 item 3): the files go one after another, since the server
 * gives each user a short queue of conversions and a long one would be refused; a refused file
 * fails alone and the batch goes on; failed files can be tried again.
 */
export function createBatchQueue(convert: ConvertOne): BatchQueue {
  const store = createExternalStore<readonly BatchItem[]>([])
  let nextId = 1
  let isRunning = false

  const patch = (id: number, change: Partial<BatchItem>) =>
    store.set((items) => items.map((item) => (item.id === id ? { ...item, ...change } : item)))

  const run = async () => {
    if (isRunning) return
    isRunning = true
    try {
      for (;;) {
        const next = store.get().find((item) => item.state === 'waiting')
        if (!next) return
        patch(next.id, { state: 'uploading', uploadFraction: 0, error: null })
        try {
          const datum = await convert(next.file, (sent, total) => {
            const fraction = total > 0 ? sent / total : 0
            // every byte is in: the server converts now
            patch(next.id, {
              uploadFraction: fraction,
              state: fraction >= 1 ? 'converting' : 'uploading',
            })
          })
          patch(next.id, { state: 'succeeded', uploadFraction: 1, datum })
        } catch (error) {
          patch(next.id, { state: 'failed', error })
        }
      }
    } finally {
      isRunning = false
    }
  }

  return {
    store,
    add(files) {
      const added = files.map(
        (file): BatchItem => ({
          id: nextId++,
          file,
          state: 'waiting',
          uploadFraction: 0,
          datum: null,
          error: null,
        }),
      )
      store.set((items) => [...items, ...added])
      void run()
    },
    retry(id) {
      store.set((items) =>
        items.map((item) =>
          item.state === 'failed' && (id === undefined || item.id === id)
            ? { ...item, state: 'waiting', error: null, uploadFraction: 0 }
            : item,
        ),
      )
      void run()
    },
    clear() {
      store.set((items) =>
        items.filter((item) => item.state === 'uploading' || item.state === 'converting'),
      )
    },
  }
}

/**
 * File names for a ZIP of the converted models: `<base>.sbm`, with a number added when two
 * sources share a base name (`duck.dae` and `duck.fbx`), so no entry replaces another.
 */
export function zipEntryNames(downloadNames: readonly string[]): string[] {
  const used = new Set<string>()
  return downloadNames.map((name) => {
    let candidate = name
    const dot = name.lastIndexOf('.')
    const base = dot > 0 ? name.slice(0, dot) : name
    const extension = dot > 0 ? name.slice(dot) : ''
    for (let index = 2; used.has(candidate.toLowerCase()); index++) {
      candidate = `${base} (${index})${extension}`
    }
    used.add(candidate.toLowerCase())
    return candidate
  })
}
