import type { Database } from '../../plugins/db'

/**
 * Substring search over template names and codes without scanning every template: each
 * template's lower-cased name and code are cut into 2- and 3-character pieces (grams) stored
 * with its owner; a keyword of two or more characters needs one gram of it to be present, and
 * the rarest such gram (counted by index) gives the candidates that `LIKE` then checks.
 */

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

/**
 * The rarest gram of `keyword` among `ownerIds`' templates, or undefined when the keyword is too
 * short to have one (the caller then filters with `LIKE` alone). Each count is an index range.
 */
export async function rarestGram(
  db: Database,
  ownerIds: readonly string[],
  keyword: string,
): Promise<string | undefined> {
  // a long keyword has many grams; a handful is plenty to find a rare one
  const grams = keywordGrams(keyword).slice(0, 6)
  let best: { gram: string; count: number } | undefined
  for (const gram of grams) {
    const { count } = await db
      .selectFrom('poi_template_grams')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('owner_id', 'in', [...ownerIds])
      .where('gram', '=', gram)
      .executeTakeFirstOrThrow()
    const value = Number(count)
    if (best === undefined || value < best.count) best = { gram, count: value }
    if (value === 0) break
  }
  return best?.gram
}

/** `keyword` as a `LIKE` pattern matching it anywhere (with `\` as the escape character). */
export function containsPattern(keyword: string): string {
  return `%${keyword.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`
}
