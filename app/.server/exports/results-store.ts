/**
 * The account-wide store of enrichment results (public.enrichment_results): what was found for a business (source +
 * place id) and type, and when. A result fresher than the reuse window stands in for a new crawl, whichever user's
 * export found it; each user still pays for it once (public.record_lead_enrichment decides, from their purchases).
 */
import { sql, type Kysely } from 'kysely'
import type { Database, JsonObject } from '#app/.server/db.ts'
import { ENRICHMENT_TABLE } from '#app/domain/enrichment-types.ts'
import { enrichLead, givesNothing, storable, type LeadEnrichmentContext, type LeadEnrichmentResult, type TaskOutcome, type TaskType } from './enrichers.ts'
import { recheckStoredEmails } from './email-recheck.ts'
import { leadForEnrichment, type PendingLead } from './pending-leads.ts'

type Values = LeadEnrichmentResult['values']

const LEAD_COLUMNS_OF: ReadonlyMap<string, readonly string[]> = new Map(ENRICHMENT_TABLE.map((entry) => [entry.task, entry.leadColumns]))

interface Business {
  source: string
  place_id: string | null
}

type StoreContext = LeadEnrichmentContext & {
  /** Days a stored result stands in for a crawl (ENRICHMENT_REUSE_DAYS). */
  reuseDays: number
  /** Days a stored email's check stays good (EMAIL_RECHECK_DAYS); older ones are verified again. */
  recheckDays: number
}

/** The stored successes of one business for `tasks`, found less than `reuseDays` days ago. */
async function freshResults(db: Kysely<Database>, business: Business, tasks: readonly TaskType[], reuseDays: number) {
  if (!business.place_id || tasks.length === 0 || reuseDays <= 0) return []
  return db
    .selectFrom('enrichment_results')
    .select(['task', 'value'])
    .where('source', '=', business.source)
    .where('place_id', '=', business.place_id)
    .where('task', 'in', tasks)
    .where('found_at', '>', sql<Date>`now() - make_interval(days => ${reuseDays}::integer)`)
    .execute()
}

/** Keeps this run's successes for the next export, dated now. Data Postgres refuses is simply not kept. */
async function storeResults(db: Kysely<Database>, business: Business, result: LeadEnrichmentResult): Promise<void> {
  const placeId = business.place_id
  if (!placeId) return
  const values = result.values as Record<string, unknown>
  const rows = Object.entries(result.outcomes)
    .filter(([, outcome]) => outcome === 'success')
    .map(([task]) => {
      const columns = (LEAD_COLUMNS_OF.get(task) ?? []).filter((column) => values[column] !== undefined)
      const value = storable(Object.fromEntries(columns.map((column) => [column, values[column]]))) as JsonObject
      return { source: business.source, place_id: placeId, task, value, found_at: sql<Date>`now()` }
    })
  if (rows.length === 0) return
  try {
    await db
      .insertInto('enrichment_results')
      .values(rows)
      .onConflict((conflict) =>
        conflict.columns(['source', 'place_id', 'task']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), found_at: eb.ref('excluded.found_at') })),
      )
      .execute()
  } catch (error) {
    if (!String((error as { code?: unknown }).code ?? '').startsWith('22')) throw error
  }
}

/**
 * A stored email result verified again where its checks are stale (email-recheck.ts). The store keeps what the
 * check found for the next export: the new checks, or no result at all once every address is invalid (the next
 * export crawls again: the site may list another address by then).
 */
async function recheckedStoredEmails(db: Kysely<Database>, business: Business, value: Values, context: StoreContext): Promise<Values> {
  const verifier = context.enrichers.emailVerifier
  const { value: rechecked, changed } = await recheckStoredEmails(value, verifier, { recheckDays: context.recheckDays, signal: context.signal })
  const placeId = business.place_id
  if (!changed || !placeId) return rechecked
  const { source } = business
  if (rechecked.email?.length) {
    const kept = storable(rechecked) as JsonObject
    await db.updateTable('enrichment_results').set({ value: kept }).where('source', '=', source).where('place_id', '=', placeId).where('task', '=', 'email').execute()
  } else {
    await db.deleteFrom('enrichment_results').where('source', '=', source).where('place_id', '=', placeId).where('task', '=', 'email').execute()
  }
  return rechecked
}

/** A stored email result as the user's do-not-contact list allows it (the addresses and their sources), or null. */
function allowedStoredEmails(value: Values, enrichers: LeadEnrichmentContext['enrichers']): Values | null {
  const emails = Array.isArray(value.email) ? (value.email as string[]) : []
  const allowed = enrichers.allowedEmails ? enrichers.allowedEmails(emails) : emails
  if (allowed.length === 0) return null
  if (allowed.length === emails.length) return value
  const sources = value.email_sources ?? {}
  return { ...value, email: allowed, email_sources: Object.fromEntries(Object.entries(sources).filter(([email]) => allowed.includes(email))) }
}

/**
 * One lead's pending tasks: the fresh stored results first, then a crawl / registry lookup for the rest only (none
 * when everything is stored), whose successes are stored in turn.
 */
export async function enrichWithStore(
  db: Kysely<Database>,
  lead: PendingLead,
  pending: ReadonlySet<TaskType>,
  context: StoreContext,
): Promise<LeadEnrichmentResult> {
  const stored = await freshResults(db, lead, [...pending], context.reuseDays)
  const outcomes: Partial<Record<TaskType, TaskOutcome>> = {}
  const values: Values = {}
  for (const row of stored) {
    const value =
      row.task === 'email' ? allowedStoredEmails(await recheckedStoredEmails(db, lead, row.value as Values, context), context.enrichers) : (row.value as Values)
    // An address now invalid, or that the user has since put on the do-not-contact list, is not delivered; with none
    // left the stored result (fresh, so a crawl would find the same) says there is nothing to deliver: not found,
    // not charged.
    outcomes[row.task as TaskType] = value ? 'success' : 'not_found'
    if (value) Object.assign(values, value)
  }
  const rest = new Set([...pending].filter((task) => !outcomes[task]))
  if (rest.size === 0) return { outcomes, values, crawled: false }
  const found = await enrichLead(leadForEnrichment(lead), rest, context)
  // A listed company learnt by this crawl or registry lookup gives nothing, the stored results included.
  if (found.listed) return givesNothing(pending, found.crawled)
  await storeResults(db, lead, found)
  return { outcomes: { ...found.outcomes, ...outcomes }, values: { ...found.values, ...values }, crawled: found.crawled }
}
