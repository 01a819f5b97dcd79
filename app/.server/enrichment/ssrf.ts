/**
 * SSRF guard for the website crawler (ARCHITECTURE §5). Business websites come from third parties (Google, OSM, user
 * data), so every URL we fetch is hostile until proven otherwise:
 *
 *   - only http/https, only ports 80/443, no credentials in the URL;
 *   - hostnames that name internal services (localhost, *.internal, metadata.google.internal, single labels…) refused;
 *   - every address the name resolves to must be public unicast: loopback, RFC 1918, CGNAT, ULA, link-local (the
 *     169.254.169.254 cloud metadata service), unspecified, multicast, reserved, and IPv6 forms embedding IPv4
 *     (mapped, NAT64, 6to4, Teredo) are refused;
 *   - allow-listed hosts ("host" or "host:port": the demo websites, test fixtures) skip the address and port checks.
 *
 * The vetting runs again at connect time on the exact address the socket is opened to (see `guardedConnector` in
 * http.ts), so a DNS answer that changes between the check and the connection (rebinding) cannot slip through.
 */
import dns from 'node:dns'
import net from 'node:net'
import ipaddr from 'ipaddr.js'
import { validateEnv, type Env } from '#app/.server/env.server.ts'

export type LookupFn = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>

export type GuardErrorCode = 'blocked_address' | 'blocked_port' | 'blocked_scheme' | 'invalid_url'

/** A refusal by the guard. `code` is what the crawl reports as its `error`. */
export class GuardError extends Error {
  override name = 'GuardError'
  readonly code: GuardErrorCode
  constructor(code: GuardErrorCode, message: string) {
    super(message)
    this.code = code
  }
}

/** Hostnames that name internal infrastructure whatever they resolve to. */
const BLOCKED_HOSTNAMES = new Set(['localhost', 'metadata.google.internal', 'metadata', 'instance-data', 'kubernetes', 'kubernetes.default'])
const BLOCKED_SUFFIXES = ['.localhost', '.internal', '.local', '.localdomain', '.home.arpa', '.intranet', '.corp', '.lan', '.cluster.local', '.svc']

/** An allow-list of hosts: "host" (any port) or "host:port"; IPv6 as "[::1]" or "[::1]:8080". Case-insensitive. */
export class HostAllowList {
  private readonly anyPort = new Set<string>()
  private readonly withPort = new Set<string>()

  constructor(entries: Iterable<string> = []) {
    for (const raw of entries) {
      let entry = raw.trim().toLowerCase()
      if (!entry) continue
      // A full URL ("http://127.0.0.1:4321/") stands for its host.
      if (entry.includes('://')) {
        try {
          entry = new URL(entry).host
        } catch {
          continue
        }
      }
      const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry)
      if (bracket) {
        const host = normalizeHostname(bracket[1] as string)
        if (bracket[2]) this.withPort.add(`${host}:${Number(bracket[2])}`)
        else this.anyPort.add(host)
        continue
      }
      const colon = entry.lastIndexOf(':')
      // A bare IPv6 address has several colons and no port.
      if (colon > 0 && entry.indexOf(':') === colon && /^\d+$/.test(entry.slice(colon + 1))) {
        this.withPort.add(`${normalizeHostname(entry.slice(0, colon))}:${Number(entry.slice(colon + 1))}`)
      } else {
        this.anyPort.add(normalizeHostname(entry))
      }
    }
  }

  /** Whether `hostname` (without brackets) on `port` is allow-listed. */
  allows(hostname: string, port: number): boolean {
    const host = normalizeHostname(hostname)
    return this.anyPort.has(host) || this.withPort.has(`${host}:${port}`)
  }

  get size(): number {
    return this.anyPort.size + this.withPort.size
  }
}

/** The allow-list from ENRICH_ALLOW_HOSTS (comma-separated). */
export function allowListFromEnv(config: Env = validateEnv()): string[] {
  return config.ENRICH_ALLOW_HOSTS.split(',').map((s) => s.trim()).filter(Boolean)
}

/** Lower case, brackets and trailing dot removed, IPv6 in canonical form. */
export function normalizeHostname(hostname: string): string {
  let host = hostname.trim().toLowerCase()
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1)
  if (host.endsWith('.')) host = host.slice(0, -1)
  if (net.isIPv6(host)) {
    try {
      host = ipaddr.IPv6.parse(host).toString()
    } catch {
      // keep as is
    }
  }
  return host
}

export function defaultPort(protocol: string): number {
  return protocol === 'https:' ? 443 : 80
}

