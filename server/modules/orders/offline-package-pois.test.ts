import { randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/test-app'
import { timestampOf } from '../time/clock'
import { spoolPackagePois } from './offline-package-pois'

/**
 * The package's POI list, written as JSON by the database (SQLite or PostgreSQL) a chunk of rows
 * at a time into a file, reads back as exactly the rows the POI list reads: every column, text
 * with quotes and line breaks, doubles at full precision, in list order across the chunks.
 */
describe('package POIs', () => {
  let testApp: TestApp
  let folder: string

  beforeAll(async () => {
    testApp = await createTestApp()
    folder = await mkdtemp(join(tmpdir(), 'package-pois-'))
  })
  afterAll(async () => {
    await testApp?.close()
    if (folder) await rm(folder, { recursive: true, force: true })
  })

  it('reads every POI row of the project as the rows themselves, in list order', async () => {
    const { db, dialect } = testApp.app.deps.database
    const project = await db
      .selectFrom('projects')
      .select(['id'])
      .where('is_case', '=', 1)
      .where('kind', '=', 'building')
      .executeTakeFirstOrThrow()
    const template = await db.selectFrom('poi_templates').select(['id']).executeTakeFirstOrThrow()
    const timestamp = timestampOf(testApp.clock.nowMs())
    await db
      .insertInto('pois')
      .values(
        Array.from({ length: 30 }, (_, index) => ({
          id: randomUUID(),
          project_id: project.id,
          name: `Sensor "${index}" ☃\n`,
          category_id: template.id,
          poicategory_code: 'test',
          template_type: '1',
          category_type: '2D',
          x: index * 0.1 + 0.2,
          y: 121.4737123456789 * index,
          z: 5,
          created_at: timestamp,
          updated_at: timestamp,
        })),
      )
      .execute()
    const rows = await db
      .selectFrom('pois')
      .selectAll()
      .where('project_id', '=', project.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
    // 7 rows a chunk: the 30 new POIs (and any the seed has) span several chunks
    const path = join(folder, 'pois.json')
    const spooled = await spoolPackagePois(db, dialect, project.id, path, 7)
    const text = await readFile(path, 'utf8')
    expect(text.endsWith(']\n')).toBe(true)
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(rows)))
    expect(spooled).toEqual({
      path,
      sizeBytes: Buffer.byteLength(text),
      count: rows.length,
      templateIds: [...new Set(rows.map((row) => row.category_id))].sort(),
    })

    const emptyPath = join(folder, 'none.json')
    expect(await spoolPackagePois(db, dialect, randomUUID(), emptyPath)).toEqual({
      path: emptyPath,
      sizeBytes: 3,
      count: 0,
      templateIds: [],
    })
    expect(await readFile(emptyPath, 'utf8')).toBe('[]\n')
  })
})
