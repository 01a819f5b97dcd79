/**
 * What one run of an export (processor.ts) is given, reads and gives back; shared by its phases.
 */
import type { Kysely } from 'kysely'
import type { Database, JsonObject } from '#app/.server/db.ts'
import { resolveCategory } from '#app/.server/search/preview.ts'
import { countryCodeOf } from '#app/.server/search/locations.ts'
import type { LeadSource } from '#app/.server/sources/index.ts'
import { ENRICHMENT } from '#app/domain/enrichment-types.ts'
import { normalizeEnrichmentOptions, selectedTypes } from '#app/domain/enrichment.ts'
import { isLanguage } from '#app/i18n.ts'
import type { Enrichers, TaskType } from './enrichers.ts'
import type { LeadGateFactory } from './lead-gates.ts'

export interface ProcessOptions {
  enrichers: Enrichers
  db?: Kysely<Database>
  /** Default: getLeadSource() from the environment. */
  source?: LeadSource
  /** Abort = stop now (shutdown, job lost): recorded work stays, the rest stays pending; the call rejects. */
  signal?: AbortSignal
  log?: (message: string) => void
  /** Leads enriched at once (default EXPORT_CONCURRENCY). */
  concurrency?: number
  /** Lead cap of the search phase (default EXPORT_MAX_LEADS or 1000). */
  maxLeads?: number
  /** Days a paid enrichment is reused free and a stored result replaces a crawl (default ENRICHMENT_REUSE_DAYS). */
  reuseDays?: number
  /** Days a stored email's check stays good before a reuse verifies it again (default EMAIL_RECHECK_DAYS). */
  emailRecheckDays?: number
  /** Minimum time between two progress writes (default 250 ms). */
  progressIntervalMs?: number
  /**
   * Whether a retryable failure (source rate limit, timeout) should mark the export failed now (true, default)
   * or be thrown so the queue retries the run (false: the worker passes false while retries remain).
   */
  finalAttempt?: boolean
  /** Benchmark / test hook: a phase starts. */
  onPhase?: (phase: 'search' | 'enrichment') => void
  /** The lead gates to build (default: every gate of lead-gates.ts). */
  leadGates?: readonly LeadGateFactory[]
  /** Test hook: after each lead's outcomes are recorded. */
  onLeadRecorded?: (event: { leadId: string; charged: number; outOfCredits: boolean }) => void | Promise<void>
}

type ProcessOutcome = 'completed' | 'interrupted' | 'failed' | 'deleted' | 'skipped'

export interface ProcessResult {
  outcome: ProcessOutcome
  /** Leads linked to the export. */
  leads: number
  /** Leads this run enriched and recorded. */
  enrichedLeads: number
  /** Credits this run charged. */
  charged: number
}

export interface ExportRow {
  id: string
  user_id: string
  status: string
  search_status: string | null
  enrichment_status: string | null
  search_params: JsonObject | null
  enrichment_options: JsonObject | null
  country: string | null
  region: string | null
  department: string | null
  city: string | null
}

export const EXPORT_ROW_COLUMNS = [
  'id',
  'user_id',
  'status',
  'search_status',
  'enrichment_status',
  'search_params',
  'enrichment_options',
  'country',
  'region',
  'department',
  'city',
] as const

function str(value: unknown): string {
  return typeof value === 'string' ? value.trim() : ''
}

/** The search the export was created with: source parameters, the resolved category, the country code. */
export function exportSearch(row: ExportRow) {
  const params = row.search_params ?? {}
  const country = str(params.country) || row.country || ''
  const lang = isLanguage(params.lang) ? params.lang : 'fr'
  const countryCode = countryCodeOf(country, str(params.countryCode) || null)
  const sector = str(params.sector)
  return {
    params: {
      sector: sector || undefined,
      country: country || undefined,
      countryCode: countryCode || undefined,
      region: str(params.region) || row.region || undefined,
      department: str(params.department) || row.department || undefined,
      city: str(params.city) || row.city || undefined,
      lang,
    },
    category: resolveCategory(sector, lang),
    countryCode: countryCode ? countryCode.toUpperCase() : null,
  }
}
export type ExportSearch = ReturnType<typeof exportSearch>

/** The tasks of the types chosen on the export. */
export function chosenTaskTypes(enrichmentOptions: unknown): TaskType[] {
  return selectedTypes(normalizeEnrichmentOptions(enrichmentOptions)).map((type) => ENRICHMENT[type].task)
}

export async function exportExists(db: Kysely<Database>, exportId: string): Promise<boolean> {
  const found = await db.selectFrom('exports').select('id').where('id', '=', exportId).executeTakeFirst()
  return Boolean(found)
}

export function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError')
}
