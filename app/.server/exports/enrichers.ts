/**
 * What the export pipeline needs from the enrichment engine, as a small injected interface: tests and the
 * benchmark pass their own, the worker uses the real engine (app/.server/enrichment) by default.
 */
import type { EmailSourcesJson as EmailSources, JsonObject } from '#app/.server/db.ts'
import type { EnrichmentTask } from '#app/domain/enrichment-types.ts'
import type { RegistryLead } from '#app/.server/enrichment/registry.ts'
import { verifyFoundEmails, type EmailVerifier } from '#app/.server/enrichment/email-verification.ts'
import type { EmailCheck } from '#app/domain/email-quality.ts'
import type { PhoneSources } from '#app/domain/phone-sources.ts'
import { phoneTypeOf } from '#app/.server/enrichment/phones.ts'

/** One task per (lead, type), named by the table of enrichment types. */
export type TaskType = EnrichmentTask
export type TaskOutcome = 'success' | 'not_found' | 'failed'

export interface WebsiteFindings {
  status: 'ok' | 'not_found' | 'failed'
  finalUrl: string | null
  emails: string[]
  /** email → the page it was first found on (when the engine reports it). */
  emailPages?: Record<string, string>
  /** network → URL */
  socialMedia: Record<string, string | undefined>
  /** category → name(s) */
  technologies: Record<string, string | string[]>
  /** raw phone numbers as printed */
  phones: string[]
  /** phone (as in `phones`) → the page it was first found on (when the engine reports it). */
  phonePages?: Record<string, string>
  siret: string | null
  /** SIREN from the SIRET or an RCS mention (when the engine reports it). */
  siren?: string | null
  /** The page the SIRET/SIREN was printed on (when the engine reports it). */
  companyIdsPage?: string | null
  error?: string
  /** The user's do-not-contact list names the company the site prints (dnc-enrichers.ts): the lead gives nothing. */
  listed?: boolean
}

type RegistryQuery = Omit<RegistryLead, 'latitude' | 'longitude'>

/** `info` is stored as leads.admin_fr_info (it has a `results` list, SPEC §3). */
type RegistryOutcome =
  | { status: 'success'; info: JsonObject & { results?: unknown[] } }
  /** `listed`: the match is a company the user's do-not-contact list names (dnc-enrichers.ts): the lead gives nothing. */
  | { status: 'not_found'; listed?: boolean }
  | { status: 'failed'; error: string }

export interface Enrichers {
  crawl(url: string, options: { signal?: AbortSignal; countryCode?: string }): Promise<WebsiteFindings>
  lookupRegistry(query: RegistryQuery, options: { signal?: AbortSignal }): Promise<RegistryOutcome>
  /** The site's homepage address when it answers (a list row matched by its website), else null; absent: not checked. */
  reachSite?(url: string, options: { signal?: AbortSignal }): Promise<string | null>
  /** A valid number in a normalised (international) form, or null. */
  normalizePhone(raw: string, countryCode: string | null): string | null
  /** Verifies found emails (invalid ones are dropped); none: every email is kept unverified. */
  emailVerifier?: EmailVerifier
  /** The addresses that may be delivered (the do-not-contact list, dnc-enrichers.ts); all when absent. */
  allowedEmails?(emails: string[]): string[]
  /** Releases sockets, timers (worker shutdown). */
  close?(): Promise<void>
}

// ---------------------------------------------------------------------------
// One lead

export interface LeadForEnrichment {
  name: string
  phone: string | null
  website: string | null
  city: string | null
  postalCode: string | null
  countryCode: string | null
  /** Emails and social links the lead source already gave (OSM tags): merged with the crawl's. */
  sourceEmails: string[]
  sourceSocialMedia: Record<string, string>
}

export interface LeadEnrichmentContext {
  enrichers: Enrichers
  signal?: AbortSignal
  /** The export's country (ISO 3166-1 alpha-2) when the lead has none of its own. */
  exportCountryCode: string | null
  /** NAF codes of the searched category (registry matching). */
  nafCodes?: string[]
}

