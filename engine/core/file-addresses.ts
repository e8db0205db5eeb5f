/**
 * Renewal of signed file addresses (contract/city.ts, building.ts, gml.ts): tiles, PMTiles
 * basemaps, model and structure files and GML files are fetched without headers, at addresses
 * that carry a grant which expires (1–2 h for a project-token holder, 12–24 h for a signed-in
 * reader) or ends when the project's tokens are revoked. A page left open all day (a kiosk)
 * keeps fetching tiles as its camera moves, long after the addresses it opened with expired.
 *
 * Every engine fetch of such an address goes through {@link FileAddressBook.fetch}: when the
 * server refuses the address (401/403), the book asks the page once for the project's current
 * addresses (the find calls answer fresh grants while the token lives), notes the fresh grant of
 * each file, and retries once with it. Later fetches under the same file (a tileset's tiles,
 * whose relative URIs loaders.gl resolves below the stale root address) get the fresh grant
 * before they are sent. A revoked token gets no fresh addresses, so the refusal stands.
 *
 * A grant carries its expiry (server/modules/access/url-signer.ts), and any address the find
 * calls answer is valid for at least an hour more: so when the grant a fetch would send expires
 * within {@link renewAheadMs}, the book renews first and sends the fresh grant, and a page
 * running for days never has a tile or model refused for age. By the page's clock: one that is
 * behind the server's still meets the refusal, renewed and retried as above; one that is ahead
 * renews early, once per grant.
 */

/**
 * The page's source of fresh addresses: the answers of the find calls that gave the open
 * project's file addresses, asked again. Any signed address anywhere in them is taken.
 */
export type FileAddressRenewer = () => Promise<unknown>

/** What a grant belongs to, and the grant itself. */
interface SignedAddress {
  /** The file (or tileset) the grant opens; equal for the stale and the fresh address. */
  key: string
  grant: string
}

/**
 * The file and grant of a signed address, or undefined for any other address:
 * `/web/tiles/<tileset>/<version>/<grant>/<path>`, `/web/basemaps/<file>/<grant>/<name>` (the
 * grant is a path segment, so relative URIs keep it) and `<path>?grant=<grant>` (models,
 * structure manifests, GML files).
 */
export function signedAddressOf(url: string): SignedAddress | undefined {
  let parsed: URL
  try {
    parsed = new URL(url, 'http://relative.invalid')
  } catch {
    return undefined
  }
  const queryGrant = parsed.searchParams.get('grant')
  // Keyed by path: the engine gets absolute addresses, the find calls answer relative ones.
  if (queryGrant !== null) return { key: parsed.pathname, grant: queryGrant }
  const segments = parsed.pathname.split('/')
  // ['', 'web', 'tiles', tileset, version, grant, ...path] or ['', 'web', 'basemaps', file, grant, name]
  const grantAt = segments[2] === 'tiles' ? 5 : segments[2] === 'basemaps' ? 4 : -1
  if (segments[1] !== 'web' || grantAt < 0 || segments.length <= grantAt + 1) return undefined
  return {
    key: segments.slice(0, grantAt).join('/'),
    grant: segments[grantAt] as string,
  }
}

/**
 * How long before its grant expires an address is renewed: well under the shortest life of a
 * fresh grant (1 h), so a renewal always brings a later one; enough for a page's clock a few
 * minutes off.
 */
export const renewAheadMs = 10 * 60_000

/** When a grant expires (ms since 1970), from its first part; undefined when it has none. */
export function grantExpiryMs(grant: string): number | undefined {
  const expiry = /^([0-9a-z]{1,12})\./.exec(grant)?.[1]
  return expiry === undefined ? undefined : Number.parseInt(expiry, 36) * 1000
}

/** `url` with its grant replaced by `grant` (same form: path segment or query). */
function withGrant(url: string, grant: string): string {
  const isRelative = !/^[a-z][a-z0-9+.-]*:/i.test(url)
  const parsed = new URL(url, 'http://relative.invalid')
  if (parsed.searchParams.has('grant')) {
    parsed.searchParams.set('grant', grant)
  } else {
    const segments = parsed.pathname.split('/')
    segments[segments[2] === 'tiles' ? 5 : 4] = grant
    parsed.pathname = segments.join('/')
  }
  return isRelative ? `${parsed.pathname}${parsed.search}${parsed.hash}` : parsed.href
}

/** Most values looked at in a renewer's answers (a project's find answers hold hundreds). */
const maxValuesWalked = 100_000

/** The strings in find answers that are signed addresses (an explicit stack, bounded). */
function signedStringsIn(answers: unknown): string[] {
  const found: string[] = []
  const stack: unknown[] = [answers]
  for (let walked = 0; stack.length > 0 && walked < maxValuesWalked; walked++) {
    const value = stack.pop()
    if (typeof value === 'string') {
      if (signedAddressOf(value) !== undefined) found.push(value)
    } else if (Array.isArray(value)) {
      stack.push(...value)
    } else if (value !== null && typeof value === 'object') {
      stack.push(...Object.values(value))
    }
  }
  return found
}

