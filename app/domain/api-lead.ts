// A lead as the public API shows it (../shared/API.md, GET /exports/{id}/leads): the downloaded file's fields in
// snake_case (the file's column keys), structured instead of joined into cells, with where each enriched value was
// found and each enrichment's status. The file's column table (enrichment-types.ts, download/columns.ts) stays the
// one definition: tests/unit/api-lead.test.ts fails when a file column has no field here. Pure: no server imports.
import { z } from 'zod'
import type { EmailCheck } from './email-quality.ts'
import { ENRICHMENT, ENRICHMENT_TABLE, type EnrichmentType } from './enrichment-types.ts'
import { normalizeEnrichmentOptions, type LeadEnrichmentStatus } from './enrichment.ts'
import {
  adminFrCodes,
  adminFrFields,
  ADMINISTRATIVE_STATES,
  formatWorkingHours,
  isRecord,
  num,
  REGISTRY_MATCH_METHODS,
  RISK_STATUSES,
  SOCIAL_NETWORKS,
  socialUrl,
  text,
  type AdminFrFields,
} from './lead-file-values.ts'
import { phoneE164 } from './lead-format.ts'
import { sourceUrl } from './lead-provenance.ts'
import { splitPhones, type PhoneType } from './phone-sources.ts'
import type { FileLang } from './file-language.ts'

const ENRICHMENT_STATUSES = ['not_required', 'pending', 'success', 'not_found', 'failed'] as const satisfies readonly LeadEnrichmentStatus[]
const PHONE_TYPES = ['mobile', 'landline', 'toll_free', 'voip', 'other'] as const satisfies readonly PhoneType[]
const EMAIL_STATUSES = ['valid', 'risky', 'unverified', 'invalid'] as const satisfies readonly EmailCheck['status'][]

const datetime = () => z.iso.datetime({ offset: true })

const ProvenanceSchema = z
  .object({
    page: z.string().nullable().meta({ description: 'The page the value was read on: a page of the business site, or the lead source page (OpenStreetMap object, Google Maps) when the source listed it. Null when unknown.' }),
    found_at: datetime()
      .nullable()
      .meta({ description: 'When it was found: an email its crawl; other values the last time this lead was enriched (they were found then or earlier).' }),
  })
  .meta({ id: 'Provenance', description: 'Where and when a value was found (the CNIL expects prospecting files to name it).' })

const statusFields = {
  status: z.enum(ENRICHMENT_STATUSES).meta({ description: "This export's outcome of the enrichment: not_required, pending, success, not_found or failed." }),
  reused_at: datetime()
    .nullable()
    .meta({ description: 'A success this export reused from an earlier purchase of the same user (0 credits): that purchase. Null otherwise.' }),
}

const PhoneSchema = z.object({
  number: z.string().meta({ example: '+33 6 12 34 56 78' }),
  e164: z.string().nullable().meta({ description: 'The number in E.164; null when it cannot be read as one.', example: '+33612345678' }),
  type: z.enum(PHONE_TYPES),
  source: ProvenanceSchema,
})

const EmailSchema = z
  .object({
    address: z.string(),
    quality: z
      .object({
        status: z.enum(EMAIL_STATUSES).meta({ description: 'valid; risky (DNS unavailable, catch-all, mail server unavailable); unverified (DNS unusable). Invalid addresses are never delivered.' }),
        reason: z.string().nullable(),
        role: z.boolean().meta({ description: 'A function address (contact@, info@) rather than a person.' }),
        webmail: z.boolean().meta({ description: 'A free webmail domain rather than the business own.' }),
        checked_at: datetime().nullable(),
      })
      .nullable()
      .meta({ description: 'Its verification; null for addresses found before verification existed.' }),
    source: ProvenanceSchema,
  })
  .meta({ id: 'LeadEmail' })

// Codes are the values to branch on; each label beside its code is worded in `lang` (naf_label and legal_form are
// INSEE's French wording in both: INSEE publishes no English). docs/api.md "Ids and languages".
/** A company's SIREN and an establishment's SIRET, in one format wherever the API names them (registry previews too). */
export const SirenSchema = z.string().regex(/^\d{9}$/).meta({ example: '552100554' })
export const SiretSchema = z.string().regex(/^\d{14}$/).meta({ example: '55210055400013' })

