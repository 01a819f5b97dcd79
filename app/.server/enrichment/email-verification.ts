/**
 * Email verification (README "Email verification"): gathers the facts of each address — syntax, disposable domain
 * (the `mailchecker` list), what DNS says of its domain (MX, else A/AAAA), and optionally what the domain's mail
 * server answers (SMTP RCPT TO, EMAIL_SMTP_CHECK) — and lets app/domain/email-quality.ts decide its status.
 *
 * DNS goes through node:dns/promises' Resolver (servers from EMAIL_DNS_SERVERS, else the system's), one try with a
 * timeout, and a bounded LRU cache per domain. NXDOMAIN / no record → the domain takes no mail (invalid); SERVFAIL,
 * timeout, refused → unknown (risky).
 */
import { Resolver } from 'node:dns/promises'
import { createRequire } from 'node:module'
import { emailCheck, emailDomain, isDeliverableSyntax, isKept, type DomainMail, type EmailCheck, type MailboxAnswer } from '#app/domain/email-quality.ts'
import { probeMailboxes } from './smtp-probe.ts'
import { HostAllowList } from './ssrf.ts'

/** The part of node:dns/promises' Resolver the verifier uses (tests and the demo pass their own). */
export interface MailDns {
  resolveMx(domain: string): Promise<Array<{ exchange: string; priority: number }>>
  resolve4(domain: string): Promise<string[]>
  resolve6(domain: string): Promise<string[]>
}

export interface EmailVerifierOptions {
  /** "ip" or "ip:port" DNS servers; empty: the system's. */
  dnsServers?: string[]
  dnsTimeoutMs?: number
  /** Another resolver (demo answers): dnsServers and dnsTimeoutMs are then unused. */
  dns?: MailDns
  /** A domain that certainly has MX: a denial is believed only when it resolves (default gmail.com). */
  canary?: string
  /** Domains remembered (LRU), and for how long. */
  cacheSize?: number
  cacheTtlMs?: number
  /** The optional SMTP mailbox check; `allowHosts`: "host[:port]" mail hosts it may reach on private addresses. */
  smtp?: { port: number; timeoutMs: number; heloName: string; allowHosts?: string[] }
}

export interface EmailVerifier {
  /** The check of each address (keys: the addresses given). Never rejects, except on abort. */
  verify(emails: readonly string[], options?: { signal?: AbortSignal }): Promise<Record<string, EmailCheck>>
}

interface DomainFacts {
  mail: DomainMail
  /** Mail hosts by preference (MX), or the domain itself (A fallback). */
  hosts: string[]
  /** DNS denied the domain (NXDOMAIN / no record), rather than publishing a null MX: only as true as the resolver. */
  denied?: boolean
}

const NO_MAIL_CODES = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME'])
/** Unknown answers are remembered briefly: the server may answer again soon. */
const UNKNOWN_TTL_MS = 60_000
/** The canary's answer is remembered this long: at most one canary query a minute, however many denials. */
const CANARY_TTL_MS = 60_000
const DEFAULT_CANARY = 'gmail.com'

function errorCode(error: unknown): string {
  return error && typeof error === 'object' && 'code' in error ? String(error.code) : ''
}

/** records → 'found'; NXDOMAIN / no data → 'none'; anything else → 'unknown'. */
async function lookup<T>(query: () => Promise<T[]>): Promise<{ answer: 'found' | 'none' | 'unknown'; records: T[] }> {
  try {
    const records = await query()
    return { answer: records.length ? 'found' : 'none', records }
  } catch (error) {
    return { answer: NO_MAIL_CODES.has(errorCode(error)) ? 'none' : 'unknown', records: [] }
  }
}

/** MX first; without MX (RFC 5321 §5.1) the domain's own address (A, AAAA). A null MX (RFC 7505) takes no mail. */
async function domainMailFacts(dns: MailDns, domain: string): Promise<DomainFacts> {
  const mx = await lookup(() => dns.resolveMx(domain))
  if (mx.answer === 'found') {
    const hosts = mx.records
      .toSorted((a, b) => a.priority - b.priority)
      .map((record) => record.exchange.replace(/\.$/, ''))
      .filter((host) => host !== '')
    return hosts.length ? { mail: 'mail', hosts } : { mail: 'no_mail', hosts: [] }
  }
  if (mx.answer === 'unknown') return { mail: 'unknown', hosts: [] }
  const [a, aaaa] = await Promise.all([lookup(() => dns.resolve4(domain)), lookup(() => dns.resolve6(domain))])
  if (a.answer === 'found' || aaaa.answer === 'found') return { mail: 'mail', hosts: [domain] }
  if (a.answer === 'unknown' || aaaa.answer === 'unknown') return { mail: 'unknown', hosts: [] }
  return { mail: 'no_mail', hosts: [], denied: true }
}

