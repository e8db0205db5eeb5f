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
 * its project; a keyword's rarest gram (counted in the index up to a cap), or all its grams when
 * none is rare, narrow the POIs that `LIKE` then checks.
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
 * The grams to narrow a name search by: the rarest of (up to six of) the keyword's grams in the
 * project when it is rare (counted below the cap), else all of them, whose POIs in common
 * (`intersect` of index ranges read in `poi_id` order) are few where any one gram's are many —
 * "door 1" among 100,000 "Door n" names: 20,000 POIs have "doo", 2,222 have every gram.
 * Undefined for a one-character keyword (`LIKE` alone); `isEmpty` when a gram is in no POI.
 */
export async function narrowingNameGrams(
  db: Database,
  projectId: string,
  keyword: string,
): Promise<{ grams: string[]; isEmpty: boolean } | undefined> {
  const grams = keywordGrams(keyword).slice(0, 6)
  if (grams.length === 0) return undefined
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
    if (entry.count === 0) return { grams: [gram], isEmpty: true }
    if (rarest === undefined || entry.count < rarest.count) rarest = entry
  }
  if (rarest !== undefined && rarest.count < gramCountCap) {
    return { grams: [rarest.gram], isEmpty: false }
  }
  return { grams: tilingGrams(grams), isEmpty: false }
}

/**
 * Of a keyword's 3-grams in order, those that tile it: every third and the last. Overlapping
 * grams add little to the intersection ("doo" and "oor" are in the same names) but each costs a
 * read of its index range.
 */
function tilingGrams(grams: readonly string[]): string[] {
  const tiles = grams.filter((_, index) => index % 3 === 0)
  const last = grams[grams.length - 1]
  if (last !== undefined && !tiles.includes(last)) tiles.push(last)
  return tiles
}
