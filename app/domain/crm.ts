// Pushing leads into a CRM (issue 30): the providers, the fields a lead gives them, the key that deduplicates a
// company across pushes, and the per-connection mapping. Pure: the push job, the settings page, the API and the
// tests read these rules; each provider's adapter (app/.server/integrations/providers/) only translates a CrmRecord
// into its API's shapes.
import { z } from 'zod'
import type { ApiLead } from './api-lead.ts'
import { websiteDomain } from './website-domain.ts'
import { SOCIAL_NETWORKS } from './lead-file-values.ts'
import { CRM_PROVIDERS, type CrmProvider } from './crm-providers.ts'

export { CRM_PROVIDERS, CRM_PROVIDER_NAMES, isCrmProvider, type CrmProvider } from './crm-providers.ts'

/** The company fields a lead gives a CRM, in the order the mapping editor lists them. */
export const CRM_FIELDS = [
  'name',
  'address',
  'city',
  'postal_code',
  'country_code',
  'phone',
  'website',
  'domain',
  'siren',
  'siret',
  'naf_code',
  'headcount',
  'rating',
  ...SOCIAL_NETWORKS,
  'technologies',
  'provenance',
  'leadatlas_id',
] as const
export type CrmField = (typeof CRM_FIELDS)[number]

/**
 * What a push does with a field: `overwrite` writes LeadAtlas's value; `fill_empty` writes it only where the CRM has
 * none (a value a salesperson typed in the CRM is never replaced); `skip` never sends it.
 */
export const CRM_FIELD_MODES = ['overwrite', 'fill_empty', 'skip'] as const
type CrmFieldMode = (typeof CRM_FIELD_MODES)[number]

/** Fields whose value is the record's identity: always written, whatever the mapping says. */
export const CRM_KEY_FIELDS: ReadonlySet<CrmField> = new Set(['leadatlas_id'])

export type CrmMapping = Record<CrmField, CrmFieldMode>

/** A new connection's mapping: everything written, contact details filled only where the CRM has nothing. */
export const DEFAULT_CRM_MAPPING: CrmMapping = Object.fromEntries(
  CRM_FIELDS.map((field) => [field, field === 'phone' || field === 'website' || field === 'address' ? 'fill_empty' : 'overwrite']),
) as CrmMapping

const CrmMappingSchema = z
  .object(Object.fromEntries(CRM_FIELDS.map((field) => [field, z.enum(CRM_FIELD_MODES)])) as Record<CrmField, z.ZodEnum<{ [K in CrmFieldMode]: K }>>)
  .strict()

/** A stored mapping read leniently: unknown fields dropped, missing or invalid ones at their default (fields are added over time). */
export function readCrmMapping(stored: unknown): CrmMapping {
  const source = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {}
  return Object.fromEntries(
    CRM_FIELDS.map((field) => {
      const mode = source[field]
      return [field, typeof mode === 'string' && (CRM_FIELD_MODES as readonly string[]).includes(mode) ? mode : DEFAULT_CRM_MAPPING[field]]
    }),
  ) as CrmMapping
}

/** A person of the company: one per email address the lead has (a CRM's contacts are people, keyed by email). */
interface CrmContact {
  email: string
  /** valid, risky or unverified (invalid addresses never reach an export). */
  quality: string | null
}

export type CrmValues = Partial<Record<CrmField, string>>

/** One lead as every CRM receives it: the company's values (only non-empty ones), its contacts and its dedupe key. */
export interface CrmRecord {
  leadId: string
  /** `siret:…`, `siren:…`, `domain:…` or `id:…`: the first of `aliases`, the one a new record is created under. */
  key: string
  /**
   * Every key this business can be known by, best first: a record created under `domain:…` by an export without
   * registry data is found again by a later one that knows the SIRET.
   */
  aliases: string[]
  /** The CRM's id of the record when an earlier push made it (crm_records): updated by id, never searched again. */
  remoteId: string | null
  company: CrmValues
  contacts: CrmContact[]
}

/**
 * The key a CRM record is found again by: the establishment's SIRET, else the company's SIREN, else the website's
 * domain, else the LeadAtlas id. The same business pushed from two exports (or twice) finds the same record.
 */
export function dedupeKeys(lead: Pick<ApiLead, 'id' | 'website' | 'enrichments'>): string[] {
  const registry = lead.enrichments.admin_fr_info
  const domain = lead.website ? websiteDomain(lead.website) : null
  return [registry?.siret && `siret:${registry.siret}`, registry?.siren && `siren:${registry.siren}`, domain && `domain:${domain}`, `id:${lead.id}`].filter(
    (key): key is string => Boolean(key),
  )
}

function technologyList(technologies: Record<string, string[]> | undefined): string | undefined {
  const names = [...new Set(Object.values(technologies ?? {}).flat())].sort((a, b) => a.localeCompare(b))
  return names.length ? names.join(', ') : undefined
}

