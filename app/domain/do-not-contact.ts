/**
 * The do-not-contact list (opt-outs): what an entry is, how it is written down once, and which businesses and
 * addresses it excludes. Pure: the settings page, the CSV import and the export pipeline all call these rules.
 *
 * An entry is one of: an email address, a domain (excludes the site and every address at it), a phone number
 * (compared in E.164), a SIREN (the whole company) or SIRET (one establishment), or one business of a source.
 */
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max'
import { websiteDomain } from './website-domain.ts'

export const DNC_KINDS = ['email', 'domain', 'phone', 'siren', 'siret', 'business'] as const
export type DncKind = (typeof DNC_KINDS)[number]

export interface DncEntry {
  kind: DncKind
  /** Canonical form: lowercase email/domain, E.164 phone, digits for SIREN/SIRET, `<source>:<place id>` for a business. */
  value: string
}

/** An entry as the list shows and downloads it: a business's name and city as the user's leads gave them (null when unknown). */
export interface DncListedEntry extends DncEntry {
  name: string | null
  city: string | null
  /** The CRM an opt-out was read back from (null: added in LeadAtlas). */
  source: 'hubspot' | 'brevo' | null
  /** ISO timestamp. */
  createdAt: string
}

/** Entries are written by hand or pasted from spreadsheets: one per line, or separated by commas/semicolons. */
export const DNC_MAX_ENTRY_LENGTH = 320
/** A list is for opt-outs, not a second CRM: the cap keeps every export's gate (read whole per run) cheap. */
export const DNC_MAX_ENTRIES = 50_000
/** The list's page in Settings (its CSV at `${DNC_PATH}/download`); lead rows post "never export" to it. */
export const DNC_PATH = '/settings/do-not-contact'
/** Entries shown per page in Settings. */
export const DNC_PAGE_SIZE = 25

