import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { FileStore } from '@tus/file-store'
import type { DataStore } from '@tus/server'

/** An upload as its store records it: what tus was told at creation, and when. */
export interface StoredUploadRecord {
  metadata: Record<string, string | null | undefined>
  /** From the record; undefined when it names no time. */
  createdAtMs: number | undefined
}

/**
 * Where the resumable uploads' bytes are kept while they arrive and until they are claimed: the
 * tus data store plus what claiming and expiry need of it, the same for a folder on this
 * machine and for an S3-compatible bucket (s3-resumable-store.ts).
 */
export interface ResumableStore {
  /** The tus data store the tus server writes through. */
  datastore: DataStore
  /**
   * Every upload with anything stored (a record, bytes, a leftover part), with the earliest
   * time any of it was written: what an upload has when its record is gone (a crash).
   */
  listUploads(): Promise<Array<{ uploadId: string; writtenAtMs: number }>>
  /** The upload's record, or undefined when it has none. */
  recordOf(uploadId: string): Promise<StoredUploadRecord | undefined>
  /**
   * The finished upload as a file on this machine, for consumers that read it as a file (an
   * archive, a PMTiles file); `dispose` deletes it when it is a copy made for the claim.
   */
  localFile(uploadId: string): Promise<{ path: string; dispose(): Promise<void> }>
  /**
   * What a failure to read an upload means: undefined when the upload is simply not there (or,
   * in the folder, unreadable: unknown to the client), else the error to answer with.
   */
  failureOf(error: unknown): unknown
  /** Deletes everything of an upload; a missing upload is not an error. */
  remove(uploadId: string): Promise<void>
  /**
   * Deletes what the store holds for uploads it has no other trace of (a bucket's multipart
   * uploads whose record is gone) when started before `beforeMs`; `isHeld` says an upload is
   * being claimed. How many.
   */
  sweepStrays(beforeMs: number, isHeld: (uploadId: string) => Promise<boolean>): Promise<number>
}

/**
 * Uploads in `directory` (created on first use), as they always were: `<id>` holds the bytes
 * received, `<id>.json` the record. A finished upload is claimed where it lies, never copied.
 */
export function folderResumableStore(directory: string, expiryMs: number): ResumableStore {
  const datastore = new FileStore({ directory, expirationPeriodInMilliseconds: expiryMs })
  return {
    datastore,
    async listUploads() {
      let names: string[]
      try {
        names = await readdir(directory)
      } catch {
        return []
      }
      // A crash between writing the data file and its .json leaves one without the other.
      const uploadIds = new Set(names.map((name) => name.replace(/\.json$/, '')))
      const found: Array<{ uploadId: string; writtenAtMs: number }> = []
      for (const uploadId of uploadIds) {
        const writtenAtMs = Math.min(
          await modifiedAtMs(join(directory, uploadId)),
          await modifiedAtMs(join(directory, `${uploadId}.json`)),
        )
        found.push({ uploadId, writtenAtMs })
      }
      return found
    },
    async recordOf(uploadId) {
      try {
        const upload = await datastore.getUpload(uploadId)
        const createdAtMs = upload.creation_date ? Date.parse(upload.creation_date) : undefined
        return { metadata: upload.metadata ?? {}, createdAtMs }
      } catch {
        return undefined
      }
    },
    failureOf: () => undefined,
    localFile: async (uploadId) => ({
      path: join(directory, uploadId),
      dispose: async () => undefined,
    }),
    async remove(uploadId) {
      // Both files, each may already be gone (expired, terminated by its owner, released twice).
      await rm(join(directory, uploadId), { force: true })
      await rm(join(directory, `${uploadId}.json`), { force: true })
    },
    // nothing of an upload lives anywhere but its two files
    sweepStrays: async () => 0,
  }
}

async function modifiedAtMs(path: string): Promise<number> {
  try {
    return (await stat(path)).mtimeMs
  } catch {
    return Number.POSITIVE_INFINITY
  }
}
