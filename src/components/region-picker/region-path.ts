import type { RegionOption } from '../../api/geo'

/** Loads the children of a region code ('0' for the provinces). */
export type LoadRegionChildren = (codeid: string) => Promise<RegionOption[]>

/**
 * Remembers answers per code, so going back and forth in the cascade asks the server once per
 * region. A failed answer is forgotten so the next attempt asks again.
 */
export function cachedRegionLoader(load: LoadRegionChildren): LoadRegionChildren {
  const answers = new Map<string, Promise<RegionOption[]>>()
  return (codeid) => {
    let answer = answers.get(codeid)
    if (!answer) {
      answer = load(codeid)
      answers.set(codeid, answer)
      answer.catch(() => answers.delete(codeid))
    }
    return answer
  }
}

/**
 * The chosen path down to a code, e.g. '420102002' → 湖北省, 武汉市, 江岸区, 大智街道. At each
 * level the child whose code starts the target is taken, so a county-less city's towns (a
 * 9-digit code right under a 4-digit city) resolve too. Undefined when the code is unknown.
 */
export async function resolveRegionPath(
  code: string,
  load: LoadRegionChildren,
): Promise<RegionOption[] | undefined> {
  const path: RegionOption[] = []
  let parent = '0'
  while (parent !== code) {
    const next = (await load(parent)).find((region) => code.startsWith(region.codeid))
    if (!next) return undefined
    path.push(next)
    parent = next.codeid
  }
  return path
}

/** The display name of a path, as the server stores `area_name`. */
export function regionPathName(path: readonly Pick<RegionOption, 'name'>[]): string {
  return path.map((region) => region.name).join(' / ')
}
