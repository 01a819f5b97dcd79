// Columns of a downloaded export (SPEC §3 Lead, ARCHITECTURE §5 item 5): the lead fields, then one
// block per enrichment the export chose (its columns come with its entry in the table of enrichment
// types), filtered by the download preset (app/domain/download-presets.ts), then the provenance. Header labels are file contents, not UI strings, so both languages live
// here rather than in app/locales.
import { DEFAULT_DOWNLOAD_PRESET, PRESET_ROLES, type ColumnRole, type DownloadPreset } from '#app/domain/download-presets.ts'
import {
  ENRICHMENT_TABLE,
  type EnrichmentFileColumn,
  type EnrichmentStatusColumn,
  type EnrichmentTypeEntry,
  type EnrichedLeadColumn,
  type FileLabel,
  type FileLang,
} from '#app/domain/enrichment-types.ts'
import { normalizeEnrichmentOptions } from '#app/domain/enrichment.ts'
import { businessStatusLabel } from '#app/domain/file-language.ts'
import { formatWorkingHours, isoDay, joinList, num, text, type Cell } from '#app/domain/lead-file-values.ts'
import { sourceName, sourceUrl } from '#app/domain/lead-provenance.ts'
import type { EnrichmentStatus, JsonValue } from '#app/.server/db.ts'
import { readableRegistryInfo } from '#app/.server/enrichment/registry-labels.ts'
import type { ListMatchKind, ListMatchRecord } from '#app/domain/list-match.ts'

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
  /** A list's export: the row's cells as uploaded, and how it was matched (app/domain/list-match.ts). */
  list_cells?: string[] | null
  list_match?: unknown
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
} satisfies Record<string, FileLabel>

type HeaderKey = keyof typeof HEADER_LABELS

// ---------------------------------------------------------------------------
// Column sets

interface ColumnSpec {
  key: HeaderKey
  width: number
  /** The cell in the file's language. */
  value: (row: LeadExportRow, lang: DownloadLang) => Cell
  role: ColumnRole
  /** Its header in the "CRM import" preset (README, product decisions), when CRMs map it. */
  crm?: string
}

const BASE: ColumnSpec[] = [
  { key: 'name', width: 32, value: (row) => text(row.name), role: 'identity', crm: 'Company name' },
  // The stored address is one line (street, postcode, city): CRMs take it as the street address.
  { key: 'full_address', width: 40, value: (row) => text(row.full_address), role: 'identity', crm: 'Street Address' },
  { key: 'city', width: 18, value: (row) => text(row.city), role: 'identity', crm: 'City' },
  { key: 'postal_code', width: 10, value: (row) => text(row.postal_code), role: 'identity', crm: 'Postal Code' },
  { key: 'country_code', width: 8, value: (row) => text(row.country_code), role: 'identity', crm: 'Country/Region' },
  { key: 'phone', width: 18, value: (row) => text(row.phone), role: 'contact', crm: 'Phone Number' },
  { key: 'website', width: 30, value: (row) => text(row.website), role: 'contact', crm: 'Website URL' },
  { key: 'latitude', width: 11, value: (row) => num(row.latitude), role: 'detail' },
  { key: 'longitude', width: 11, value: (row) => num(row.longitude), role: 'detail' },
  { key: 'rating', width: 7, value: (row) => num(row.rating), role: 'detail' },
  { key: 'review_count', width: 9, value: (row) => num(row.review_count), role: 'detail' },
  { key: 'business_types', width: 28, value: (row) => joinList(row.business_types), role: 'detail' },
  { key: 'google_maps_url', width: 30, value: (row) => text(row.google_maps_url), role: 'detail' },
  { key: 'working_hours', width: 40, value: (row, lang) => formatWorkingHours(row.working_hours, lang), role: 'detail' },
  { key: 'operational_state', width: 14, value: (row, lang) => businessStatusLabel(row.operational_state, lang), role: 'detail' },
  { key: 'description', width: 40, value: (row) => text(row.description), role: 'detail' },
]

/** A column before the preset picks: its role, and its CRM header and value when CRMs map it. */
interface CandidateColumn extends Column {
  role: ColumnRole
  crm: { header: string; value: Column['value'] } | null
}

function baseColumn(spec: ColumnSpec, lang: DownloadLang): CandidateColumn {
  const { crm, ...rest } = spec
  const value = (row: LeadExportRow) => spec.value(row, lang)
  return { ...rest, value, header: HEADER_LABELS[spec.key][lang], crm: crm ? { header: crm, value } : null }
}

/** A type's block: its value columns (with its role unless their own), then its status. */
function enrichmentBlock(entry: EnrichmentTypeEntry, lang: DownloadLang): CandidateColumn[] {
  const values = entry.fileColumns.map((column: EnrichmentFileColumn): CandidateColumn => {
    const crmValue = column.crm?.value ?? column.value
    return {
    key: column.key,
    header: column.header[lang],
    width: column.width,
    value: (row) => column.value(row, lang),
    role: column.role ?? entry.fileRole,
    crm: column.crm ? { header: column.crm.header, value: (row) => crmValue(row, lang) } : null,
  }
  })
  const status: CandidateColumn = {
    key: entry.statusColumn,
    header: entry.statusHeader[lang],
    width: 14,
    value: (row) =>
      (row[entry.statusColumn] === 'success' ? reusedStatus(row, entry.task, lang) : null) ??
      STATUS_LABELS[row[entry.statusColumn]]?.[lang] ??
      text(row[entry.statusColumn]),
    role: 'status',
    crm: null,
  }
  return [...values, status]
}