const registryShape = {
  siren: SirenSchema.nullable(),
  siret: SiretSchema.nullable(),
  legal_name: z.string().nullable(),
  naf_code: z.string().nullable().meta({ description: 'NAF rév. 2 activity code.', example: '10.71C' }),
  legal_category: z.string().nullable().meta({ description: 'INSEE legal category code (the `legal_form_code` of a registry preview).', example: '5499' }),
  headcount_band: z.string().nullable().meta({ description: 'INSEE headcount band code.', example: '02' }),
  creation_date: z.string().nullable(),
  match_confidence: z.number().nullable(),
  naf_label: z.string().nullable().meta({ description: "The NAF code's label, in French (INSEE's wording) whatever `lang`." }),
  legal_form: z.string().nullable().meta({ description: "The legal category's label, in French (INSEE's wording) whatever `lang`." }),
  headcount: z.string().nullable().meta({ description: "The headcount band's label, in `lang`." }),
  administrative_state: z.string().nullable().meta({ description: 'The state, in `lang` (Active, Closed, Ceased).' }),
  head_office_address: z.string().nullable(),
  directors: z.string().nullable(),
  matched_by: z.string().nullable().meta({ description: 'How the company was identified, in `lang`.' }),
  id_source_page: z.string().nullable(),
  risk: z.string().nullable().meta({ description: "The company's open risk per its BODACC announcements, in `lang` (null: none known).", example: 'Liquidation judiciaire' }),
  risk_date: z.string().nullable().meta({ description: 'The deciding judgment’s date (else the announcement’s), YYYY-MM-DD.', example: '2026-03-19' }),
  risk_tribunal: z.string().nullable().meta({ example: 'TRIBUNAL DE COMMERCE DE BORDEAUX' }),
  risk_announcement: z.string().nullable().meta({ description: 'The announcement on bodacc.fr.' }),
} satisfies Record<keyof AdminFrFields, z.ZodType>

/** The codes of the labels that have no code field of their own in the file. */
const registryCodeShape = {
  administrative_state_code: z.enum(ADMINISTRATIVE_STATES).nullable().meta({ description: 'INSEE: A active, F closed (establishment), C ceased (company).', example: 'A' }),
  matched_by_code: z.enum(REGISTRY_MATCH_METHODS).nullable().meta({ description: 'How the company was identified: siret or siren printed on the site, name_postcode, site (printed, not in the registry), registry_map, registry_not_online.', example: 'siret' }),
  risk_code: z.enum(RISK_STATUSES).nullable().meta({ description: 'The open risk per BODACC: sauvegarde, redressement or liquidation (judiciaire: a collective procedure), radiee (struck off); null when none is known.', example: 'liquidation' }),
}

const socialShape = Object.fromEntries(SOCIAL_NETWORKS.map((network) => [network, z.string().nullable()])) as Record<(typeof SOCIAL_NETWORKS)[number], z.ZodNullable<z.ZodString>>

/** One block per enrichment type; null when the export did not ask for it (the file has no columns for it either). */
const EnrichmentsSchema = z
  .object({
    phone: z.object({ ...statusFields, phone_type: z.enum(PHONE_TYPES).nullable(), phone_source: ProvenanceSchema.nullable(), other_phones: z.array(PhoneSchema) }).nullable(),
    website: z.object({ ...statusFields, website_source: ProvenanceSchema.nullable() }).nullable(),
    email: z.object({ ...statusFields, email: z.array(EmailSchema) }).nullable(),
    technologies: z.object({ ...statusFields, technologies: z.record(z.string(), z.array(z.string())), source: ProvenanceSchema.nullable() }).nullable(),
    social: z.object({ ...statusFields, ...socialShape, source: ProvenanceSchema.nullable() }).nullable(),
    admin_fr_info: z.object({ ...statusFields, ...registryShape, ...registryCodeShape, source: ProvenanceSchema.nullable() }).nullable(),
  })
  .meta({ description: 'Each enrichment the export asked for: its status and what it found, with provenance.' })

