// Columns of a downloaded export (SPEC §3 Lead, ARCHITECTURE §5 item 5): every lead field, then
// one block per enrichment the export chose (its columns come with its entry in the table of
// enrichment types). Header labels are file contents, not UI strings, so both languages live
// here rather than in app/locales.
import { ENRICHMENT_TABLE, type EnrichmentStatusColumn, type EnrichedLeadColumn, type FileLabel, type FileLang } from '#app/domain/enrichment-types.ts'
import { normalizeEnrichmentOptions } from '#app/domain/enrichment.ts'
import { formatWorkingHours, isoDay, joinList, num, text, type Cell } from '#app/domain/lead-file-values.ts'
import type { EnrichmentStatus, JsonValue } from '#app/.server/db.ts'

export type DownloadLang = FileLang
export type { Cell }

/** The lead fields every file has (leads joined to export_leads, see download.ts). */
type BaseLeadRow = {
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
  /** export_leads.reused: task -> date of the earlier purchase this export reused. */
  reused: unknown
}

/** One row of the download query: the lead fields, what the enrichments filled, and their statuses. */
export type LeadExportRow = BaseLeadRow & Readonly<Record<EnrichedLeadColumn, unknown>> & Readonly<Record<EnrichmentStatusColumn, EnrichmentStatus>>

export interface Column {
  key: string
  header: string
  /** Excel column width, in characters. */
  width: number
  value: (row: LeadExportRow) => Cell
}

// ---------------------------------------------------------------------------
// Labels

export const SHEET_NAME: FileLabel = { en: 'Leads', fr: 'Prospects' }

const STATUS_LABELS: Record<EnrichmentStatus, FileLabel> = {
  not_required: { en: 'Not requested', fr: 'Non demandé' },
  pending: { en: 'Pending', fr: 'En attente' },
  success: { en: 'Found', fr: 'Trouvé' },
  not_found: { en: 'Not found', fr: 'Non trouvé' },
  failed: { en: 'Failed', fr: 'Échec' },
}

/** A success this export reused from an earlier purchase (0 credits), with that purchase's day. */
const REUSED_LABEL: FileLabel = { en: 'Reused', fr: 'Réutilisé' }

function reusedStatus(row: LeadExportRow, task: string, lang: DownloadLang): string | null {
  const marks = row.reused && typeof row.reused === 'object' ? (row.reused as Record<string, unknown>) : {}
  if (!(task in marks)) return null
  const day = isoDay(marks[task])
  return day ? `${REUSED_LABEL[lang]} (${day})` : REUSED_LABEL[lang]
}

const HEADER_LABELS = {
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
} satisfies Record<string, FileLabel>

type HeaderKey = keyof typeof HEADER_LABELS

// ---------------------------------------------------------------------------
// Column sets

interface ColumnSpec {
  key: HeaderKey
  width: number
  value: (row: LeadExportRow) => Cell
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

function fileColumn(spec: ColumnSpec, lang: DownloadLang): Column {
  return { ...spec, header: HEADER_LABELS[spec.key][lang] }
}

/** A type's block: its value columns, then its status. */
function enrichmentBlock(entry: (typeof ENRICHMENT_TABLE)[number], lang: DownloadLang): Column[] {
  const status: Column = {
    key: entry.statusColumn,
    header: entry.statusHeader[lang],
    width: 14,
    value: (row) =>
      (row[entry.statusColumn] === 'success' ? reusedStatus(row, entry.task, lang) : null) ??
      STATUS_LABELS[row[entry.statusColumn]]?.[lang] ??
      text(row[entry.statusColumn]),
  }
  return [...entry.fileColumns.map((column) => ({ ...column, header: column.header[lang] })), status]
}

/** The columns of an export's file: the lead fields, then a block per chosen enrichment (stored options, SPEC §3). */
export function exportColumns(enrichmentOptions: unknown, lang: DownloadLang): Column[] {
  const options = normalizeEnrichmentOptions(enrichmentOptions)
  const chosen = ENRICHMENT_TABLE.filter((entry) => options[entry.key])
  return [...BASE.map((spec) => fileColumn(spec, lang)), ...chosen.flatMap((entry) => enrichmentBlock(entry, lang))]
}

/** One record, in column order. */
export function rowCells(columns: Column[], row: LeadExportRow): Cell[] {
  return columns.map((column) => column.value(row))
}
