// Columns of a downloaded export (SPEC §3 Lead, ARCHITECTURE §5 item 5): every lead field, then
// one block per enrichment the export chose. Header labels are file contents, not UI strings,
// so both languages live here rather than in app/locales.
import { normalizeEnrichmentOptions, type EnrichmentType } from '#app/domain/enrichment.ts'
import type { EnrichmentStatus, JsonValue } from '#app/.server/db.ts'

export type DownloadLang = 'fr' | 'en'

/** A cell: text, a number (kept numeric in both formats), or empty. */
export type Cell = string | number | null

/** One row of the download query (leads joined to export_leads, see download.ts). */
export interface LeadExportRow {
  name: string
  full_address: string | null
  city: string | null
  postal_code: string | null
  country_code: string | null
  phone: string | null
  website: string | null
  latitude: number | null
  longitude: number | null
  rating: number | string | null
  review_count: number | null
  business_types: string[] | null
  google_maps_url: string | null
  working_hours: JsonValue | null
  operational_state: string | null
  description: string | null
  place_id: string | null
  source: string
  email: string[] | null
  technologies: JsonValue | null
  social_media: JsonValue | null
  admin_fr_info: JsonValue | null
  phone_status: EnrichmentStatus
  website_status: EnrichmentStatus
  email_status: EnrichmentStatus
  technologies_status: EnrichmentStatus
  social_media_status: EnrichmentStatus
  admin_fr_info_status: EnrichmentStatus
}

export interface Column {
  key: string
  header: string
  /** Excel column width, in characters. */
  width: number
  value: (row: LeadExportRow) => Cell
}

type Label = Record<DownloadLang, string>

// ---------------------------------------------------------------------------
// Labels

export const SHEET_NAME: Label = { en: 'Leads', fr: 'Prospects' }

export const STATUS_LABELS: Record<EnrichmentStatus, Label> = {
  not_required: { en: 'Not requested', fr: 'Non demandé' },
  pending: { en: 'Pending', fr: 'En attente' },
  success: { en: 'Found', fr: 'Trouvé' },
  not_found: { en: 'Not found', fr: 'Non trouvé' },
  failed: { en: 'Failed', fr: 'Échec' },
}

export const HEADER_LABELS = {
  name: { en: 'Name', fr: 'Nom' },
  full_address: { en: 'Address', fr: 'Adresse' },
  city: { en: 'City', fr: 'Ville' },
  postal_code: { en: 'Postal code', fr: 'Code postal' },
  country_code: { en: 'Country code', fr: 'Code pays' },
  phone: { en: 'Phone', fr: 'Téléphone' },
  website: { en: 'Website', fr: 'Site web' },
  latitude: { en: 'Latitude', fr: 'Latitude' },
  longitude: { en: 'Longitude', fr: 'Longitude' },
  rating: { en: 'Rating', fr: 'Note' },
  review_count: { en: 'Review count', fr: "Nombre d'avis" },
  business_types: { en: 'Categories', fr: 'Catégories' },
  google_maps_url: { en: 'Google Maps URL', fr: 'Lien Google Maps' },
  working_hours: { en: 'Opening hours', fr: "Horaires d'ouverture" },
  operational_state: { en: 'Business status', fr: "Statut de l'établissement" },
  description: { en: 'Description', fr: 'Description' },
  place_id: { en: 'Place ID', fr: 'Identifiant du lieu' },
  source: { en: 'Source', fr: 'Source' },

  phone_status: { en: 'Phone enrichment status', fr: 'Statut enrichissement téléphone' },
  website_status: { en: 'Website enrichment status', fr: 'Statut enrichissement site web' },
  email: { en: 'Emails', fr: 'E-mails' },
  email_status: { en: 'Email enrichment status', fr: 'Statut enrichissement e-mail' },
  technologies: { en: 'Technologies', fr: 'Technologies' },
  technologies_status: { en: 'Technologies enrichment status', fr: 'Statut enrichissement technologies' },
  facebook: { en: 'Facebook', fr: 'Facebook' },
  linkedin: { en: 'LinkedIn', fr: 'LinkedIn' },
  twitter: { en: 'X (Twitter)', fr: 'X (Twitter)' },
  instagram: { en: 'Instagram', fr: 'Instagram' },
  tiktok: { en: 'TikTok', fr: 'TikTok' },
  social_media_status: { en: 'Social media enrichment status', fr: 'Statut enrichissement réseaux sociaux' },
  siren: { en: 'SIREN', fr: 'SIREN' },
  siret: { en: 'SIRET', fr: 'SIRET' },
  legal_name: { en: 'Legal name', fr: 'Raison sociale' },
  naf_code: { en: 'NAF code', fr: 'Code NAF' },
  legal_category: { en: 'Legal category', fr: 'Catégorie juridique' },
  headcount_band: { en: 'Headcount band', fr: "Tranche d'effectif" },
  creation_date: { en: 'Creation date', fr: 'Date de création' },
  match_confidence: { en: 'Match confidence', fr: 'Indice de confiance' },
  admin_fr_info_status: { en: 'Company registry enrichment status', fr: 'Statut enrichissement données légales' },
} satisfies Record<string, Label>

