// The enrichment types (SPEC §3, §4 Enrichment toggles, §7 download): one entry per type, and every list of the
// types in the app (toggles, pipeline tasks, status columns, read models, download columns) is derived from it.
// A new type is a new entry here, its enricher (app/.server/exports/enrichers.ts), a migration adding its two
// columns (leads.<task>, export_leads.<task>_status: public.record_lead_enrichment reads them by that convention)
// and its locale strings. Pure: shared by client and server.
import type { ColumnRole } from './download-presets.ts'
import { formatEmailChecks } from './email-quality.ts'
import type { FileLabel, FileLang } from './file-language.ts'
import { formatOtherPhones, mainPhoneType, otherMobile, phoneTypeLabel } from './phone-sources.ts'
import { adminFrField, firstOfList, formatEmailSources, formatTechnologies, joinList, socialUrl, SOCIAL_NETWORKS, type AdminFrFields, type Cell } from './lead-file-values.ts'

export type { FileLabel, FileLang }

/** A row of the download query: lead columns and export_leads status columns, by name. */
type LeadRowValues = Readonly<Record<string, unknown>>

export interface EnrichmentFileColumn {
  key: string
  header: FileLabel
  /** Excel column width, in characters. */
  width: number
  /** Its cell, written in the file's language. */
  value: (row: LeadRowValues, lang: FileLang) => Cell
  /** Its role when not its entry's fileRole (download presets, app/domain/download-presets.ts). */
  role?: ColumnRole
  /** In the "CRM import" preset, under this header (English: what HubSpot and Pipedrive map), with this value when not `value`. */
  crm?: { header: string; value?: (row: LeadRowValues, lang: FileLang) => Cell }
}

interface EnrichmentTypeSpec {
  /** The option key users submit and exports.enrichment_options stores. */
  key: string
  /** The pipeline task name: the key of public.record_lead_enrichment's outcomes and values. */
  task: string
  /** Its column in export_leads. */
  statusColumn: string
  /** The leads columns it fills: leads.<task>, and leads.<task>_sources for its provenance when it has one. */
  leadColumns: readonly string[]
  labelKey: string
  /** A line under the toggle, or null. */
  hintKey: string | null
  /** Another type it cannot go without (switched off with it), or null. */
  needs: string | null
  /** Offered only for exports in France (registry data exists nowhere else). */
  franceOnly: boolean
  /** Its value columns in the downloaded file, written before its status column. */
  fileColumns: readonly EnrichmentFileColumn[]
  /** What its file columns are for, unless a column says otherwise: the download presets keep columns by role. */
  fileRole: ColumnRole
  statusHeader: FileLabel
  /** The share of its tasks expected to succeed before this product has observed any (README "Cost estimate"). */
  defaultFillRate: number
  /** One line saying what counts as a success, i.e. what a credit buys. */
  successKey: string
}

function registryColumn(key: keyof AdminFrFields, header: FileLabel, width: number): EnrichmentFileColumn {
  return { key, header, width, value: (row) => adminFrField(row, key) }
}

/** HubSpot's company properties for the networks it has one for (Pipedrive has none: they import as custom fields). */
const SOCIAL_CRM_HEADERS: Partial<Record<(typeof SOCIAL_NETWORKS)[number], string>> = {
  facebook: 'Facebook Company Page',
  linkedin: 'LinkedIn Company Page',
}

const SOCIAL_HEADERS: Record<(typeof SOCIAL_NETWORKS)[number], string> = {
  facebook: 'Facebook',
  linkedin: 'LinkedIn',
  twitter: 'X (Twitter)',
  instagram: 'Instagram',
  tiktok: 'TikTok',
}