export interface LeadEnrichmentResult {
  outcomes: Partial<Record<TaskType, TaskOutcome>>
  /** Values for the successful types (written on the lead only when charged). */
  values: {
    phone?: string
    /** Every business number with its type and page, the main one (leads.phone) ranked 0 (leads.phone_sources). */
    phone_sources?: PhoneSources
    website?: string
    email?: string[]
    /** Where each email was found, and when (leads.email_sources). */
    email_sources?: EmailSources
    technologies?: Record<string, string | string[]>
    social_media?: Record<string, string>
    admin_fr_info?: JsonObject
  }
  /** Whether a website crawl ran (diagnostics, benchmark). */
  crawled: boolean
  /** The do-not-contact list names the company this enrichment identified: the lead gives nothing (givesNothing). */
  listed?: boolean
}

/**
 * Makes third-party data storable in Postgres: NUL characters are refused in text and jsonb, and so are lone UTF-16
 * surrogates in jsonb. Strings (keys included) lose their NULs and have lone surrogates replaced (U+FFFD).
 */
const NUL = String.fromCharCode(0)

export function storable<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll(NUL, '').toWellFormed() as T
  if (Array.isArray(value)) return value.map((item) => storable(item)) as T
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) out[storable(key)] = storable(item)
    return out as T
  }
  return value
}

function isAbort(error: unknown, signal?: AbortSignal): boolean {
  return Boolean(signal?.aborted) || (error instanceof Error && error.name === 'AbortError')
}

function dedupeEmails(lists: string[][]): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const list of lists) {
    for (const raw of list) {
      const email = raw.trim().toLowerCase()
      if (email && email.includes('@') && !seen.has(email)) {
        seen.add(email)
        out.push(email)
      }
    }
  }
  return out
}

function cleanTechnologies(raw: unknown): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  if (Array.isArray(raw)) {
    // A flat list of names: keep it under one category rather than lose it.
    const names = raw.filter((value): value is string => typeof value === 'string' && value.trim() !== '')
    if (names.length) out.other = names
    return out
  }
  if (!raw || typeof raw !== 'object') return out
  for (const [category, value] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof value === 'string' && value.trim()) out[category] = value
    else if (Array.isArray(value)) {
      const names = value.filter((v): v is string => typeof v === 'string' && v.trim() !== '')
      if (names.length) out[category] = names.length === 1 ? (names[0] as string) : names
    }
  }
  return out
}

function cleanSocial(...maps: Array<Record<string, string | undefined> | null | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const map of maps) {
    if (!map) continue
    for (const [network, url] of Object.entries(map)) {
      if (typeof url === 'string' && url.trim() && !out[network]) out[network] = url.trim()
    }
  }
  return out
}

/** Each email's page (null: the lead source listed it, or the crawler did not say) and the date of this run. */
function emailSources(emails: string[], pages: Record<string, string> | undefined, foundAt: string, checks: Record<string, EmailCheck>): EmailSources {
  // Keyed like the emails: trimmed and lower case (dedupeEmails).
  const pageOf = new Map(Object.entries(pages ?? {}).map(([email, page]) => [email.trim().toLowerCase(), page]))
  return Object.fromEntries(
    emails.map((email) => [email, { page: pageOf.get(email) ?? null, found_at: foundAt, ...(checks[email] && { check: { ...checks[email], checked_at: foundAt } }) }]),
  )
}

/** The addresses the user's do-not-contact list allows (dnc-enrichers.ts), when the engine has one. */
function allowedBy(enrichers: Enrichers, emails: string[]): string[] {
  return enrichers.allowedEmails ? enrichers.allowedEmails(emails) : emails
}

/** The list or map when it holds something, else null. */
function nonEmpty<T extends object>(found: T): T | null {
  return Object.keys(found).length ? found : null
}

type FoundPhone = { number: string; page: string | null }

/** The source's number first (its page: null), then every valid number the site printed, each once. */
function businessPhones(sourcePhone: string | null, findings: WebsiteFindings | null, countryCode: string | null, enrichers: Enrichers): FoundPhone[] {
  const found: FoundPhone[] = sourcePhone ? [{ number: sourcePhone, page: null }] : []
  const seen = new Set(found.map(({ number }) => number.replace(/[^\d+]/g, '')))
  for (const raw of findings?.phones ?? []) {
    const number = enrichers.normalizePhone(raw, countryCode)
    const key = number?.replace(/[^\d+]/g, '')
    if (!number || !key || seen.has(key)) continue
    seen.add(key)
    found.push({ number: storable(number), page: findings?.phonePages?.[raw] ?? null })
  }
  return found
}