/** Where the lead came from and where its emails were read (the CNIL expects a prospecting file to say). */
function provenance(lead: ApiLead): string {
  const pages = (lead.enrichments.email?.email ?? []).map((email) => email.source.page).filter((page): page is string => Boolean(page))
  const origin = lead.source_url ? `${lead.source} (${lead.source_url})` : lead.source
  return [`LeadAtlas — source: ${origin}`, ...[...new Set(pages)].map((page) => `found on: ${page}`)].join('\n')
}

function present(value: string | number | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined
  const text = String(value).trim()
  return text ? text : undefined
}

/** The record of one lead as the API reads it: phones in E.164 when they can be read so, only values that exist. */
export function toCrmRecord(lead: ApiLead): CrmRecord {
  const registry = lead.enrichments.admin_fr_info
  const social = lead.enrichments.social
  const values: Record<CrmField, string | undefined> = {
    name: present(lead.name),
    address: present(lead.full_address),
    city: present(lead.city),
    postal_code: present(lead.postal_code),
    country_code: present(lead.country_code),
    phone: present(lead.phone_e164 ?? lead.phone),
    website: present(lead.website),
    domain: present(lead.website ? websiteDomain(lead.website) : null),
    siren: present(registry?.siren),
    siret: present(registry?.siret),
    naf_code: present(registry?.naf_code),
    headcount: present(registry?.headcount),
    rating: present(lead.rating),
    facebook: present(social?.facebook),
    linkedin: present(social?.linkedin),
    twitter: present(social?.twitter),
    instagram: present(social?.instagram),
    tiktok: present(social?.tiktok),
    technologies: technologyList(lead.enrichments.technologies?.technologies),
    provenance: provenance(lead),
    leadatlas_id: lead.id,
  }
  const company = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as CrmValues
  const contacts = (lead.enrichments.email?.email ?? []).map((email) => ({ email: email.address.toLowerCase(), quality: email.quality?.status ?? null }))
  const aliases = dedupeKeys(lead)
  return { leadId: lead.id, key: aliases[0]!, aliases, remoteId: null, company, contacts }
}

/**
 * The values to send for a record already in the CRM (`existing`: its current values by field, empty when it is
 * new): overwrite fields always, fill_empty fields only where the CRM has nothing, skipped fields never.
 */
export function valuesToWrite(record: CrmRecord, mapping: CrmMapping, existing: CrmValues = {}): CrmValues {
  const out: CrmValues = {}
  for (const field of CRM_FIELDS) {
    const value = record.company[field]
    if (value === undefined) continue
    const mode = CRM_KEY_FIELDS.has(field) ? 'overwrite' : mapping[field]
    if (mode === 'skip') continue
    if (mode === 'fill_empty' && present(existing[field]) !== undefined) continue
    out[field] = value
  }
  return out
}

/** Whether writing `values` would change anything in `existing` (an unchanged record is reported as skipped). */
export function changesAnything(values: CrmValues, existing: CrmValues): boolean {
  return Object.entries(values).some(([field, value]) => present(existing[field as CrmField]) !== value)
}

/** What a push did with one lead. */
export const CRM_ROW_OUTCOMES = ['created', 'updated', 'skipped', 'failed'] as const
export type CrmRowOutcome = (typeof CRM_ROW_OUTCOMES)[number]

export interface CrmRowResult {
  leadId: string
  outcome: CrmRowOutcome
  /** The CRM's id of the company (or row), when it has one. */
  remoteId: string | null
  /** Why it was skipped or failed: the CRM's own words for a failure. */
  reason: string | null
}

export const CRM_PUSH_STATUSES = ['queued', 'running', 'completed', 'failed'] as const
export type CrmPushStatus = (typeof CRM_PUSH_STATUSES)[number]

type CrmPushCounts = Record<CrmRowOutcome, number>

/** Connections per workspace: a team needs one per CRM account, a few at most. */
export const MAX_CRM_CONNECTIONS = 10
export const CRM_LABEL_MAX = 80
/** A pasted secret: a token is short; a Google service-account file is a few KB. */
const CRM_SECRET_MAX = 16_000
/** Leads one push may name (the rest of a large export: push all). */
const CRM_PUSH_MAX_SELECTED = 10_000
/** Connections one saved search may push each run to. */
export const MAX_SAVED_SEARCH_PUSHES = 4

const GOOGLE_SHEET_ID = /^[A-Za-z0-9_-]{20,100}$/

/** A spreadsheet's id from its URL (`…/spreadsheets/d/<id>/edit`) or the id itself; null when neither. */
export function spreadsheetIdOf(text: string): string | null {
  const trimmed = text.trim()
  const fromUrl = /\/spreadsheets\/d\/([A-Za-z0-9_-]+)/.exec(trimmed)?.[1]
  const id = fromUrl ?? trimmed
  return GOOGLE_SHEET_ID.test(id) ? id : null
}

const connectionId = z.uuid({ error: 'integrations.errors.notFound' })

