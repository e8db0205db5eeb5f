import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { BlockList, isIP } from 'node:net'

/**
 * Which upstream addresses the map proxy may reach. The proxy fetches URLs a user typed, so
 * without this check it would let anyone read the server's own loopback services, the cloud
 * metadata endpoint (169.254.169.254) or the office LAN. Every address a name resolves to is
 * checked, at connection time (so a second DNS answer cannot swap in a private address), and
 * again for each redirect.
 */

/** Ranges that are never public: loopback, private, link-local, CGNAT, multicast, reserved. */
const privateRanges = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  privateRanges.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  privateRanges.addSubnet(network, prefix, 'ipv6')
}

/** The IPv4 address inside an IPv4-mapped or -compatible IPv6 address, else undefined. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (match) return match[1]
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address)
  if (!hex) return undefined
  const high = Number.parseInt(hex[1]!, 16)
  const low = Number.parseInt(hex[2]!, 16)
  return [high >> 8, high & 255, low >> 8, low & 255].join('.')
}

/** True for an address the proxy must not reach (loopback, private, link-local, reserved …). */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  const family = isIP(bare)
  if (family === 4) return privateRanges.check(bare, 'ipv4')
  if (family === 6) {
    const inner = embeddedIpv4(bare)
    if (inner !== undefined) return privateRanges.check(inner, 'ipv4')
    return privateRanges.check(bare, 'ipv6')
  }
  // not an address at all: treat as unsafe
  return true
}

/** Why an upstream address was refused. */
export class UpstreamRefusedError extends Error {
  override name = 'UpstreamRefusedError'
  constructor(
    readonly reason: 'scheme' | 'credentials' | 'host' | 'privateAddress',
    message: string,
    /** The refused host (for 'host'). */
    readonly host?: string,
  ) {
    super(message)
  }
}

/** What may be reached: host patterns, and (tests only) private addresses let through. */
export interface UpstreamPolicy {
  /** `tiles.example.com`, `*.example.com` (any subdomain), or `*` for any public host. */
  allowedHosts: readonly string[]
  /**
   * Exact private addresses that are nevertheless allowed. Empty in production; tests put
   * `127.0.0.1` here to reach an upstream they start themselves.
   */
  allowedPrivateAddresses: readonly string[]
}

/** True when the host name (lower case, no port) matches one of the patterns. */
export function isHostAllowed(hostname: string, patterns: readonly string[]): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
  return patterns.some((pattern) => {
    const rule = pattern.toLowerCase()
    if (rule === '*') return true
    if (rule.startsWith('*.')) return host.endsWith(rule.slice(1)) && host.length > rule.length - 1
    return host === rule.replace(/^\[|\]$/g, '')
  })
}

/**
 * Checks a URL before any connection: http(s) only, an allowed host, and, for an address
 * literal, a public address. Names are checked when they are resolved ({@link guardedLookup}).
 */
export function checkUpstreamUrl(
  url: URL,
  policy: UpstreamPolicy,
  options: { checkAddressLiteral: boolean } = { checkAddressLiteral: true },
): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UpstreamRefusedError('scheme', `Only http:// and https:// map addresses can be used.`)
  }
  if (url.username !== '' || url.password !== '') {
    throw new UpstreamRefusedError(
      'host',
      'Map addresses with a user name or password are refused.',
    )
  }
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!isHostAllowed(host, policy.allowedHosts)) {
    throw new UpstreamRefusedError(
      'host',
      `The map server ${host} is not on this server's list of allowed map hosts (MAP_PROXY_HOSTS).`,
      host,
    )
  }
  if (options.checkAddressLiteral && isIP(host) !== 0) checkAddress(host, policy)
}

function checkAddress(address: string, policy: UpstreamPolicy): void {
  if (isPrivateAddress(address) && !policy.allowedPrivateAddresses.includes(address)) {
    throw new UpstreamRefusedError(
      'privateAddress',
      'The map address points into a private network or at this server itself; it is refused.',
    )
  }
}

/** The resolver the guard asks; tests may pass one that answers fixed addresses. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>

/** The system resolver (getaddrinfo, as browsers and curl use), every address. */
export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    )
  })

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void

/**
 * A `lookup` for `http.request` that resolves the name, refuses it when any of its addresses
 * is private, and connects to a checked address (never a second, unchecked answer).
 */
export function guardedLookup(policy: UpstreamPolicy, resolver: Resolver = systemResolver) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    const bare = hostname.replace(/^\[|\]$/g, '')
    const family = isIP(bare)
    const answer: Promise<LookupAddress[]> =
      family === 0 ? resolver(bare) : Promise.resolve([{ address: bare, family }])
    answer.then(
      (addresses) => {
        try {
          if (addresses.length === 0) throw new Error(`${hostname} has no address`)
          for (const { address } of addresses) checkAddress(address, policy)
        } catch (error) {
          callback(error as NodeJS.ErrnoException, '', 0)
          return
        }
        if (options.all) callback(null, addresses)
        else callback(null, addresses[0]!.address, addresses[0]!.family)
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    )
  }
}