/** In the order of the toggles and of the blocks of the downloaded file. */
export const ENRICHMENT_TABLE = [
  {
    key: 'phone',
    task: 'phone',
    statusColumn: 'phone_status',
    // phone: the main number (already a file column); phone_sources: every number with its type and page.
    leadColumns: ['phone', 'phone_sources'],
    labelKey: 'exports.options.phone',
    hintKey: null,
    needs: null,
    franceOnly: false,
    fileColumns: [
      { key: 'phone_type', header: { en: 'Phone type', fr: 'Type de téléphone' }, width: 12, value: (row, lang) => phoneTypeLabel(mainPhoneType(row.phone, row.phone_sources), lang) },
      {
        key: 'other_phones',
        header: { en: 'Other phones', fr: 'Autres téléphones' },
        width: 40,
        value: (row, lang) => formatOtherPhones(row.phone, row.phone_sources, lang),
        // HubSpot's contact property for a second line: the first other number that is a mobile.
        crm: { header: 'Mobile Phone Number', value: (row) => otherMobile(row.phone, row.phone_sources) },
      },
    ],
    fileRole: 'contact',
    statusHeader: { en: 'Phone enrichment status', fr: 'Statut enrichissement téléphone' },
    defaultFillRate: 0.8,
    successKey: 'exports.modal.success.phone',
  },
  {
    key: 'website',
    task: 'website',
    statusColumn: 'website_status',
    leadColumns: ['website'],
    labelKey: 'exports.options.website',
    hintKey: null,
    needs: null,
    franceOnly: false,
    fileColumns: [],
    fileRole: 'contact',
    statusHeader: { en: 'Website enrichment status', fr: 'Statut enrichissement site web' },
    defaultFillRate: 0.6,
    successKey: 'exports.modal.success.website',
  },
  {
    key: 'email',
    task: 'email',
    statusColumn: 'email_status',
    // email_sources: where each email was found and when (provenance, written with the emails).
    leadColumns: ['email', 'email_sources'],
    labelKey: 'exports.options.email',
    hintKey: null,
    needs: null,
    franceOnly: false,
    fileColumns: [
      {
        key: 'email',
        header: { en: 'Emails', fr: 'E-mails' },
        width: 32,
        value: (row) => joinList(row.email),
        // CRMs take one address per cell: the first found (the best guess, see app/.server/enrichment).
        crm: { header: 'Email', value: (row) => firstOfList(row.email) },
      },
      {
        key: 'email_sources',
        header: { en: 'Email sources', fr: 'Sources des e-mails' },
        width: 48,
        value: (row) => formatEmailSources(row.email, row.email_sources),
      },
      {
        // The verification of each address (app/domain/email-quality.ts), stored in leads.email_sources[email].check.
        key: 'email_checks',
        header: { en: 'Email status', fr: 'Statut des e-mails' },
        width: 40,
        value: (row, lang) => formatEmailChecks(row.email, row.email_sources, lang),
      },
    ],
    fileRole: 'contact',
    statusHeader: { en: 'Email enrichment status', fr: 'Statut enrichissement e-mail' },
    // Only verified (valid or risky) addresses count: README "Cost estimate" has the measurement behind it.
    defaultFillRate: 0.45,
    successKey: 'exports.modal.success.email',
  },
  {
    key: 'technologies',
    task: 'technologies',
    statusColumn: 'technologies_status',
    leadColumns: ['technologies'],
    labelKey: 'exports.options.technologies',
    hintKey: 'exports.modal.technologiesHint',
    // Technologies are detected on the website the website enrichment crawls.
    needs: 'website',
    franceOnly: false,
    fileColumns: [
      { key: 'technologies', header: { en: 'Technologies', fr: 'Technologies' }, width: 40, value: (row, lang) => formatTechnologies(row.technologies, lang) },
    ],
    fileRole: 'detail',
    statusHeader: { en: 'Technologies enrichment status', fr: 'Statut enrichissement technologies' },
    defaultFillRate: 0.55,
    successKey: 'exports.modal.success.technologies',
  },
  {
    key: 'social',
    // The spec names the task and its columns social_media.
    task: 'social_media',
    statusColumn: 'social_media_status',
    leadColumns: ['social_media'],
    labelKey: 'exports.options.social',
    hintKey: null,
    needs: null,
    franceOnly: false,
    fileColumns: SOCIAL_NETWORKS.map(
      (network): EnrichmentFileColumn => ({
        key: network,
        header: { en: SOCIAL_HEADERS[network], fr: SOCIAL_HEADERS[network] },
        width: 30,
        value: (row) => socialUrl(row.social_media, network),
        ...(SOCIAL_CRM_HEADERS[network] ? { crm: { header: SOCIAL_CRM_HEADERS[network] } } : {}),
      }),
    ),
    fileRole: 'contact',
    statusHeader: { en: 'Social media enrichment status', fr: 'Statut enrichissement réseaux sociaux' },
    defaultFillRate: 0.4,
    successKey: 'exports.modal.success.social',
  },
  {
    key: 'admin_fr_info',
    task: 'admin_fr_info',
    statusColumn: 'admin_fr_info_status',
    leadColumns: ['admin_fr_info'],
    labelKey: 'exports.options.admin_fr_info',
    hintKey: 'exports.modal.adminHint',
    needs: null,
    franceOnly: true,
    fileColumns: [
      registryColumn('siren', { en: 'SIREN', fr: 'SIREN' }, 11),
      registryColumn('siret', { en: 'SIRET', fr: 'SIRET' }, 16),
      registryColumn('legal_name', { en: 'Legal name', fr: 'Raison sociale' }, 30),
      registryColumn('naf_code', { en: 'NAF code', fr: 'Code NAF' }, 9),
      registryColumn('legal_category', { en: 'Legal category', fr: 'Catégorie juridique' }, 10),
      registryColumn('headcount_band', { en: 'Headcount band', fr: "Tranche d'effectif" }, 10),
      registryColumn('creation_date', { en: 'Creation date', fr: 'Date de création' }, 12),
      registryColumn('match_confidence', { en: 'Match confidence', fr: 'Indice de confiance' }, 10),
      registryColumn('naf_label', { en: 'Activity (NAF label)', fr: 'Activité (libellé NAF)' }, 40),
      registryColumn('legal_form', { en: 'Legal form', fr: 'Forme juridique' }, 30),
      registryColumn('headcount', { en: 'Headcount', fr: 'Effectif salarié' }, 18),
      registryColumn('administrative_state', { en: 'Administrative state', fr: 'État administratif' }, 12),
      registryColumn('head_office_address', { en: 'Head office address', fr: 'Adresse du siège' }, 40),
      registryColumn('directors', { en: 'Directors', fr: 'Dirigeants' }, 40),
      registryColumn('matched_by', { en: 'Identified by', fr: 'Identifié par' }, 28),
      registryColumn('id_source_page', { en: 'SIREN/SIRET page', fr: 'Page SIREN/SIRET' }, 40),
      registryColumn('risk', { en: 'Risk (BODACC)', fr: 'Risque (BODACC)' }, 24),
      registryColumn('risk_date', { en: 'Risk date', fr: 'Date du risque' }, 12),
      registryColumn('risk_tribunal', { en: 'Court', fr: 'Tribunal' }, 30),
      registryColumn('risk_announcement', { en: 'BODACC announcement', fr: 'Annonce BODACC' }, 40),
    ],
    fileRole: 'detail',
    statusHeader: { en: 'Company registry enrichment status', fr: 'Statut enrichissement données légales' },
    defaultFillRate: 0.7,
    successKey: 'exports.modal.success.admin_fr_info',
  },
] as const satisfies readonly EnrichmentTypeSpec[]