/** Where each lead comes from, in every preset (app/domain/lead-provenance.ts). */
function provenanceColumns(lang: DownloadLang, headerLang: DownloadLang): Column[] {
  return [
    { key: 'source', header: PROVENANCE_HEADERS.source[headerLang], width: 16, value: (row) => sourceName(row.source, lang) },
    { key: 'source_id', header: PROVENANCE_HEADERS.source_id[headerLang], width: 24, value: (row) => text(row.place_id) },
    { key: 'source_url', header: PROVENANCE_HEADERS.source_url[headerLang], width: 40, value: (row) => sourceUrl(row) },
  ]
}

const PROVENANCE_HEADERS = {
  source: { en: 'Source', fr: 'Source' },
  source_id: { en: 'Source ID', fr: 'Identifiant source' },
  source_url: { en: 'Source URL', fr: 'Lien source' },
} satisfies Record<string, FileLabel>

/** A column as the preset writes it: CRM columns under their CRM header and value. */
function presetColumn(column: CandidateColumn, preset: DownloadPreset): Column | null {
  const { key, header, width, value } = column
  if (preset !== 'crm') return PRESET_ROLES[preset].includes(column.role) ? { key, header, width, value } : null
  return column.crm ? { key, width, header: column.crm.header, value: column.crm.value } : null
}

/**
 * The columns of an export's file: those of the preset among the lead fields and a block per chosen
 * enrichment (stored options, SPEC §3), then the provenance columns. The CRM preset's headers are
 * English whatever the language: they are what the CRMs map.
 */
export function exportColumns(enrichmentOptions: unknown, lang: DownloadLang, preset: DownloadPreset = DEFAULT_DOWNLOAD_PRESET): Column[] {
  const options = normalizeEnrichmentOptions(enrichmentOptions)
  const chosen = ENRICHMENT_TABLE.filter((entry) => options[entry.key])
  const candidates = [...BASE.map((spec) => baseColumn(spec, lang)), ...chosen.flatMap((entry) => enrichmentBlock(entry, lang))]
  const kept = candidates.map((column) => presetColumn(column, preset)).filter((column): column is Column => column !== null)
  return [...(options.admin_fr_info ? withRegistryLabels(kept, lang) : kept), ...provenanceColumns(lang, preset === 'crm' ? 'en' : lang)]
}

/** Every column reads the registry match with its codes labelled in the file's language (once per row). */
function withRegistryLabels(columns: Column[], lang: DownloadLang): Column[] {
  const labelled = new WeakMap<LeadExportRow, LeadExportRow>()
  const rowOf = (row: LeadExportRow): LeadExportRow => {
    let readable = labelled.get(row)
    if (!readable) labelled.set(row, (readable = { ...row, admin_fr_info: readableRegistryInfo(row.admin_fr_info, lang) }))
    return readable
  }
  return columns.map((column) => ({ ...column, value: (row) => column.value(rowOf(row)) }))
}

const MATCH_HEADERS = {
  match: { en: 'Match', fr: 'Correspondance' },
  confidence: { en: 'Match confidence', fr: 'Confiance de la correspondance' },
} satisfies Record<string, FileLabel>

const MATCH_LABELS: Record<ListMatchKind | 'not_found', FileLabel> = {
  siret: { en: 'Found by SIRET', fr: 'Trouvé par SIRET' },
  siren: { en: 'Found by SIREN', fr: 'Trouvé par SIREN' },
  domain: { en: 'Found by website', fr: 'Trouvé par site web' },
  name: { en: 'Found by name and place', fr: 'Trouvé par nom et lieu' },
  not_found: { en: 'Not found', fr: 'Non trouvé' },
}

/** A row whose business an earlier row brought: it is enriched there, once. */
const SAME_COMPANY: FileLabel = { en: 'Same company as line {line}', fr: 'Même entreprise que la ligne {line}' }

function matchOf(row: LeadExportRow): Partial<ListMatchRecord> {
  return row.list_match && typeof row.list_match === 'object' ? (row.list_match as Partial<ListMatchRecord>) : {}
}

/**
 * A list's file: the user's own columns first, as uploaded (`headers`), then the export's, then how each row was
 * matched and how sure the match is (0–100 %).
 */
export function withListColumns(columns: Column[], headers: readonly string[], lang: DownloadLang): Column[] {
  const own = headers.map((header, i): Column => ({ key: `list_${i}`, header: header || `#${i + 1}`, width: 20, value: (row) => text(row.list_cells?.[i] ?? null) }))
  const match: Column[] = [
    {
      key: 'list_match',
      header: MATCH_HEADERS.match[lang],
      width: 22,
      value: (row) => {
        const { status, kind, sameAs } = matchOf(row)
        if (status === 'same_company') return SAME_COMPANY[lang].replace('{line}', String(sameAs ?? ''))
        return status === 'matched' && kind ? MATCH_LABELS[kind]?.[lang] ?? null : MATCH_LABELS.not_found[lang]
      },
    },
    {
      key: 'list_match_confidence',
      header: MATCH_HEADERS.confidence[lang],
      width: 12,
      value: (row) => {
        const { status, confidence } = matchOf(row)
        return status === 'matched' && typeof confidence === 'number' ? Math.round(confidence * 100) : null
      },
    },
  ]
  return [...own, ...columns, ...match]
}

/** One record, in column order. */
export function rowCells(columns: Column[], row: LeadExportRow): Cell[] {
  return columns.map((column) => column.value(row))
}
