import { randomUUID } from 'node:crypto'
import { text } from 'node:stream/consumers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/test-app'
import { timestampOf } from '../time/clock'
import {
  openPoiListReader,
  type PoiListReader,
  type PoiListTally,
  summarizePackagePois,
} from './offline-package-pois'

/**
 * The package's POI list, written as JSON by the database (SQLite or PostgreSQL) and read over
 * a connection of the reader's own, reads back as exactly the rows the POI list reads: every
 * column, text with quotes and line breaks, doubles at full precision, in list order across
 * chunks; every list read in one snapshot holds the same rows while POIs are added.
 */
describe('package POIs', () => {
  let testApp: TestApp
  let reader: PoiListReader

  beforeAll(async () => {
    testApp = await createTestApp()
    reader = openPoiListReader(testApp.config.database)
  })
  afterAll(async () => {
    await reader?.close()
    await testApp?.close()
  })

  /** One list read to its end, and what the reader tallied. */
  const readList = async (projectId: string) => {
    let tally: PoiListTally | undefined
    const json = await text(reader.open(projectId, (read) => (tally = read)))
    return { json, tally }
  }

  it('reads every POI row of the project as the rows themselves, in list order, from one snapshot', async () => {
    const { db } = testApp.app.deps.database
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
    // 1,200 rows: the list spans several of the reader's chunks
    await db
      .insertInto('pois')
      .values(
        Array.from({ length: 1_170 }, (_, index) => ({
          id: randomUUID(),
          project_id: project.id,
          name: `Bulk ${index}`,
          category_id: template.id,
          poicategory_code: 'test',
          template_type: '1',
          category_type: '2D',
          x: index,
          y: 0,
          z: 0,
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
    const summary = await summarizePackagePois(db, project.id)
    expect(summary).toEqual({
      count: rows.length,
      templateIds: [...new Set(rows.map((row) => row.category_id))].sort(),
    })

    await reader.begin()
    try {
      const first = await readList(project.id)
      expect(first.json.endsWith(']\n')).toBe(true)
      expect(JSON.parse(first.json)).toEqual(JSON.parse(JSON.stringify(rows)))
      expect(first.tally).toEqual(summary)
      // a POI added while the snapshot lasts is in neither list of this build
      await db
        .insertInto('pois')
        .values({ ...rows[0]!, id: randomUUID(), name: 'Added meanwhile' })
        .execute()
      const second = await readList(project.id)
      expect(second.json).toBe(first.json)
    } finally {
      await reader.end()
    }
    expect((await summarizePackagePois(db, project.id)).count).toBe(rows.length + 1)

    await reader.begin()
    try {
      expect(await readList(randomUUID())).toEqual({
        json: '[]\n',
        tally: { count: 0, templateIds: [] },
      })
    } finally {
      await reader.end()
    }
  })
})
