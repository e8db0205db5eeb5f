import type { Database } from '../../plugins/db'
import {
  createEventLoopSlices,
  type EventLoopSlices,
  flatMapInSlices,
} from '../jobs/event-loop-slices'
import { gramsOf, keywordGrams } from '../templates/template-search'
import { chunksOf } from './poi-records'

/**
 * Name search among a project's POIs without reading every POI: each POI's lower-cased name is
 * cut into 2- and 3-character pieces (grams, the same cut as the template search) stored with
 * its project; a keyword's rarest gram, counted in the index up to a cap, narrows the POIs that
 * `LIKE` then checks.
 */

/** Grams are counted up to this many POIs when choosing the rarest. */
const gramCountCap = 2_000

/** Writes the grams of new POIs (in the caller's transaction), in slices of the event loop. */
export async function insertNameGrams(
  transaction: Database,
  pois: ReadonlyArray<{ id: string; project_id: string; name: string }>,
  slices: EventLoopSlices = createEventLoopSlices(),
): Promise<void> {
  const rows = await flatMapInSlices(slices, pois, (poi) =>
    [...gramsOf(poi.name)].map((gram) => ({ project_id: poi.project_id, gram, poi_id: poi.id })),
  )
  for (const chunk of chunksOf(rows, 1_000)) {
    await slices.pause()
    await transaction.insertInto('poi_name_grams').values(chunk).execute()
  }
}

/** Replaces the grams of renamed POIs. */
export async function replaceNameGrams(
  transaction: Database,
  pois: ReadonlyArray<{ id: string; project_id: string; name: string }>,
): Promise<void> {
  for (const chunk of chunksOf(pois, 500)) {
    await transaction
      .deleteFrom('poi_name_grams')
      .where(
        'poi_id',
        'in',
        chunk.map((poi) => poi.id),
      )
      .execute()
  }
  await insertNameGrams(transaction, pois)
}

/**
 * The gram to narrow a name search by: the rarest of (up to six of) the keyword's grams in the
 * project, or undefined for a one-character keyword (`LIKE` alone). `count` 0 means no POI can
 * match.
 */
export async function rarestNameGram(
  db: Database,
  projectId: string,
  keyword: string,
): Promise<{ gram: string; count: number } | undefined> {
  const grams = keywordGrams(keyword).slice(0, 6)
  let rarest: { gram: string; count: number } | undefined
  for (const gram of grams) {
    const { count } = await db
      .selectFrom(
        db
          .selectFrom('poi_name_grams')
          .select('poi_id')
          .where('project_id', '=', projectId)
          .where('gram', '=', gram)
          .limit(gramCountCap)
          .as('sample'),
      )
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow()
    const entry = { gram, count: Number(count) }
    if (entry.count === 0) return entry
    if (rarest === undefined || entry.count < rarest.count) rarest = entry
  }
  return rarest
}
