/**
 * The search phase of an export run: the lead source is paged through (capped at maxLeads); leads are upserted
 * (dedupe by user + source + place id) and linked with their position and one `pending` task per chosen type.
 * Re-running it after a crash is harmless (upserts, `on conflict do nothing` links).
 */
import { sql, type Kysely, type Transaction } from 'kysely'
import { jsonb, type Database, type JsonObject, type JsonValue } from '#app/.server/db.ts'
import { getLeadSource, LeadSourceError, type Business } from '#app/.server/sources/index.ts'
import { ENRICHMENT_TABLE, type EnrichmentStatusColumn } from '#app/domain/enrichment-types.ts'
import { storable, UNNAMED_BUSINESS, type TaskType } from './enrichers.ts'
import { addExclusions, applyGates, gatesFor } from './lead-gates.ts'
import { exportExists, type ExportRow, type ExportSearch, type ProcessOptions, type ProcessResult } from './export-run.ts'
import { registryCandidates, storedRegistryFilters, storedWatchRetries } from './registry-source.ts'
import { RegistrySearchError } from '#app/.server/registry/search.ts'
import { ListMatchFailed, type ListCandidate } from '#app/.server/lists/match.ts'
import { listCandidates, storedListId } from './list-source.ts'

/**
 * A business to record; a registry-first export's come with their registry data (admin_fr_info), a list's with the
 * row they were matched from (list-source.ts).
 */
type Candidate = Business & { adminFrInfo?: JsonObject } & Partial<Pick<ListCandidate, 'listMatch' | 'listCells'>>

const SEARCH_BATCH = 100
/** How many businesses the source may yield per lead kept, when gates leave some out. */
const GATED_SOURCE_FACTOR = 5

class ExportGone extends Error {
  override name = 'ExportGone'
}

function errorDetails(phase: string, error: unknown): JsonObject {
  const message = error instanceof Error ? error.message : String(error)
  const details: JsonObject = { phase, error: message.slice(0, 500), at: new Date().toISOString() }
  if (error instanceof LeadSourceError) details.code = error.code
  return details
}

function isRetryableSourceError(error: unknown): boolean {
  // The registry of a registry-first export fails as a source does (rate limited, down): the queue retries the run.
  return (error instanceof LeadSourceError && error.code !== 'bad_request') || error instanceof RegistrySearchError || error instanceof ListMatchFailed
}

/**
 * Runs the search phase. Null when the enrichment phase may follow, else how the run ends (export deleted, search
 * failed). A retryable source failure is thrown instead while the queue may still retry (finalAttempt false).
 */
export async function runSearchPhase(
  db: Kysely<Database>,
  row: ExportRow,
  search: ExportSearch,
  types: TaskType[],
  options: ProcessOptions & { maxLeads: number },
): Promise<ProcessResult | null> {
  const exportId = row.id
  const log = options.log ?? (() => {})
  try {
    await fetchAndStoreLeads(db, row, search, types, options)
    return null
  } catch (error) {
    if (options.signal?.aborted) throw error
    if (error instanceof ExportGone || !(await exportExists(db, exportId))) {
      log(`export ${exportId}: deleted during the search`)
      return { outcome: 'deleted', leads: 0, enrichedLeads: 0, charged: 0 }
    }
    if (isRetryableSourceError(error) && options.finalAttempt === false) throw error
    log(`export ${exportId}: search failed: ${(error as Error).message}`)
    await db
      .updateTable('exports')
      .set({
        status: 'failed',
        search_status: 'failed',
        enrichment_status_details: errorDetails('search', error),
        can_resume: !(error instanceof LeadSourceError && error.code === 'bad_request'),
      })
      .where('id', '=', exportId)
      .where('status', '=', 'processing')
      .execute()
    return { outcome: 'failed', leads: 0, enrichedLeads: 0, charged: 0 }
  }
}