type HeaderKey = keyof typeof HEADER_LABELS

// ---------------------------------------------------------------------------
// Value helpers

function text(value: unknown): string | null {
  if (value === null || value === undefined) return null
  const result = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value)
  return result === '' ? null : result
}

function num(value: unknown): number | null {
  const result = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN
  return Number.isFinite(result) ? result : null
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function joinList(values: unknown, separator = '; '): string | null {
  if (!Array.isArray(values)) return text(values)
  const parts = values.map(text).filter((part): part is string => part !== null)
  return parts.length ? parts.join(separator) : null
}

/** Text from OSM (a string), Google (weekdayDescriptions), a list, or a day -> hours map. */
export function formatWorkingHours(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return text(value)
  if (Array.isArray(value)) return joinList(value)
  if (isRecord(value)) {
    if (Array.isArray(value.weekdayDescriptions)) return joinList(value.weekdayDescriptions)
    const entries = Object.entries(value).filter(([, hours]) => hours !== null && hours !== undefined)
    if (entries.length && entries.every(([, hours]) => typeof hours === 'string' || Array.isArray(hours))) {
      return entries.map(([day, hours]) => `${day}: ${Array.isArray(hours) ? joinList(hours, ', ') : hours}`).join('; ')
    }
  }
  return text(value)
}

/** `{CMS: 'WordPress', 'JavaScript libraries': ['jQuery', 'React']}` -> "CMS: WordPress; JavaScript libraries: jQuery, React". */
export function formatTechnologies(value: unknown): string | null {
  if (Array.isArray(value)) return joinList(value)
  if (!isRecord(value)) return text(value)
  const parts: string[] = []
  for (const [category, names] of Object.entries(value)) {
    const list = Array.isArray(names) ? joinList(names, ', ') : text(names)
    if (list) parts.push(`${category}: ${list}`)
  }
  return parts.length ? parts.join('; ') : null
}

export const SOCIAL_NETWORKS = ['facebook', 'linkedin', 'twitter', 'instagram', 'tiktok'] as const
type SocialNetwork = (typeof SOCIAL_NETWORKS)[number]
const SOCIAL_ALIASES: Record<SocialNetwork, string[]> = {
  facebook: ['facebook'],
  linkedin: ['linkedin'],
  twitter: ['twitter', 'x'],
  instagram: ['instagram'],
  tiktok: ['tiktok'],
}

/** The URL of one network in a network -> URL map (keys matched case-insensitively; "x" is twitter). */
export function socialUrl(value: unknown, network: SocialNetwork): string | null {
  if (!isRecord(value)) return null
  for (const [key, url] of Object.entries(value)) {
    if (SOCIAL_ALIASES[network].includes(key.toLowerCase())) {
      const found = Array.isArray(url) ? joinList(url) : text(url)
      if (found) return found
    }
  }
  return null
}

export interface AdminFrFields {
  siren: string | null
  siret: string | null
  legal_name: string | null
  naf_code: string | null
  legal_category: string | null
  headcount_band: string | null
  creation_date: string | null
  match_confidence: number | null
}

/**
 * Reads the registry match stored in leads.admin_fr_info. SPEC §3 only says it "has a results
 * list"; the best match is `results[0]` (falling back to the object itself), with the
 * recherche-entreprises field names (siren, siege.siret, nom_raison_sociale, activite_principale,
 * nature_juridique, tranche_effectif_salarie, date_creation) or plain English aliases, and the
 * confidence on the result or on the object (confidence | match_confidence | score).
 */
export function adminFrFields(value: unknown): AdminFrFields {
  const info = isRecord(value) ? value : {}
  const first = Array.isArray(info.results) ? info.results.find(isRecord) : undefined
  const best: Record<string, unknown> = first ?? info
  const siege = isRecord(best.siege) ? best.siege : {}
  const pick = (...keys: string[]): unknown => {
    for (const source of [best, siege, info]) {
      for (const key of keys) {
        const found = source[key]
        if (found !== null && found !== undefined && found !== '') return found
      }
    }
    return null
  }
  return {
    siren: text(pick('siren')),
    siret: text(pick('siret')),
    legal_name: text(pick('nom_raison_sociale', 'nom_complet', 'legal_name', 'raison_sociale')),
    naf_code: text(pick('activite_principale', 'naf_code', 'naf')),
    legal_category: text(pick('nature_juridique', 'legal_category', 'categorie_juridique')),
    headcount_band: text(pick('tranche_effectif_salarie', 'headcount_band', 'tranche_effectif')),
    creation_date: text(pick('date_creation', 'creation_date')),
    match_confidence: num(pick('confidence', 'match_confidence', 'score')),
  }
}

// ---------------------------------------------------------------------------
// Column sets

interface ColumnSpec {
  key: HeaderKey
  width: number
  value: (row: LeadExportRow, lang: DownloadLang) => Cell
}

const BASE: ColumnSpec[] = [
  { key: 'name', width: 32, value: (row) => text(row.name) },
  { key: 'full_address', width: 40, value: (row) => text(row.full_address) },
  { key: 'city', width: 18, value: (row) => text(row.city) },
  { key: 'postal_code', width: 10, value: (row) => text(row.postal_code) },
  { key: 'country_code', width: 8, value: (row) => text(row.country_code) },
  { key: 'phone', width: 18, value: (row) => text(row.phone) },
  { key: 'website', width: 30, value: (row) => text(row.website) },
  { key: 'latitude', width: 11, value: (row) => num(row.latitude) },
  { key: 'longitude', width: 11, value: (row) => num(row.longitude) },
  { key: 'rating', width: 7, value: (row) => num(row.rating) },
  { key: 'review_count', width: 9, value: (row) => num(row.review_count) },
  { key: 'business_types', width: 28, value: (row) => joinList(row.business_types) },
  { key: 'google_maps_url', width: 30, value: (row) => text(row.google_maps_url) },
  { key: 'working_hours', width: 40, value: (row) => formatWorkingHours(row.working_hours) },
  { key: 'operational_state', width: 14, value: (row) => text(row.operational_state) },
  { key: 'description', width: 40, value: (row) => text(row.description) },
  { key: 'place_id', width: 24, value: (row) => text(row.place_id) },
  { key: 'source', width: 8, value: (row) => text(row.source) },
]

function status(key: `${'phone' | 'website' | 'email' | 'technologies' | 'social_media' | 'admin_fr_info'}_status`): ColumnSpec {
  return { key, width: 14, value: (row, lang) => STATUS_LABELS[row[key]]?.[lang] ?? text(row[key]) }
}

// The eight registry columns read the same jsonb: parse it once per row.
const adminCache = new WeakMap<LeadExportRow, AdminFrFields>()
function admin(key: keyof AdminFrFields, width: number): ColumnSpec {
  return {
    key,
    width,
    value: (row) => {
      let fields = adminCache.get(row)
      if (!fields) adminCache.set(row, (fields = adminFrFields(row.admin_fr_info)))
      return fields[key]
    },
  }
}

/**
 * One block per enrichment type. The phone and website values already are lead fields (the
 * enrichment fills the same column), so their blocks only add the status: no column twice.
 */
const BLOCKS: Record<EnrichmentType, ColumnSpec[]> = {
  phone: [status('phone_status')],
  website: [status('website_status')],
  email: [{ key: 'email', width: 32, value: (row) => joinList(row.email) }, status('email_status')],
  technologies: [{ key: 'technologies', width: 40, value: (row) => formatTechnologies(row.technologies) }, status('technologies_status')],
  social: [
    ...SOCIAL_NETWORKS.map((network): ColumnSpec => ({ key: network, width: 30, value: (row) => socialUrl(row.social_media, network) })),
    status('social_media_status'),
  ],
  admin_fr_info: [
    admin('siren', 11),
    admin('siret', 16),
    admin('legal_name', 30),
    admin('naf_code', 9),
    admin('legal_category', 10),
    admin('headcount_band', 10),
    admin('creation_date', 12),
    admin('match_confidence', 10),
    status('admin_fr_info_status'),
  ],
}

/** Block order in the file (also the order of ENRICHMENT_TYPES). */
const BLOCK_ORDER: EnrichmentType[] = ['phone', 'website', 'email', 'technologies', 'social', 'admin_fr_info']

/** The columns of an export's file: the lead fields, then a block per chosen enrichment (stored options, SPEC §3). */
export function exportColumns(enrichmentOptions: unknown, lang: DownloadLang): Column[] {
  const options = normalizeEnrichmentOptions(enrichmentOptions)
  const specs = [...BASE, ...BLOCK_ORDER.flatMap((type) => (options[type] ? BLOCKS[type] : []))]
  return specs.map((spec) => ({
    key: spec.key,
    header: HEADER_LABELS[spec.key][lang],
    width: spec.width,
    value: (row: LeadExportRow) => spec.value(row, lang),
  }))
}

/** One record, in column order. */
export function rowCells(columns: Column[], row: LeadExportRow): Cell[] {
  return columns.map((column) => column.value(row))
}
