import type { Database } from '../../plugins/db'

/**
 * Substring search over template names and codes without scanning every template: each
 * template's lower-cased name and code are cut into 2- and 3-character pieces (grams) stored
 * with its owner; a keyword of two or more characters needs one gram of it to be present, and
 * the rarest such gram (counted by index) gives the candidates that `LIKE` then checks.
 */

/** Grams are counted up to this many templates when choosing the rarest. */
const gramCountCap = 300

/** The distinct 2- and 3-character grams of a text, by code point (so CJK text works too). */
export function gramsOf(text: string): Set<string> {
  const characters = Array.from(text.toLowerCase())
  const grams = new Set<string>()
  for (const size of [2, 3]) {
    for (let start = 0; start + size <= characters.length; start += 1) {
      grams.add(characters.slice(start, start + size).join(''))
    }
  }
  return grams
}

/** The grams a keyword must contain: its 3-grams, or the keyword itself when it has 2 characters. */
export function keywordGrams(keyword: string): string[] {
  const characters = Array.from(keyword.toLowerCase())
  if (characters.length < 2) return []
  if (characters.length === 2) return [characters.join('')]
  const grams = new Set<string>()
  for (let start = 0; start + 3 <= characters.length; start += 1) {
    grams.add(characters.slice(start, start + 3).join(''))
  }
  return [...grams]
}

/** Replaces a template's grams (in the caller's transaction). */
export async function writeGrams(
  transaction: Database,
  template: { id: string; owner_id: string; name: string; poicategory_code: string },
): Promise<void> {
  await transaction
    .deleteFrom('poi_template_grams')
    .where('template_id', '=', template.id)
    .execute()
  const grams = new Set([...gramsOf(template.name), ...gramsOf(template.poicategory_code)])
  if (grams.size === 0) return
  await transaction
    .insertInto('poi_template_grams')
    .values(
      [...grams].map((gram) => ({ owner_id: template.owner_id, gram, template_id: template.id })),
    )
    .execute()
}

/** How to narrow a keyword search before `LIKE` checks it. */
export type GramFilter =
  /** Too short for a gram: `LIKE` alone. */
  | { kind: 'none' }
  /** A rare gram: these are all the templates that can match (fewer than the cap). */
  | { kind: 'ids'; ids: string[] }
  /** Only common grams: the templates holding this one (a subquery). */
  | { kind: 'gram'; gram: string }

/**
 * Narrows a search by the rare grams of `keyword` among `ownerIds`' templates. When some name
 * fewer templates than the cap, the templates holding (up to three of) them come back as ids (a
 * few primary-key lookups then replace any scan); otherwise the rarest common gram, whose
 * matches the query reads through the gram index.
 */
export async function gramFilter(
  db: Database,
  ownerIds: readonly string[],
  keyword: string,
): Promise<GramFilter> {
  // a long keyword has many grams; a handful is plenty to find a rare one
  const grams = keywordGrams(keyword).slice(0, 6)
  if (grams.length === 0) return { kind: 'none' }
  const whereGram = (gram: string) =>
    db
      .selectFrom('poi_template_grams')
      .select('template_id')
      .where('owner_id', 'in', [...ownerIds])
      .where('gram', '=', gram)
  const counted: Array<{ gram: string; count: number }> = []
  for (const gram of grams) {
    // counted in the index and only up to the cap: a common gram costs no more than a rare one
    const { count } = await db
      .selectFrom(whereGram(gram).limit(gramCountCap).as('sample'))
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow()
    counted.push({ gram, count: Number(count) })
    if (Number(count) === 0) return { kind: 'ids', ids: [] }
  }
  counted.sort((a, b) => a.count - b.count)
  const rare = counted.filter((entry) => entry.count < gramCountCap).slice(0, 3)
  if (rare.length === 0) return { kind: 'gram', gram: counted[0]!.gram }
  // the templates holding every rare gram: an intersection the database does in its index
  let query = whereGram(rare[0]!.gram)
  for (const entry of rare.slice(1)) query = query.intersect(whereGram(entry.gram))
  const rows = await query.execute()
  return { kind: 'ids', ids: rows.map((row) => row.template_id) }
}

/** `keyword` as a `LIKE` pattern matching it anywhere (with `\` as the escape character). */
export function containsPattern(keyword: string): string {
  return `%${keyword.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`
}