/** leads.name's default (SPEC §3) when the source gave no name. */
export const UNNAMED_BUSINESS = 'Unnamed Business'

const CRAWL_TYPES: readonly TaskType[] = ['website', 'email', 'technologies', 'social_media']

/** One crawl; a crawl that throws (other than an abort) counts as failed. */
async function crawlWebsite(website: string, countryCode: string | null, { enrichers, signal }: LeadEnrichmentContext): Promise<WebsiteFindings> {
  let findings: WebsiteFindings
  try {
    findings = await enrichers.crawl(website, { signal, countryCode: countryCode ?? undefined })
  } catch (error) {
    if (isAbort(error, signal)) throw error
    findings = { status: 'failed', finalUrl: null, emails: [], socialMedia: {}, technologies: {}, phones: [], siret: null, error: String(error) }
  }
  signal?.throwIfAborted()
  return findings
}

/** The registry match of a French lead, helped by the SIRET / SIREN its website printed. */
async function lookupRegistry(lead: LeadForEnrichment, findings: WebsiteFindings | null, { enrichers, signal, nafCodes }: LeadEnrichmentContext): Promise<RegistryOutcome> {
  // Matching is by name (+ postcode, SIRET): a lead without a real name cannot be matched.
  if (lead.name.trim() === '' || lead.name === UNNAMED_BUSINESS) return { status: 'not_found' }
  let result: RegistryOutcome
  try {
    const query = { name: lead.name, postalCode: lead.postalCode, city: lead.city, siret: findings ? findings.siret : null, siren: findings ? findings.siren : null, nafCodes }
    result = await enrichers.lookupRegistry(query, { signal })
  } catch (error) {
    if (isAbort(error, signal)) throw error
    result = { status: 'failed', error: String(error) }
  }
  signal?.throwIfAborted()
  return result
}

/**
 * What the registry task stores: the registry's match, with the page the site printed its SIRET/SIREN on; when the
 * registry knows no such company (not_found, never a failure that may answer later), the identifiers the site prints
 * in its legal notice all the same (Luhn-checked, the business's own statement), marked `matched_by: 'site'`.
 */
function registryInfo(result: RegistryOutcome, findings: WebsiteFindings | null): JsonObject | null {
  const page = findings?.companyIdsPage ?? null
  if (result.status === 'success') {
    const info = Array.isArray(result.info.results) ? result.info : { ...result.info, results: [result.info] }
    // The page only when the registry matched on the identifiers it printed.
    return page && info.matched_by !== 'name_postcode' ? ({ ...info, id_source_page: page } as JsonObject) : info
  }
  const siret = findings?.siret ?? null
  const siren = findings?.siren ?? siret?.slice(0, 9) ?? null
  if (result.status !== 'not_found' || !siren) return null
  return { results: [{ siren, siret }], confidence: null, matched_by: 'site', id_source_page: page }
}

/**
 * A lead whose company the do-not-contact list names, learnt only during its enrichment: every task ends not_found,
 * so nothing is found for it or charged (the phone task neither, even with the source's number), as if the search
 * had left it out.
 */
export function givesNothing(pending: Iterable<TaskType>, crawled: boolean): LeadEnrichmentResult {
  return { outcomes: Object.fromEntries([...pending].map((type) => [type, 'not_found' satisfies TaskOutcome])), values: {}, crawled, listed: true }
}

