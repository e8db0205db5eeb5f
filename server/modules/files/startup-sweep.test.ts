import { randomUUID } from 'node:crypto'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createTestApp, signIn, testEditor } from '../../testing/test-app'
import { cityDirectories } from '../tilesets/served-files'

/**
 * Issue 13 class 11: after a crash, staging folders and files being received belong to no live
 * request, so the next start removes them at once instead of 1–24 h later; what is meant to
 * outlive a restart (a resumable upload, stored files) stays.
 */
describe('start-up sweep of crash leftovers', () => {
  it('removes fresh leftovers of every kind at start-up and keeps resumable uploads', async () => {
    const first = await createTestApp()
    const { dataDir, filesDir, resumableDir } = first.config
    const city = cityDirectories(dataDir)
    let second: Awaited<ReturnType<typeof createTestApp>> | undefined
    try {
      const token = await signIn(first.app, testEditor)
      const resumable = await first.app.inject({
        method: 'POST',
        url: '/web/upload/resumable',
        headers: {
          'tus-resumable': '1.0.0',
          token,
          'upload-length': '1000',
          'upload-metadata': `filename ${Buffer.from('big.zip').toString('base64')},purpose ${Buffer.from('tileset').toString('base64')}`,
        },
      })
      expect(resumable.statusCode).toBe(201)
      const storedBefore = await readdir(filesDir)

      // what a kill in the middle of uploads leaves behind, all modified just now
      const leftovers = {
        storage: join(filesDir, `incoming-${randomUUID()}`),
        cityIncoming: join(city.incoming, `${randomUUID()}.upload`),
        staging: join(city.tilesets, `.staging-${randomUUID()}`),
        version: join(city.tilesets, randomUUID()),
        basemap: join(city.basemaps, `${randomUUID()}.pmtiles`),
      }
      await mkdir(city.incoming, { recursive: true })
      await mkdir(join(leftovers.staging, 'tiles'), { recursive: true })
      await mkdir(leftovers.version, { recursive: true })
      await mkdir(city.basemaps, { recursive: true })
      await writeFile(leftovers.storage, Buffer.alloc(1024))
      await writeFile(leftovers.cityIncoming, Buffer.alloc(1024))
      await writeFile(join(leftovers.staging, 'tiles', 'a.b3dm'), Buffer.alloc(1024))
      await writeFile(join(leftovers.version, 'tileset.json'), '{}')
      await writeFile(leftovers.basemap, Buffer.alloc(1024))
      const resumableFiles = await readdir(resumableDir)
      expect(resumableFiles.length).toBeGreaterThan(0)

      // the process stops (data kept) and a new one starts on the same data directory
      await first.app.close()
      second = await createTestApp({ env: { DATA_DIR: dataDir } })

      const names = (folder: string) => readdir(folder).catch(() => [] as string[])
      expect(await names(city.incoming)).toEqual([])
      // the seeded city case's tileset is a live version in the same folder: it stays
      const tilesetsAfter = await names(city.tilesets)
      expect(tilesetsAfter).not.toContain(basename(leftovers.staging))
      expect(tilesetsAfter).not.toContain(basename(leftovers.version))
      expect(await names(city.basemaps)).not.toContain(basename(leftovers.basemap))
      expect((await names(filesDir)).filter((name) => name.startsWith('incoming-'))).toEqual([])
      expect((await names(filesDir)).sort()).toEqual(storedBefore.sort())
      expect((await names(resumableDir)).sort()).toEqual(resumableFiles.sort())
    } finally {
      await second?.close()
      await first.close().catch(() => undefined)
    }
  })
})