/**
 * Why an IP address is not a public unicast address, or null when it is. IPv6 forms that embed an IPv4 address are
 * judged by that address where the embedding is unambiguous (mapped), refused otherwise (NAT64, 6to4, Teredo).
 */
export function blockedAddressReason(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6
  try {
    parsed = ipaddr.parse(address.startsWith('[') ? address.slice(1, -1) : address.split('%')[0] as string)
  } catch {
    return 'unparseable address'
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6
    if (v6.isIPv4MappedAddress()) return blockedAddressReason(v6.toIPv4Address().toString())
    // ::a.b.c.d (deprecated IPv4-compatible) also reaches IPv4 on some stacks.
    const parts = v6.parts
    if (parts.slice(0, 6).every((p) => p === 0) && !(parts[6] === 0 && (parts[7] ?? 0) <= 1)) {
      return blockedAddressReason(`${(parts[6] ?? 0) >> 8}.${(parts[6] ?? 0) & 255}.${(parts[7] ?? 0) >> 8}.${(parts[7] ?? 0) & 255}`)
    }
    const range = v6.range()
    return range === 'unicast' ? null : range
  }
  const range = (parsed as ipaddr.IPv4).range()
  return range === 'unicast' ? null : range
}

/** Whether the hostname itself names internal infrastructure (before any DNS). IP literals are judged by address. */
export function blockedHostnameReason(hostname: string): string | null {
  const host = normalizeHostname(hostname)
  if (!host) return 'empty host'
  if (net.isIP(host)) return blockedAddressReason(host)
  if (BLOCKED_HOSTNAMES.has(host)) return 'internal hostname'
  if (BLOCKED_SUFFIXES.some((suffix) => host.endsWith(suffix))) return 'internal hostname'
  // Single-label names only resolve through search domains: intranet hosts.
  if (!host.includes('.')) return 'single-label hostname'
  return null
}

export interface VettedTarget {
  url: URL
  hostname: string
  port: number
  allowListed: boolean
}

/**
 * Checks a URL before any connection: syntax, scheme, credentials, port, hostname. IP literals are checked here too
 * (no DNS is involved for them). Names are resolved and checked at connect time.
 */
export function vetUrl(input: string | URL, allowList: HostAllowList): VettedTarget {
  let url: URL
  try {
    url = typeof input === 'string' ? new URL(input) : new URL(input.href)
  } catch {
    throw new GuardError('invalid_url', `not a URL: ${String(input).slice(0, 200)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new GuardError('blocked_scheme', `scheme ${url.protocol} is not allowed`)
  if (url.username || url.password) throw new GuardError('invalid_url', 'credentials in URLs are not allowed')
  const hostname = normalizeHostname(url.hostname)
  const port = url.port ? Number(url.port) : defaultPort(url.protocol)
  const allowListed = allowList.allows(hostname, port)
  if (!allowListed) {
    const reason = blockedHostnameReason(hostname)
    if (reason) throw new GuardError('blocked_address', `${hostname}: ${reason}`)
    if (port !== 80 && port !== 443) throw new GuardError('blocked_port', `port ${port} is not allowed`)
  }
  return { url, hostname, port, allowListed }
}

export const systemLookup: LookupFn = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true })
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))
}

/**
 * Resolves `hostname` and returns the addresses to connect to. Unless allow-listed, every answer must be public: a
 * name that resolves to one public and one private address is refused (an attacker controls both answers).
 */
export async function resolveVetted(
  hostname: string,
  port: number,
  allowList: HostAllowList,
  lookup: LookupFn,
): Promise<Array<{ address: string; family: 4 | 6 }>> {
  const host = normalizeHostname(hostname)
  const allowListed = allowList.allows(host, port)
  const literal = net.isIP(host)
  if (literal) {
    if (!allowListed) {
      const reason = blockedAddressReason(host)
      if (reason) throw new GuardError('blocked_address', `${host}: ${reason}`)
    }
    return [{ address: host, family: literal === 6 ? 6 : 4 }]
  }
  if (!allowListed) {
    const reason = blockedHostnameReason(host)
    if (reason) throw new GuardError('blocked_address', `${host}: ${reason}`)
    if (port !== 80 && port !== 443) throw new GuardError('blocked_port', `port ${port} is not allowed`)
  }
  const answers = await lookup(host)
  if (answers.length === 0) throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' })
  if (!allowListed) {
    for (const answer of answers) {
      const reason = blockedAddressReason(answer.address)
      if (reason) throw new GuardError('blocked_address', `${host} resolves to ${answer.address}: ${reason}`)
    }
  }
  return answers
}