export type EnrichmentTypeEntry = (typeof ENRICHMENT_TABLE)[number]
export type EnrichmentType = EnrichmentTypeEntry['key']
export type EnrichmentTask = EnrichmentTypeEntry['task']
export type EnrichmentStatusColumn = EnrichmentTypeEntry['statusColumn']
export type EnrichedLeadColumn = EnrichmentTypeEntry['leadColumns'][number]

// Compile-time check: `needs` names a type of the table.
true satisfies Exclude<EnrichmentTypeEntry['needs'], null> extends EnrichmentType ? true : false

export const ENRICHMENT_TYPES: readonly EnrichmentType[] = ENRICHMENT_TABLE.map((entry) => entry.key)
export const STATUS_COLUMNS: readonly EnrichmentStatusColumn[] = ENRICHMENT_TABLE.map((entry) => entry.statusColumn)
/** Every leads column some enrichment fills, once each. */
export const ENRICHED_LEAD_COLUMNS: readonly EnrichedLeadColumn[] = [...new Set(ENRICHMENT_TABLE.flatMap((entry) => entry.leadColumns))]

/** The entry of one option key. */
export const ENRICHMENT: { readonly [K in EnrichmentType]: Extract<EnrichmentTypeEntry, { key: K }> } = Object.fromEntries(
  ENRICHMENT_TABLE.map((entry) => [entry.key, entry]),
) as never

/** The export_leads status column of each option. */
export const STATUS_COLUMN = Object.fromEntries(ENRICHMENT_TABLE.map((entry) => [entry.key, entry.statusColumn])) as Record<
  EnrichmentType,
  EnrichmentStatusColumn
>

