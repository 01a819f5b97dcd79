// What the database cannot describe to kysely-codegen: the value sets of `text ... check (x in (...))`
// columns and the shape of jsonb documents (SPEC §3). scripts/db-types.ts maps columns to these names;
// keep each union equal to its SQL check constraint.
import type { JsonObject, JsonValue } from './schema.generated.ts'

// users.download_preset: the domain's list, which the SQL check repeats.
export type { DownloadPreset } from '#app/domain/download-presets.ts'
import type { PhoneType } from '#app/domain/phone-sources.ts'

export type EnrichmentStatus = 'not_required' | 'pending' | 'success' | 'not_found' | 'failed'
export type ExportStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'interrupted'
export type SubscriptionStatus = 'active' | 'canceling' | 'canceled' | 'incomplete' | 'past_due'
export type CreditReason = 'free_trial' | 'subscription_reload' | 'enrichment' | 'adjustment'
export type BillingFrequency = 'monthly' | 'annual'
export type BillingPlanId = 'basic' | 'professional' | 'premium'
export type BillingEventSource = 'stripe' | 'sandbox'
export type SandboxSubscriptionStatus = 'active' | 'canceled'

// jsonb documents. Extra keys are allowed.

/** exports.excluded: businesses an export left out before enrichment, by reason (lead-gates.ts). */
export type ExclusionCounts = Record<string, number>

/** As the export was created; read back through resolveCriteria like any request (stored is not trusted). */
export type SearchParamsJson = JsonObject &
  Partial<Record<'sector' | 'country' | 'countryCode' | 'region' | 'department' | 'city' | 'lang', string>> & {
    /** The user's own cap on the export's leads (search-phase cap). */
    maxLeads?: number
    /** The search filters (search-filters.ts), when any narrows the search. */
    filters?: JsonObject
    /** "Only new businesses": leave out those already in another export of the user (lead gate already_exported). */
    onlyNew?: boolean
  }

/** On a stored export, `social` may be an object: it counts as true when any value is true. */
export type EnrichmentOptionsJson = JsonObject & {
  phone?: boolean
  website?: boolean
  technologies?: boolean
  email?: boolean
  social?: boolean | { [network: string]: boolean }
  admin_fr_info?: boolean
}

/** leads.technologies: category -> value or list of values. */
export type TechnologiesJson = { [category: string]: string | string[] }
/** leads.social_media: network -> URL. */
export type SocialMediaJson = { [network: string]: string }
/** leads.admin_fr_info: the registry match; has a `results` list. */
export type AdminFrInfoJson = JsonObject & { results?: JsonValue[] }
/** leads.email_sources: email -> where it was found (page URL; null when the lead source listed it) and when. */
/**
 * `check`: its verification (app/domain/email-quality.ts), absent for emails found before verification existed;
 * `checked_at` its date (absent: checked when found), renewed when a reused address is verified again.
 */
export type EmailSourcesJson = {
  [email: string]: {
    page: string | null
    found_at: string
    check?: { status: 'valid' | 'risky' | 'unverified' | 'invalid'; reason?: string; role: boolean; webmail: boolean; checked_at?: string }
  }
}
/** leads.phone_sources: every business number, its line type, page and rank (app/domain/phone-sources.ts). */
export type PhoneSourcesJson = { [number: string]: { type: PhoneType; page: string | null; rank: number } }
/** export_leads.reused: task -> date of the user's earlier purchase this export reused for free. */
export type ReusedMarks = { [task: string]: string }