/** Pages through the source into batches of leads; the export then holds every lead it found and enters enrichment. */
async function fetchAndStoreLeads(db: Kysely<Database>, row: ExportRow, search: ExportSearch, types: TaskType[], options: ProcessOptions & { maxLeads: number }): Promise<void> {
  const exportId = row.id
  const userId = row.user_id
  const maxLeads = options.maxLeads
  await db
    .updateTable('exports')
    .set({ search_status: 'processing', progress_info: { phase: 'search', done: 0, total: maxLeads, successes: 0 } })
    .where('id', '=', exportId)
    .execute()

  const source = options.source ?? getLeadSource()
  const gates = await gatesFor(db, row, options.leadGates)
  const excluded: Record<string, number> = {}
  const seen = new Set<string>()
  let candidates: Candidate[] = []
  let batch: Array<{ business: Candidate; position: number }> = []
  let position = 0
  let lastProgress = Date.now()
  const interval = options.progressIntervalMs ?? 250

  const flush = async () => {
    const verdict = await applyGates(gates, candidates)
    candidates = []
    addExclusions(excluded, verdict.excluded)
    for (const business of verdict.kept as Candidate[]) if (position < maxLeads) batch.push({ business, position: position++ })
    if (batch.length === 0) return
    const current = batch
    batch = []
    await linkBatch(db, exportId, userId, current, types)
    if (Date.now() - lastProgress >= interval) {
      lastProgress = Date.now()
      await db
        .updateTable('exports')
        .set({ lead_count: position, progress_info: { phase: 'search', done: position, total: maxLeads, successes: 0 } })
        .where('id', '=', exportId)
        .execute()
    }
  }

  // Gates leave some businesses out, so the source is asked for more; the cap still holds on what is kept.
  const limit = gates.length ? maxLeads * GATED_SOURCE_FACTOR : maxLeads
  const registry = storedRegistryFilters(row.search_params)
  const listId = storedListId(row.search_params)
  const stream: AsyncIterable<Candidate> = listId
    ? listCandidates(db, listId, { enrichers: options.enrichers, source, lang: search.params.lang, limit, signal: options.signal })
    : registry
      ? registryCandidates(registry, { source, params: search.params, category: search.category, limit, signal: options.signal, client: options.registry, retrySirets: storedWatchRetries(row.search_params) })
      : source.search(search.params, search.category, { limit, signal: options.signal })
  for await (const business of stream) {
    const key = `${business.source}\u0000${storable(business.placeId)}`
    if (seen.has(key)) continue
    seen.add(key)
    candidates.push(business)
    if (candidates.length >= SEARCH_BATCH) await flush()
    if (position >= maxLeads) break
  }
  await flush()

  const { count } = await db
    .selectFrom('export_leads')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('export_id', '=', exportId)
    .executeTakeFirstOrThrow()
  const updated = await db
    .updateTable('exports')
    .set({
      lead_count: Number(count),
      excluded,
      search_status: 'completed',
      enrichment_status: 'processing',
      progress_info: { phase: 'enrichment', done: 0, total: Number(count) * types.length, successes: 0 },
    })
    .where('id', '=', exportId)
    .executeTakeFirst()
  if (Number(updated.numUpdatedRows) === 0) throw new ExportGone()
  options.log?.(`export ${exportId}: search found ${count} leads`)
}

/** Upserts a batch of businesses as the user's leads and links them to the export, in one transaction. */
async function linkBatch(db: Kysely<Database>, exportId: string, userId: string, batch: Array<{ business: Candidate; position: number }>, types: TaskType[]) {
  await db.transaction().execute(async (trx) => {
    // Lock order exports -> leads, as a delete takes them: a concurrent delete waits for (or beats) this batch.
    const locked = await sql`select 1 from public.exports where id = ${exportId} and user_id = ${userId} for key share`.execute(trx)
    if (locked.rows.length === 0) throw new ExportGone()
    const leads = await upsertLeads(trx, userId, batch)
    const idByKey = new Map(leads.map((lead) => [`${lead.source}\u0000${lead.place_id}`, lead.id]))
    const statuses = Object.fromEntries(
      ENRICHMENT_TABLE.map((entry) => [entry.statusColumn, types.includes(entry.task) ? 'pending' : 'not_required']),
    ) as StatusValues
    await trx
      .insertInto('export_leads')
      .values(
        batch.map(({ business, position }) => ({
          export_id: exportId,
          lead_id: idByKey.get(`${business.source}\u0000${storable(business.placeId)}`) as string,
          user_id: userId,
          position,
          ...statuses,
          // A registry-first lead's registry data is its search result, recorded with it: no lookup, no charge (README).
          ...(business.adminFrInfo && statuses.admin_fr_info_status === 'pending' ? { admin_fr_info_status: 'success' as const } : {}),
          ...listRowColumns(business, statuses),
        })),
      )
      .onConflict((oc) => oc.columns(['export_id', 'lead_id']).doNothing())
      .execute()
  })
}

