/** What every page receives from the router. */
export interface PageProps {
  /** Path parameters of the matched pattern, e.g. `{ tab: 'area' }` for `/home/map/:tab?`. */
  params: Readonly<Record<string, string>>
  /** The raw query inside the hash, without `?`; read it with URLSearchParams. */
  search: string
}