/**
 * Runs the pending tasks of one lead: at most one website crawl (feeding website, email, social, technologies,
 * the phones and the SIRET for the registry), then the registry for French leads.
 *
 * Outcome rules (README "Export pipeline"):
 *   website       success = the crawl reached the site (status ok); no website → not_found
 *   email         success = at least one found (crawl ∪ what the source gave) and not invalid (verification)
 *   social        success = at least one found (crawl ∪ what the source gave)
 *   technologies  success = at least one detected
 *   phone         success = a valid number after normalisation: the source's first (the main one), then every
 *                 number printed on the site, each with its type and page (leads.phone_sources)
 *   admin_fr_info success = a registry match, else the SIRET/SIREN the site prints (no registry record); only
 *                 French leads (others: not_found)
 * A crawl that failed (timeout, refused, 5xx) gives `failed` where nothing else answered; not_found otherwise.
 * Aborting (signal) rejects: nothing of this lead is recorded.
 */
export async function enrichLead(lead: LeadForEnrichment, pending: ReadonlySet<TaskType>, context: LeadEnrichmentContext): Promise<LeadEnrichmentResult> {
  const { enrichers } = context
  const countryCode = (lead.countryCode ?? context.exportCountryCode ?? '').toUpperCase() || null
  const outcomes: LeadEnrichmentResult['outcomes'] = {}
  const values: LeadEnrichmentResult['values'] = {}

  const sourcePhone = pending.has('phone') && lead.phone ? enrichers.normalizePhone(lead.phone, countryCode) : null
  const french = countryCode === 'FR'
  // The phone task crawls even when the source gave a number: every business number of the site is kept.
  const wantsCrawl = CRAWL_TYPES.some((type) => pending.has(type)) || pending.has('phone') || (pending.has('admin_fr_info') && french)
  let findings: WebsiteFindings | null = null
  if (wantsCrawl && lead.website) {
    findings = await crawlWebsite(lead.website, countryCode, context)
    if (findings.listed) return givesNothing(pending, true)
  }
  const crawlFailed = findings?.status === 'failed'
  const ok = findings?.status === 'ok'

  // What the crawl alone decides: found → success with its value; else failed when the crawl failed.
  const fromCrawl = <T extends 'website' | 'email' | 'social_media' | 'technologies'>(type: T, found: LeadEnrichmentResult['values'][T] | null) => {
    if (!pending.has(type)) return
    if (found) {
      outcomes[type] = 'success'
      values[type] = found
    } else outcomes[type] = crawlFailed ? 'failed' : 'not_found'
  }
  fromCrawl('website', ok ? findings?.finalUrl || (lead.website as string) : null)
  // Only valid and risky addresses count (and are stored): invalid ones are dropped (README "Email verification"),
  // and so are those the do-not-contact list names. Verified as they will be stored (storable: no NUL, well-formed).
  const found = pending.has('email') ? allowedBy(enrichers, dedupeEmails([storable(lead.sourceEmails), storable(ok ? (findings?.emails ?? []) : [])])) : []
  const emails = await verifyFoundEmails(enrichers.emailVerifier, found, context.signal)
  fromCrawl('email', nonEmpty(emails.kept))
  if (values.email) values.email_sources = emailSources(values.email, ok ? findings?.emailPages : undefined, new Date().toISOString(), emails.checks)
  fromCrawl('social_media', nonEmpty(cleanSocial(lead.sourceSocialMedia, ok ? findings?.socialMedia : null)))
  fromCrawl('technologies', nonEmpty(ok ? cleanTechnologies(findings?.technologies) : {}))
  if (pending.has('phone')) {
    const phones = businessPhones(sourcePhone, ok ? findings : null, countryCode, enrichers)
    if (phones.length) {
      outcomes.phone = 'success'
      values.phone = (phones[0] as FoundPhone).number
      values.phone_sources = Object.fromEntries(phones.map(({ number, page }, rank) => [number, { type: phoneTypeOf(number), page, rank }]))
    } else outcomes.phone = crawlFailed && !lead.phone ? 'failed' : 'not_found'
  }
  if (pending.has('admin_fr_info')) {
    const result: RegistryOutcome = french ? await lookupRegistry(lead, ok ? findings : null, context) : { status: 'not_found' }
    if (result.status === 'not_found' && result.listed) return givesNothing(pending, findings !== null)
    const info = french ? registryInfo(result, ok ? findings : null) : null
    if (info) {
      outcomes.admin_fr_info = 'success'
      values.admin_fr_info = info
    } else outcomes.admin_fr_info = result.status
  }
  return { outcomes, values, crawled: findings !== null }
}
