import { useSyncExternalStore } from 'react'
import type { BaseLocationHook } from 'wouter'

/**
 * Hash routing that keeps a query *inside* the hash (`#/login?redirect=%2Fsystem`). wouter's own
 * hash hook returns `/login?redirect=…` as the path (so `/login` never matches) and writes
 * queries to `location.search` instead; this one splits the hash into path and query itself.
 */

/** A route location: the path without query, and the raw query without `?` (still encoded). */
export interface HashLocation {
  path: string
  search: string
}

const hashPrefix = /^#?\/?/

/** Splits a hash (`#/a/b?x=1`) or an app path (`/a/b?x=1`) into path and raw query. */
export function parseHashLocation(hash: string): HashLocation {
  const withoutPrefix = hash.replace(hashPrefix, '')
  const queryStart = withoutPrefix.indexOf('?')
  const rawPath = queryStart === -1 ? withoutPrefix : withoutPrefix.slice(0, queryStart)
  const search = queryStart === -1 ? '' : withoutPrefix.slice(queryStart + 1)
  return { path: `/${rawPath}`, search }
}

/** The path and query joined again, as the guard's "full path". */
export function formatHashLocation(location: HashLocation): string {
  return location.search ? `${location.path}?${location.search}` : location.path
}

/** The current route location read from `window.location.hash`. */
export function currentHashLocation(): HashLocation {
  return parseHashLocation(window.location.hash)
}

const currentPath = (): string => currentHashLocation().path
const currentSearch = (): string => currentHashLocation().search

function subscribe(onChange: () => void): () => void {
  // popstate covers back/forward between entries we pushed; hashchange covers typed URLs and
  // the events navigateHash dispatches. A duplicate notification is harmless.
  window.addEventListener('hashchange', onChange)
  window.addEventListener('popstate', onChange)
  return () => {
    window.removeEventListener('hashchange', onChange)
    window.removeEventListener('popstate', onChange)
  }
}

/** Options of a navigation. */
export interface NavigateOptions {
  /** Replace the history entry instead of adding one (redirects do this). */
  replace?: boolean
}

/** Goes to an app path such as `/login?redirect=%2Fnote`, keeping the page's real query. */
export function navigateHash(to: string, options: NavigateOptions = {}): void {
  const oldUrl = window.location.href
  const target = parseHashLocation(to)
  const url = new URL(oldUrl)
  url.hash = formatHashLocation(target)
  const newUrl = url.href
  if (newUrl === oldUrl) return
  window.history[options.replace ? 'replaceState' : 'pushState'](null, '', newUrl)
  // pushState never fires hashchange by itself; subscribers still need to hear about it.
  window.dispatchEvent(new HashChangeEvent('hashchange', { oldURL: oldUrl, newURL: newUrl }))
}

/** wouter location hook: the hash's path part only, so `#/login?x=1` matches `/login`. */
export const useHashPath: BaseLocationHook = () => [
  useSyncExternalStore(subscribe, currentPath, () => '/'),
  navigateHash,
]
useHashPath.hrefs = (href: string) => `#${href}`

/** The raw (still percent-encoded) query inside the hash; read it with URLSearchParams. */
export function useHashSearch(): string {
  return useSyncExternalStore(subscribe, currentSearch, () => '')
}
