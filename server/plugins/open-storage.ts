import { createFileStorage, type FileStorage, type StorageLocation } from './storage'

/**
 * Opens the store at `location`. The AWS SDK is loaded only for a bucket: it is large, and warns
 * on start on Node 20, so a folder-store server starts as before.
 */
export async function openFileStorage(
  location: StorageLocation,
  options: { onStoreError?: (error: unknown) => void } = {},
): Promise<FileStorage> {
  if (location.kind === 'folder') return createFileStorage(location.directory)
  const { createS3FileStorage } = await import('./s3-storage')
  return createS3FileStorage(location.settings, location.spoolDirectory, options)
}
