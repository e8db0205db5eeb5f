import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/test-app'
import { timestampOf } from '../time/clock'
import { readPackagePois } from './offline-package-pois'

/**
 * The package's POI list, written as JSON by the database (SQLite or PostgreSQL), reads back as
 * exactly the rows the POI list reads: every column, text with quotes and line breaks, doubles
 * at full precision, in list order.
 */
describe('package POIs', () => {
  let testApp: TestApp

  beforeAll(async () => {
    testApp = await createTestApp()
  })
  afterAll(async () => {
    await testApp?.close()
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
    const read = await readPackagePois(db, dialect, project.id)
    expect(JSON.parse(read.json)).toEqual(JSON.parse(JSON.stringify(rows)))
    expect(read.count).toBe(rows.length)
    expect(read.templateIds).toEqual([...new Set(rows.map((row) => row.category_id))].sort())

    expect(await readPackagePois(db, dialect, randomUUID())).toEqual({
      json: '[]',
      count: 0,
      templateIds: [],
    })
  })
})