/** See the module comment. */
export interface FileAddressBook {
  /** `url` with the freshest grant known for its file (unchanged when none is known). */
  current(url: string): string
  /**
   * {@link current}, renewed first when its grant expires within {@link renewAheadMs} (once
   * per grant; a failed renewal leaves the address as it is).
   */
  fresh(url: string): Promise<string>
  /**
   * Fetches a file address with the freshest grant known; a 401/403 renews the addresses once
   * (shared by concurrent refusals) and retries with the file's fresh grant.
   */
  fetch(url: string, init?: RequestInit): Promise<Response>
  /**
   * {@link fetch} through another sender: `send` requests one address (e.g. a worker's own
   * fetch, engine/building/model-download.ts) and answers with its status; a 401/403 renews the
   * addresses once and sends the file's fresh address, exactly as `fetch` does.
   */
  request<Answer extends { status: number }>(
    url: string,
    send: (address: string) => Promise<Answer>,
  ): Promise<Answer>
  /** Asks the renewer for the current addresses; true when a grant changed. */
  renew(): Promise<boolean>
  /** The page's renewer, or null when no project is open (refusals then stand). */
  setRenewer(renewer: FileAddressRenewer | null): void
}

/** Options of {@link createFileAddressBook}; tests pass their own fetch. */
export interface FileAddressBookOptions {
  fetch?: (url: string, init?: RequestInit) => Promise<Response>
  /** The page's clock (ms since 1970); tests move their own. */
  nowMs?: () => number
}

/** A book of fresh grants; the engine uses the page-wide {@link fileAddresses}. */
export function createFileAddressBook(options: FileAddressBookOptions = {}): FileAddressBook {
  const send = options.fetch ?? ((url, init) => globalThis.fetch(url, init))
  const nowMs = options.nowMs ?? (() => Date.now())
  const freshGrants = new Map<string, string>()
  /** Per file, the grant an early renewal was last tried for: tried once, not per fetch. */
  const renewedAheadOf = new Map<string, string>()
  let renewer: FileAddressRenewer | null = null
  let running: Promise<boolean> | null = null

  const current = (url: string): string => {
    const signed = signedAddressOf(url)
    if (signed === undefined) return url
    const fresh = freshGrants.get(signed.key)
    return fresh === undefined || fresh === signed.grant ? url : withGrant(url, fresh)
  }

  const renew = (): Promise<boolean> => {
    if (renewer === null) return Promise.resolve(false)
    // Tiles refused together (a tileset's whole view) share one round of find calls.
    running ??= (async () => {
      try {
        let isChanged = false
        for (const address of signedStringsIn(await (renewer as FileAddressRenewer)())) {
          const signed = signedAddressOf(address)
          if (signed === undefined || freshGrants.get(signed.key) === signed.grant) continue
          freshGrants.set(signed.key, signed.grant)
          isChanged = true
        }
        return isChanged
      } catch {
        // No fresh addresses (offline, token revoked): the refusal stands.
        return false
      } finally {
        running = null
      }
    })()
    return running
  }

  const fresh = async (url: string): Promise<string> => {
    const address = current(url)
    const signed = signedAddressOf(address)
    if (signed === undefined || renewer === null) return address
    const expiryMs = grantExpiryMs(signed.grant)
    if (expiryMs === undefined || expiryMs - nowMs() > renewAheadMs) return address
    if (renewedAheadOf.get(signed.key) !== signed.grant) {
      renewedAheadOf.set(signed.key, signed.grant)
      await renew()
    } else if (running !== null) {
      // fetches of the same file while its renewal runs wait for it too
      await running
    }
    return current(url)
  }

  async function request<Answer extends { status: number }>(
    url: string,
    sendTo: (address: string) => Promise<Answer>,
  ): Promise<Answer> {
    const first = await fresh(url)
    const answer = await sendTo(first)
    if ((answer.status !== 401 && answer.status !== 403) || signedAddressOf(url) === undefined) {
      return answer
    }
    await renew()
    const retry = current(url)
    if (retry === first) return answer
    return sendTo(retry)
  }

  return {
    current,
    fresh,
    renew,
    setRenewer(next) {
      renewer = next
      freshGrants.clear()
      renewedAheadOf.clear()
    },
    fetch(url, init) {
      return request(url, (address) => send(address, init))
    },
    request,
  }
}

/**
 * The page's book: file addresses are the page's (one signed-in user or one share link), so
 * every scene's loaders (tiles, basemap, models, GML) share it. The console sets its renewer
 * when it opens a project's scene (engine/api `setFileAddressRenewer`).
 */
export const fileAddresses: FileAddressBook = createFileAddressBook()

/**
 * Tells the engine how to get the open project's current file addresses (the find calls the
 * page made to open it, asked again), or null when no project is open. See
 * engine/core/file-addresses.ts.
 */
export function setFileAddressRenewer(renewer: FileAddressRenewer | null): void {
  fileAddresses.setRenewer(renewer)
}