/**
 * Whether the resolver can be believed when it denies a domain: the canary must resolve (MX). Its answer is shared by
 * concurrent callers and remembered CANARY_TTL_MS; a canary that is denied, fails or times out means DNS is unusable.
 */
function canaryProbe(dns: MailDns, canary: string): () => Promise<boolean> {
  let last: { usable: Promise<boolean>; expires: number } | null = null
  return () => {
    if (last && last.expires > Date.now()) return last.usable
    const usable = lookup(() => dns.resolveMx(canary)).then((result) => result.answer === 'found')
    last = { usable, expires: Date.now() + CANARY_TTL_MS }
    return usable
  }
}

/** A bounded map with expiry; the least recently used entry leaves first. */
export function createLruCache<V>(maxEntries: number) {
  const entries = new Map<string, { value: V; expires: number }>()
  return {
    get(key: string): V | undefined {
      const entry = entries.get(key)
      if (!entry) return undefined
      entries.delete(key)
      if (entry.expires <= Date.now()) return undefined
      entries.set(key, entry)
      return entry.value
    },
    set(key: string, value: V, ttlMs: number): void {
      entries.delete(key)
      entries.set(key, { value, expires: Date.now() + ttlMs })
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string)
    },
    get size() {
      return entries.size
    },
  }
}

function systemResolver(servers: string[], timeoutMs: number): MailDns {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 })
  if (servers.length) resolver.setServers(servers)
  return resolver
}

// mailchecker (MIT) is CommonJS: its list is a Set of domains, loaded once.
const DISPOSABLE: ReadonlySet<string> = (createRequire(import.meta.url)('mailchecker') as typeof import('mailchecker')).blacklist()

/** The domain or one of its parents is on the disposable list. */
export function isDisposableDomain(domain: string): boolean {
  const labels = domain.toLowerCase().split('.')
  return labels.some((_, index) => index < labels.length - 1 && DISPOSABLE.has(labels.slice(index).join('.')))
}

export function createEmailVerifier(options: EmailVerifierOptions = {}): EmailVerifier {
  const dns = options.dns ?? systemResolver(options.dnsServers ?? [], options.dnsTimeoutMs ?? 3_000)
  const cache = createLruCache<Promise<DomainFacts>>(options.cacheSize ?? 10_000)
  const ttl = options.cacheTtlMs ?? 3_600_000
  const dnsUsable = canaryProbe(dns, options.canary ?? DEFAULT_CANARY)
  const smtp = options.smtp && { port: options.smtp.port, timeoutMs: options.smtp.timeoutMs, heloName: options.smtp.heloName, allowList: new HostAllowList(options.smtp.allowHosts) }

  /** In-flight lookups are shared: a domain is asked once however many addresses use it. */
  const factsOf = (domain: string): Promise<DomainFacts> => {
    const cached = cache.get(domain)
    if (cached) return cached
    const pending = domainMailFacts(dns, domain).then(async (facts): Promise<DomainFacts> => (facts.denied && !(await dnsUsable()) ? { mail: 'unverifiable', hosts: [] } : facts))
    cache.set(domain, pending, ttl)
    void pending.then((facts) => (facts.mail === 'unknown' || facts.mail === 'unverifiable') && cache.set(domain, pending, UNKNOWN_TTL_MS))
    return pending
  }

  const checkDomain = async (domain: string | null, emails: string[], signal?: AbortSignal): Promise<Array<[string, EmailCheck]>> => {
    const disposable = domain !== null && isDisposableDomain(domain)
    const facts = domain && !disposable ? await factsOf(domain) : { mail: 'no_mail' as const, hosts: [] }
    signal?.throwIfAborted()
    let mailbox: Record<string, MailboxAnswer> = {}
    if (smtp && domain && facts.mail === 'mail' && emails.some(isDeliverableSyntax)) {
      mailbox = await probeMailboxes({ ...smtp, dns, hosts: facts.hosts, domain, emails: emails.filter(isDeliverableSyntax), signal })
    }
    return emails.map((email) => [email, emailCheck(email, { syntax: isDeliverableSyntax(email), disposable, domain: facts.mail, mailbox: mailbox[email] })])
  }

  return {
    async verify(emails, { signal } = {}) {
      const byDomain = Map.groupBy(emails, (email) => emailDomain(email) ?? '')
      const checks = await Promise.all([...byDomain].map(([domain, list]) => checkDomain(domain || null, list, signal)))
      return Object.fromEntries(checks.flat())
    },
  }
}

/** The addresses kept (valid, risky, unverified) and every address's check, for the email task (app/.server/exports/enrichers.ts). */
export async function verifyFoundEmails(
  verifier: EmailVerifier | undefined,
  emails: string[],
  signal?: AbortSignal,
): Promise<{ kept: string[]; checks: Record<string, EmailCheck> }> {
  if (!verifier || emails.length === 0) return { kept: emails, checks: {} }
  const checks = await verifier.verify(emails, { signal })
  return { kept: emails.filter((email) => !checks[email] || isKept(checks[email])), checks }
}