type StatusValues = Record<EnrichmentStatusColumn, 'pending' | 'not_required'>

/**
 * A list row's lead keeps the row's cells and its match. A row nothing matched has nothing to enrich (every chosen type
 * not_found: nothing charged); a website the row gave is not found again for a credit (not_required), its crawl still
 * feeds the emails, phones and the rest.
 */
function listRowColumns(business: Candidate, statuses: StatusValues) {
  if (!business.listMatch) return {}
  const columns = { list_cells: storable(business.listCells ?? []), list_match: jsonb({ ...business.listMatch }) }
  if (business.listMatch.status !== 'matched') {
    const notFound = Object.fromEntries(Object.entries(statuses).map(([column, status]) => [column, status === 'pending' ? 'not_found' : status]))
    return { ...columns, ...notFound }
  }
  return business.listMatch.givenWebsite && statuses.website_status === 'pending' ? { ...columns, website_status: 'not_required' as const } : columns
}

/** The businesses as the user's leads: source facts refreshed, enriched values kept. */
function upsertLeads(trx: Transaction<Database>, userId: string, batch: Array<{ business: Candidate }>) {
  return trx
    .insertInto('leads')
    .values(
      batch.map(({ business }) => storable(business)).map((b) => ({
        ...(b.adminFrInfo ? { admin_fr_info: jsonb(b.adminFrInfo) } : {}),
        user_id: userId,
        source: b.source,
        place_id: b.placeId,
        business_id: b.placeId,
        name: b.name.trim() || UNNAMED_BUSINESS,
        phone: b.phone,
        website: b.website,
        city: b.city,
        postal_code: b.postalCode,
        country_code: b.countryCode,
        latitude: b.latitude,
        longitude: b.longitude,
        review_count: b.reviewCount,
        rating: b.rating,
        google_maps_url: b.googleMapsUrl,
        business_types: b.businessTypes,
        working_hours: b.openingHours == null ? null : jsonb(b.openingHours as JsonValue),
        operational_state: b.operationalState,
        full_address: b.address,
        full_address_array: b.fullAddressArray,
        email: b.email,
        social_media: b.socialMedia,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['user_id', 'source', 'place_id']).doUpdateSet((eb) => ({
        // Source facts are refreshed; enriched values (email, technologies, social_media, admin_fr_info) are kept.
        name: eb.ref('excluded.name'),
        website: eb.ref('excluded.website'),
        city: eb.ref('excluded.city'),
        postal_code: eb.ref('excluded.postal_code'),
        country_code: eb.ref('excluded.country_code'),
        latitude: eb.ref('excluded.latitude'),
        longitude: eb.ref('excluded.longitude'),
        review_count: eb.ref('excluded.review_count'),
        rating: eb.ref('excluded.rating'),
        google_maps_url: eb.ref('excluded.google_maps_url'),
        business_types: eb.ref('excluded.business_types'),
        working_hours: eb.ref('excluded.working_hours'),
        operational_state: eb.ref('excluded.operational_state'),
        full_address: eb.ref('excluded.full_address'),
        full_address_array: eb.ref('excluded.full_address_array'),
        // Fresh registry data (a registry-first export) replaces an older match; a map export keeps what it has.
        admin_fr_info: sql`coalesce(excluded.admin_fr_info, leads.admin_fr_info)`,
      })),
    )
    .returning(['id', 'source', 'place_id'])
    .execute()
}