const connectFields = {
  provider: z.enum(CRM_PROVIDERS, { error: 'integrations.errors.providerInvalid' }),
  label: z
    .string({ error: 'integrations.errors.labelRequired' })
    .trim()
    .min(1, 'integrations.errors.labelRequired')
    .max(CRM_LABEL_MAX, 'integrations.errors.labelTooLong')
    .meta({ description: 'A name for the connection.', example: 'Sales HubSpot' }),
  secret: z
    .string({ error: 'integrations.errors.secretRequired' })
    .trim()
    .min(1, 'integrations.errors.secretRequired')
    .max(CRM_SECRET_MAX, 'integrations.errors.secretInvalid')
    .meta({ description: 'The token or API key; for Google Sheets the service account JSON file.', example: 'pat-eu1-4f2a9c1e-7b3d-4e8a-9c55-0d2f4b8a1e77' }),
  spreadsheet: z.string().trim().max(500).optional(),
}

function spreadsheetForSheets(value: { provider: CrmProvider; spreadsheet?: string | undefined }, ctx: z.RefinementCtx) {
  if (value.provider !== 'sheets') return
  if (!value.spreadsheet || !spreadsheetIdOf(value.spreadsheet)) ctx.addIssue({ code: 'custom', path: ['spreadsheet'], message: 'integrations.errors.spreadsheetInvalid' })
}

/** A connection's fields: the settings page's connect form and the API's body. */
export const CrmConnectFieldsSchema = z.object(connectFields).strict().superRefine(spreadsheetForSheets)
export const CrmConnectSchema = z.object({ intent: z.literal('connect'), ...connectFields }).superRefine(spreadsheetForSheets)

/** The CRMs that may be connected by OAuth when the deployment has an app for them (Brevo has keys only). */
const CRM_OAUTH_PROVIDERS = ['hubspot', 'pipedrive', 'sheets'] as const

/** "Connect with HubSpot/Pipedrive/Google": the same fields but the credential, which the CRM hands over. */
export const CrmOAuthStartSchema = z
  .object({
    intent: z.literal('oauth'),
    provider: z.enum(CRM_OAUTH_PROVIDERS, { error: 'integrations.errors.providerInvalid' }),
    label: connectFields.label,
    spreadsheet: connectFields.spreadsheet,
  })
  .superRefine(spreadsheetForSheets)

/** The mapping form: one `mapping.<field>` select per field. */
const CrmMappingFormSchema = z.object({ intent: z.literal('mapping'), connectionId, mapping: CrmMappingSchema })

/** Every form of /settings/integrations, by intent (conform in the browser, the action on the server). */
export const CrmConnectionCommandSchema = z.discriminatedUnion('intent', [
  CrmConnectSchema,
  CrmOAuthStartSchema,
  CrmMappingFormSchema,
  z.object({ intent: z.literal('test'), connectionId }),
  z.object({ intent: z.literal('disconnect'), connectionId }),
])
export type CrmConnectionCommand = z.output<typeof CrmConnectionCommandSchema>

const pushLeadIds = z.array(z.uuid({ error: 'integrations.errors.leadInvalid' })).max(CRM_PUSH_MAX_SELECTED, 'integrations.errors.tooManyLeads')

/** A push of an export's leads: every lead, or those chosen (the export page's ticks, the API's lead_ids). */
export interface CrmPushInput {
  connectionId: string
  leadIds?: string[] | undefined
}

/** The API's body of a push (POST /exports/{id}/crm-pushes). */
export const CrmPushBodySchema = z.object({ connection_id: connectionId, lead_ids: pushLeadIds.min(1).optional() }).strict()


/** A connection as the settings page, the export page and the API show it (never its secret). */
export interface CrmConnectionView {
  id: string
  provider: CrmProvider
  label: string
  secretHint: string
  mapping: CrmMapping
  /** What the adapter knows of the CRM side, shown (the spreadsheet). */
  spreadsheetId: string | null
  lastError: string | null
  lastCheckedAt: string | null
  optOutsSyncedAt: string | null
  createdAt: string
}

/** Providers that report opt-outs back (HubSpot's email opt-out, Brevo's blacklist). */
export const CRM_OPT_OUT_PROVIDERS: ReadonlySet<CrmProvider> = new Set(['hubspot', 'brevo'])

export interface CrmPushView {
  id: string
  connectionId: string
  provider: CrmProvider | null
  connectionLabel: string | null
  exportId: string
  status: CrmPushStatus
  total: number
  counts: CrmPushCounts
  error: string | null
  createdAt: string
  finishedAt: string | null
}

export interface CrmPushItemView {
  leadId: string
  name: string
  outcome: CrmRowOutcome
  remoteId: string | null
  reason: string | null
}

/** The export page's push form: a connection, and every lead or the ones ticked. */
export const CrmPushFormSchema = z
  .object({
    connectionId,
    scope: z.enum(['all', 'selected'], { error: 'integrations.errors.scopeInvalid' }),
    leadIds: pushLeadIds.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.scope === 'selected' && !value.leadIds?.length) ctx.addIssue({ code: 'custom', path: ['leadIds'], message: 'integrations.errors.noLeadSelected' })
  })

/** Leads listed per page of the push form and of a push's report. */
export const CRM_PUSH_PAGE_SIZE = 25

/** A lead as the push form lists it, to tick. */
export interface PushableLead {
  id: string
  name: string
  city: string | null
  website: string | null
}