export const ApiLeadSchema = z
  .object({
    id: z.uuid(),
    position: z.int().min(0).meta({ description: 'Its place in the export (the file order).' }),
    name: z.string(),
    full_address: z.string().nullable(),
    city: z.string().nullable(),
    postal_code: z.string().nullable(),
    country_code: z.string().nullable(),
    phone: z.string().nullable().meta({ description: 'The main number (the source listing, else the first found on the site), for display.' }),
    phone_e164: z.string().nullable().meta({ description: 'The main number in E.164 (`+33123456789`), for machines; null when it cannot be read as one.', example: '+33123456789' }),
    website: z.string().nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    rating: z.number().nullable(),
    review_count: z.int().nullable(),
    business_types: z.array(z.string()),
    google_maps_url: z.string().nullable(),
    working_hours: z.string().nullable().meta({ description: 'Opening hours written out in `lang` (default en).', example: 'Mon-Sat 07:00-19:30' }),
    operational_state: z.string().nullable().meta({ description: 'OPERATIONAL, CLOSED_TEMPORARILY or CLOSED_PERMANENTLY when the source says.' }),
    description: z.string().nullable(),
    source: z.string().meta({ description: 'Where the business was found: osm, google or demo.' }),
    source_id: z.string().nullable().meta({ description: 'Its id there (OSM node/123, a Google place id).' }),
    source_url: z.string().nullable().meta({ description: 'Its page there; null for demo data.' }),
    enrichments: EnrichmentsSchema,
  })
  .meta({
    id: 'Lead',
    description: "A lead of an export: the downloaded file's fields, each enriched value with where and when it was found, and each enrichment's status.",
    example: {
      id: '6f1c2a9e-3b7d-4e0a-9c55-0d2f4b8a1e77',
      position: 0,
      name: 'Boulangerie Paul',
      full_address: '12 rue de la Paix, 75002 Paris',
      city: 'Paris',
      postal_code: '75002',
      country_code: 'FR',
      phone: '+33 1 23 45 67 89',
      phone_e164: '+33123456789',
      website: 'https://boulangerie-paul.fr',
      latitude: 48.8686,
      longitude: 2.3314,
      rating: 4.5,
      review_count: 128,
      business_types: ['bakery'],
      google_maps_url: null,
      working_hours: 'Mon-Sat 07:00-19:30',
      operational_state: 'OPERATIONAL',
      description: null,
      source: 'osm',
      source_id: 'node/123',
      source_url: 'https://www.openstreetmap.org/node/123',
      enrichments: { phone: null, website: null, email: null, technologies: null, social: null, admin_fr_info: null },
    },
  })

export type ApiLead = z.infer<typeof ApiLeadSchema>
type Provenance = z.infer<typeof ProvenanceSchema>
type Enrichments = ApiLead['enrichments']

/** One row of the leads query: the lead, its export_leads statuses and reuse marks (app/.server/exports/api-leads.ts). */
export interface ApiLeadRow extends Readonly<Record<string, unknown>> {
  id: string
  position: number
  name: string
  source: string
  place_id: string | null
  google_maps_url: string | null
  updated_at: Date | string
  reused: unknown
}

// Dates stored by this app (jsonb found_at, reuse marks) are already in this form: no Date round trip for them.
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

function iso(value: unknown): string | null {
  if (typeof value === 'string' && ISO_UTC.test(value)) return value
  const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : null
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : null
}

function statusBlock(row: ApiLeadRow, type: EnrichmentType) {
  const { statusColumn, task } = ENRICHMENT[type]
  const marks = isRecord(row.reused) ? row.reused : {}
  // The column's check constraint allows only these; anything else would be a schema change not made here.
  const status = ENRICHMENT_STATUSES.find((candidate) => candidate === row[statusColumn]) ?? 'not_required'
  return { status, reused_at: iso(marks[task]) }
}

/** The emails in the lead's order, each with its verification and where it was found. */
function emails(row: ApiLeadRow): z.infer<typeof EmailSchema>[] {
  const list = Array.isArray(row.email) ? row.email.filter((email): email is string => typeof email === 'string') : []
  const sources = isRecord(row.email_sources) ? row.email_sources : {}
  const leadPage = sourceUrl(row)
  return list.map((address) => {
    const found = isRecord(sources[address]) ? sources[address] : {}
    const check = isRecord(found.check) ? found.check : null
    const status = EMAIL_STATUSES.find((candidate) => candidate === check?.status)
    return {
      address,
      quality: check && status ? { status, reason: text(check.reason), role: check.role === true, webmail: check.webmail === true, checked_at: iso(check.checked_at) ?? iso(found.found_at) } : null,
      source: { page: text(found.page) ?? leadPage, found_at: iso(found.found_at) },
    }
  })
}

function technologies(value: unknown): Record<string, string[]> {
  if (!isRecord(value)) return {}
  const entries = Object.entries(value).flatMap(([category, names]) => {
    const list = (Array.isArray(names) ? names : [names]).map(text).filter((name): name is string => name !== null)
    return list.length ? [[category, list] as const] : []
  })
  return Object.fromEntries(entries)
}

