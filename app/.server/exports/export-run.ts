/**
 * What one run of an export (processor.ts) is given, reads and gives back; shared by its phases.
 */
import type { Kysely } from 'kysely'
import type { Database, JsonObject } from '#app/.server/db.ts'
import { resolveCategory } from '#app/.server/search/preview.ts'
import { resolveCriteria, searchParamsOf, type LocationRefusal } from '#app/.server/search/resolve-criteria.ts'
import type { SearchParams, ResolvedCategory } from '#app/.server/sources/types.ts'
import type { LeadSource } from '#app/.server/sources/index.ts'
import type { RegistrySearchClient } from '#app/.server/registry/search.ts'
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
  /** A registry-first export's registry (default: REGISTRY_URL through the deployment's budget). */
  registry?: RegistrySearchClient
  /** Abort = stop now (shutdown, job lost): recorded work stays, the rest stays pending; the call rejects. */
  signal?: AbortSignal
  /** Abort = take no new lead, record the ones in flight, end `released` (a worker shutting down gracefully). */
  drain?: AbortSignal
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

/**
 * `batched`: the run handed its enrichment to batch jobs; `partial`: a batch finished its range while others still
 * run; `released`: a draining batch stopped early, its leads left pending for another worker.
 */
type ProcessOutcome = 'completed' | 'interrupted' | 'failed' | 'deleted' | 'skipped' | 'batched' | 'partial' | 'released'

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

export interface ExportSearch {
  params: SearchParams
  category: ResolvedCategory | null
  countryCode: string | null
}

/**
 * The search the export was created with, resolved again like any request (resolve-criteria.ts): a stored search
 * whose names and code disagree (an export made before the check) is refused, never searched.
 */
export function exportSearch(row: ExportRow): ({ ok: true } & ExportSearch) | LocationRefusal {
  const params = row.search_params ?? {}
  const lang = isLanguage(params.lang) ? params.lang : 'fr'
  const resolution = resolveCriteria(storedSearchCriteria(row))
  if (!resolution.ok) return resolution
  const { criteria } = resolution
  return { ok: true, params: searchParamsOf(criteria, lang), category: resolveCategory(criteria.sector, lang), countryCode: criteria.location.countryCode ?? null }
}

/** The search fields an export stored (search_params, else the export's own columns), as sent. */
export function storedSearchCriteria(row: { search_params: Record<string, unknown> | null } & Pick<ExportRow, 'country' | 'region' | 'department' | 'city'>) {
  const params = row.search_params ?? {}
  const text = (key: string, column?: string | null) => str(params[key]) || column || ''
  const countryCode = str(params.countryCode)
  return {
    sector: text('sector'),
    country: text('country', row.country),
    ...(countryCode ? { countryCode } : {}),
    region: text('region', row.region),
    department: text('department', row.department),
    city: text('city', row.city),
  }
}

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