const EMAIL_RE = /^[^\s@<>()[\],;:"]+@([a-z\d](?:[a-z\d-]{0,61}[a-z\d])?(?:\.[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?)+)$/i
const BUSINESS_RE = /^(demo|osm|google):(\S{1,200})$/
const DIGITS_ONLY_RE = /^[\d\s.-]+$/

function phoneOf(text: string, defaultCountry: CountryCode): string | null {
  try {
    const parsed = parsePhoneNumberFromString(text.replace(/^00(?=[1-9])/, '+'), { defaultCountry })
    return parsed?.isPossible() ? parsed.number : null
  } catch {
    return null
  }
}

/**
 * Reads one entry as a person would write it ("Contact@Boulangerie.fr", "https://www.boulangerie.fr/contact",
 * "04 78 00 00 00", "552 100 554", "osm:node/42"); null when it is none of the kinds. National phone numbers are
 * read in `defaultCountry` (France first: our users are French).
 */
export function parseDncEntry(raw: string, defaultCountry: CountryCode = 'FR'): DncEntry | null {
  const text = raw.trim()
  if (!text || text.length > DNC_MAX_ENTRY_LENGTH) return null
  const business = BUSINESS_RE.exec(text)
  if (business) return { kind: 'business', value: `${business[1]}:${business[2]}` }
  const email = EMAIL_RE.exec(text.replace(/^mailto:/i, ''))
  if (email) return { kind: 'email', value: text.replace(/^mailto:/i, '').toLowerCase() }
  if (DIGITS_ONLY_RE.test(text)) {
    const digits = text.replace(/\D/g, '')
    if (digits.length === 9 && !text.startsWith('0')) return { kind: 'siren', value: digits }
    if (digits.length === 14) return { kind: 'siret', value: digits }
  }
  if (/^[+\d(]/.test(text)) {
    const phone = phoneOf(text, defaultCountry)
    if (phone) return { kind: 'phone', value: phone }
  }
  // "@exemple.fr" is how people write "every address at exemple.fr"; any other "@" is a malformed address.
  const domainText = text.replace(/^@/, '')
  const domain = domainText.includes('@') ? null : websiteDomain(domainText)
  return domain ? { kind: 'domain', value: domain } : null
}

export interface ParsedDncList {
  entries: DncEntry[]
  /** What could not be read, as typed, so the form can give it back to be fixed. */
  rejected: string[]
}

/** Reads a pasted block or a CSV column: entries one per line or separated by commas, semicolons or tabs. */
export function parseDncList(text: string, defaultCountry: CountryCode = 'FR'): ParsedDncList {
  const seen = new Set<string>()
  const entries: DncEntry[] = []
  const rejected: string[] = []
  for (const piece of text.split(/[\n\r;,\t]+/)) {
    const raw = piece.trim().replace(/^"(.*)"$/, '$1').trim()
    if (!raw) continue
    const entry = parseDncEntry(raw, defaultCountry)
    if (!entry) {
      rejected.push(raw)
      continue
    }
    const key = `${entry.kind}:${entry.value}`
    if (seen.has(key)) continue
    seen.add(key)
    entries.push(entry)
  }
  return { entries, rejected }
}

/** A business as the registry identifies it: one establishment (SIRET) of one company (SIREN), either possibly unknown. */
export interface CompanyIds {
  siret: string | null
  siren: string | null
}

/** What of a business the list is compared with. */
export interface DncCandidate {
  source: string
  placeId: string
  website: string | null
  phones: readonly string[]
  emails: readonly string[]
  /**
   * Every identity known for it before anything is spent: the source's SIRET, the registry establishment a
   * registry-first export lists, the registry match an earlier export stored.
   */
  companies: readonly CompanyIds[]
  countryCode: string | null
}

/** The list, indexed once per export so each business is checked in constant time. */
export interface DncIndex {
  byKind: Record<DncKind, ReadonlySet<string>>
}

export function indexDncList(entries: readonly DncEntry[]): DncIndex {
  const byKind = Object.fromEntries(DNC_KINDS.map((kind) => [kind, new Set<string>()])) as Record<DncKind, Set<string>>
  for (const entry of entries) byKind[entry.kind].add(entry.value)
  return { byKind }
}

/** A listed domain covers its subdomains ("boulangerie.fr" covers "shop.boulangerie.fr"). */
function domainListed(index: DncIndex, domain: string | null): boolean {
  if (!domain) return false
  const labels = domain.split('.')
  for (let i = 0; i < labels.length - 1; i++) if (index.byKind.domain.has(labels.slice(i).join('.'))) return true
  return false
}

function emailListed(index: DncIndex, email: string): boolean {
  const lower = email.trim().toLowerCase()
  return index.byKind.email.has(lower) || domainListed(index, lower.slice(lower.lastIndexOf('@') + 1))
}

/**
 * Which entry names this establishment or its company: a SIRET entry one establishment; a SIREN entry every
 * establishment of the company, those whose SIRET is unknown (only the SIREN is known) included.
 */
export function companyListing(index: DncIndex, { siret, siren }: CompanyIds): 'siret' | 'siren' | null {
  if (siret && index.byKind.siret.has(siret)) return 'siret'
  const company = siren || siret?.slice(0, 9)
  return company && index.byKind.siren.has(company) ? 'siren' : null
}

const idText = (value: unknown): string | null => (typeof value === 'string' && /^\d+$/.test(value.trim()) ? value.trim() : null)

/**
 * The identity of a stored registry match (leads.admin_fr_info, enrichment_results): its best result, `results[0]`
 * (the object itself for an older shape); null when it names no company.
 */
export function registryMatchIds(info: unknown): CompanyIds | null {
  if (typeof info !== 'object' || info === null) return null
  const { results } = info as { results?: unknown }
  const best = (Array.isArray(results) ? results[0] : info) as { siret?: unknown; siren?: unknown } | null | undefined
  if (typeof best !== 'object' || best === null) return null
  const ids = { siret: idText(best.siret), siren: idText(best.siren) }
  return ids.siret || ids.siren ? ids : null
}

/** The company (SIREN) of a company's ids: its SIREN, else its establishment's SIRET's first nine digits. */
export function companySiren(ids: CompanyIds): string | null {
  return ids.siren ?? ids.siret?.slice(0, 9) ?? null
}

/** The company a lead's registry match names (`admin_fr_info`), or null. */
export function registryMatchSiren(info: unknown): string | null {
  const ids = registryMatchIds(info)
  return ids ? companySiren(ids) : null
}

/**
 * Why a business must be left out of an export (before anything is spent on it), or null. An email on the list
 * does not exclude the business: only that address is removed (`allowedEmails`).
 */
export function dncExclusionReason(index: DncIndex, business: DncCandidate): Exclude<DncKind, 'email'> | null {
  if (index.byKind.business.has(`${business.source}:${business.placeId}`)) return 'business'
  // A SIRET entry wins over a SIREN entry naming the same company (the more precise reason is the one counted).
  const listings = business.companies.map((ids) => companyListing(index, ids))
  if (listings.includes('siret')) return 'siret'
  if (listings.includes('siren')) return 'siren'
  if (business.website && domainListed(index, websiteDomain(business.website))) return 'domain'
  const country = (business.countryCode ?? 'FR').toUpperCase() as CountryCode
  if (business.phones.some((phone) => index.byKind.phone.has(phoneOf(phone, country) ?? ''))) return 'phone'
  return null
}

/** The addresses that may be delivered: listed addresses and addresses at listed domains are removed. */
export function allowedEmails(index: DncIndex, emails: readonly string[]): string[] {
  return emails.filter((email) => !emailListed(index, email))
}