/**
 * The blocks of the export's enrichments. A crawled value (website, technologies, social) was read on the site
 * itself when the crawl succeeded (a website it never reached is the lead source's); a phone on the page its sources
 * name, else the lead source's page; registry data on the page printing the SIRET when that identified it.
 */
function enrichments(row: ApiLeadRow, chosen: ReadonlySet<EnrichmentType>): Enrichments {
  const at = iso(row.updated_at)
  const leadPage = sourceUrl(row)
  const fromSource: Provenance = { page: leadPage, found_at: at }
  const website = text(row.website)
  const phonePage = (number: string): Provenance => {
    const source = isRecord(row.phone_sources) ? row.phone_sources[number] : undefined
    return { page: (isRecord(source) ? text(source.page) : null) ?? leadPage, found_at: at }
  }
  const phones = chosen.has('phone') ? splitPhones(row.phone, row.phone_sources) : { main: null, others: [] }
  const block = <T extends object>(type: EnrichmentType, values: (onSite: Provenance | null) => T) => {
    if (!chosen.has(type)) return null
    const status = statusBlock(row, type)
    return { ...status, ...values(website && status.status === 'success' ? { page: website, found_at: at } : null) }
  }
  return {
    phone: block('phone', () => ({
      phone_type: phones.main?.type ?? null,
      // A main number the enrichment never listed came with the lead source.
      phone_source: text(row.phone) ? (phones.main ? phonePage(phones.main.number) : fromSource) : null,
      other_phones: phones.others.map((phone) => ({ ...phone, e164: phoneE164(phone.number, text(row.country_code)), source: phonePage(phone.number) })),
    })),
    website: block('website', (onSite) => ({ website_source: onSite ?? (website ? fromSource : null) })),
    email: block('email', () => ({ email: emails(row) })),
    technologies: block('technologies', (onSite) => ({ technologies: technologies(row.technologies), source: onSite })),
    social: block('social', (onSite) => ({
      ...(Object.fromEntries(SOCIAL_NETWORKS.map((network) => [network, socialUrl(row.social_media, network)])) as Record<(typeof SOCIAL_NETWORKS)[number], string | null>),
      source: onSite,
    })),
    admin_fr_info: block('admin_fr_info', () => {
      const registry = adminFrFields(row.admin_fr_info)
      return { ...registry, siren: digitsOf(registry.siren, 9), siret: digitsOf(registry.siret, 14), ...adminFrCodes(row.admin_fr_info), source: row.admin_fr_info ? { page: registry.id_source_page, found_at: at } : null }
    }),
  }
}

/** A registry number as digits alone ("552 100 554" → "552100554"), or null when it is not one of `length` digits. */
function digitsOf(value: string | null, length: number): string | null {
  const digits = value?.replace(/\s/g, '') ?? ''
  return digits.length === length && /^\d+$/.test(digits) ? digits : null
}

/** The enrichment types an export asked for (its stored options). */
export function chosenEnrichments(enrichmentOptions: unknown): ReadonlySet<EnrichmentType> {
  const options = normalizeEnrichmentOptions(enrichmentOptions)
  return new Set(ENRICHMENT_TABLE.filter((entry) => options[entry.key]).map((entry) => entry.key))
}

/** The API lead of one row; `lang` writes the opening hours (registry labels are applied to the row by the server). */
export function toApiLead(row: ApiLeadRow, chosen: ReadonlySet<EnrichmentType>, lang: FileLang): ApiLead {
  const reviews = num(row.review_count)
  return {
    id: row.id,
    position: row.position,
    name: row.name,
    full_address: text(row.full_address),
    city: text(row.city),
    postal_code: text(row.postal_code),
    country_code: text(row.country_code),
    phone: text(row.phone),
    phone_e164: phoneE164(text(row.phone), text(row.country_code)),
    website: text(row.website),
    latitude: num(row.latitude),
    longitude: num(row.longitude),
    rating: num(row.rating),
    review_count: reviews === null ? null : Math.trunc(reviews),
    business_types: Array.isArray(row.business_types) ? row.business_types.map(text).filter((type): type is string => type !== null) : [],
    google_maps_url: text(row.google_maps_url),
    working_hours: formatWorkingHours(row.working_hours, lang),
    operational_state: text(row.operational_state),
    description: text(row.description),
    source: row.source,
    source_id: text(row.place_id),
    source_url: sourceUrl(row),
    enrichments: enrichments(row, chosen),
  }
}
