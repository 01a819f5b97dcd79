/**
 * Runs one export (ARCHITECTURE §5): search phase, then enrichment phase. All state lives in the database, so
 * any worker can run, re-run, resume or race on any export:
 *
 *   search       the lead source is paged through (capped at EXPORT_MAX_LEADS); leads are upserted (dedupe by
 *                user + source + place id) and linked with their position and one `pending` task per chosen
 *                type. Re-running it after a crash is harmless (upserts, `on conflict do nothing` links).
 *   enrichment   every lead with a pending task is enriched (bounded parallelism) and its outcomes recorded by
 *                public.record_lead_enrichment(): each success is charged 1 credit in the transaction that
 *                records it, conditional on the task still being pending, so two workers never double-charge.
 *                Out of credits → `interrupted` + can_resume. Export deleted → stop quietly.
 *
 * The privileged connection (adminDb) is used and every statement names the export's user.
 */
import { sql, type Kysely } from 'kysely'
import { adminDb, jsonb, type Database, type JsonObject, type JsonValue } from '#app/.server/db.ts'
import { resolveCategory } from '#app/.server/search/preview.ts'
import { countryCodeOf } from '#app/.server/search/locations.ts'
import { getLeadSource, LeadSourceError, type Business, type LeadSource } from '#app/.server/sources/index.ts'
import { normalizeEnrichmentOptions, selectedTypes, STATUS_COLUMN } from '#app/domain/enrichment.ts'
import { isLanguage } from '#app/i18n.ts'
import { enrichLead, storable, TASK_TYPES, UNNAMED_BUSINESS, type Enrichers, type LeadForEnrichment, type TaskType, type TaskOutcome } from './enrichers.ts'
import { envRecord } from '#app/.server/env.server.ts'

export interface ProcessOptions {
  enrichers: Enrichers
  db?: Kysely<Database>
  /** Default: getLeadSource() from the environment. */
  source?: LeadSource
  /** Abort = stop now (shutdown, job lost): recorded work stays, the rest stays pending; the call rejects. */
  signal?: AbortSignal
  log?: (message: string) => void
  /** Leads enriched at once (default EXPORT_CONCURRENCY or 16). */
  concurrency?: number
  /** Lead cap of the search phase (default EXPORT_MAX_LEADS or 1000). */
  maxLeads?: number
  /** Minimum time between two progress writes (default 250 ms). */
  progressIntervalMs?: number
  /**
   * Whether a retryable failure (source rate limit, timeout) should mark the export failed now (true, default)
   * or be thrown so the queue retries the run (false: the worker passes false while retries remain).
   */
  finalAttempt?: boolean
  /** Benchmark / test hook: a phase starts. */
  onPhase?: (phase: 'search' | 'enrichment') => void
  /** Test hook: after each lead's outcomes are recorded. */
  onLeadRecorded?: (event: { leadId: string; charged: number; outOfCredits: boolean }) => void | Promise<void>
}

export type ProcessOutcome = 'completed' | 'interrupted' | 'failed' | 'deleted' | 'skipped'

export interface ProcessResult {
  outcome: ProcessOutcome
  /** Leads linked to the export. */
  leads: number
  /** Leads this run enriched and recorded. */
  enrichedLeads: number
  /** Credits this run charged. */
  charged: number
}

const ZERO_UUID = '00000000-0000-0000-0000-000000000000'
const PAGE_SIZE = 200
const SEARCH_BATCH = 100

function intEnv(name: string, fallback: number): number {
  const value = Number(envRecord()[name])
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback
}

export function defaultMaxLeads(): number {
  return intEnv('EXPORT_MAX_LEADS', 1000)
}

class ExportGone extends Error {
  override name = 'ExportGone'
}

/** SQL fragments over the six status columns of export_leads (alias el). */
const STATUS_COLUMNS = TASK_TYPES.map((type) => `${type}_status`)
const ANY_PENDING = sql.raw(`(${STATUS_COLUMNS.map((column) => `el.${column} = 'pending'`).join(' or ')})`)
const TOTAL_TASKS = sql.raw(STATUS_COLUMNS.map((column) => `(el.${column} <> 'not_required')::int`).join(' + '))
const DONE_TASKS = sql.raw(STATUS_COLUMNS.map((column) => `(el.${column} in ('success', 'not_found', 'failed'))::int`).join(' + '))
const SUCCESS_TASKS = sql.raw(STATUS_COLUMNS.map((column) => `(el.${column} = 'success')::int`).join(' + '))

/**
 * Recomputes progress_percentage / progress_info of an export from its tasks (one statement). Used by the worker
 * (throttled) and by add-enrichment. Returns null when the export is gone or, with `onlyProcessing`, not running.
 */
export async function refreshProgress(
  db: Kysely<Database>,
  exportId: string,
  { phase, onlyProcessing = true }: { phase: 'enrichment' | 'done'; onlyProcessing?: boolean },
): Promise<{ total: number; done: number; successes: number } | null> {
  const { rows } = await sql<{ total: number; done: number; successes: number }>`
    with c as (
      select coalesce(sum(${TOTAL_TASKS}), 0)::int as total,
             coalesce(sum(${DONE_TASKS}), 0)::int as done,
             coalesce(sum(${SUCCESS_TASKS}), 0)::int as successes
        from public.export_leads el
       where el.export_id = ${exportId}
    )
    update public.exports e
       set progress_percentage = case
             when ${phase}::text = 'done' or (c.total > 0 and c.done >= c.total) then 100
             when c.total = 0 then 0
             else least(round(100.0 * c.done / c.total, 2), 99.99) end,
           progress_info = jsonb_build_object('phase', ${phase}::text, 'done', c.done, 'total', c.total, 'successes', c.successes)
      from c
     where e.id = ${exportId}
       ${onlyProcessing ? sql`and e.status = 'processing'` : sql``}
    returning c.total, c.done, c.successes`.execute(db)
  return rows[0] ?? null
}

interface ExportRow {
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

function str(value: unknown): string {
  return typeof value === 'string' ? value.trim() : ''
}

function exportSearch(row: ExportRow) {
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

/** The task types chosen on the export (status column stems). */
export function chosenTaskTypes(enrichmentOptions: unknown): TaskType[] {
  return selectedTypes(normalizeEnrichmentOptions(enrichmentOptions)).map((type) => STATUS_COLUMN[type].replace(/_status$/, '') as TaskType)
}

function errorDetails(phase: string, error: unknown): JsonObject {
  const message = error instanceof Error ? error.message : String(error)
  const details: JsonObject = { phase, error: message.slice(0, 500), at: new Date().toISOString() }
  if (error instanceof LeadSourceError) details.code = error.code
  return details
}

function isRetryableSourceError(error: unknown): boolean {
  return error instanceof LeadSourceError && error.code !== 'bad_request'
}

/** Postgres errors worth retrying at once: deadlock, serialization failure. */
function isTransientDbError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === '40P01' || code === '40001'
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError')
}

export async function processExport(exportId: string, options: ProcessOptions): Promise<ProcessResult> {
  const db = options.db ?? adminDb()
  const log = options.log ?? (() => {})
  const signal = options.signal
  signal?.throwIfAborted()

  const row = (await db
    .selectFrom('exports')
    .select(['id', 'user_id', 'status', 'search_status', 'enrichment_status', 'search_params', 'enrichment_options', 'country', 'region', 'department', 'city'])
    .where('id', '=', exportId)
    .executeTakeFirst()) as ExportRow | undefined
  if (!row) return { outcome: 'deleted', leads: 0, enrichedLeads: 0, charged: 0 }
  if (row.status !== 'processing' && row.status !== 'pending') {
    log(`export ${exportId}: status ${row.status}, nothing to do`)
    return { outcome: 'skipped', leads: 0, enrichedLeads: 0, charged: 0 }
  }
  if (row.status === 'pending') {
    await db.updateTable('exports').set({ status: 'processing' }).where('id', '=', exportId).where('status', '=', 'pending').execute()
  }

  const search = exportSearch(row)
  const types = chosenTaskTypes(row.enrichment_options)

  // ---- search phase
  if (row.search_status !== 'completed') {
    options.onPhase?.('search')
    try {
      await runSearchPhase(db, row, search, types, options)
    } catch (error) {
      if (signal?.aborted) throw error
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

  // ---- enrichment phase
  options.onPhase?.('enrichment')
  return runEnrichmentPhase(db, row, search, options)
}

async function exportExists(db: Kysely<Database>, exportId: string): Promise<boolean> {
  const found = await db.selectFrom('exports').select('id').where('id', '=', exportId).executeTakeFirst()
  return Boolean(found)
}

async function runSearchPhase(
  db: Kysely<Database>,
  row: ExportRow,
  search: ReturnType<typeof exportSearch>,
  types: TaskType[],
  options: ProcessOptions,
): Promise<void> {
  const exportId = row.id
  const userId = row.user_id
  const maxLeads = options.maxLeads ?? defaultMaxLeads()
  await db
    .updateTable('exports')
    .set({ search_status: 'processing', progress_info: { phase: 'search', done: 0, total: maxLeads, successes: 0 } })
    .where('id', '=', exportId)
    .execute()

  const source = options.source ?? getLeadSource()
  const seen = new Set<string>()
  let batch: Array<{ business: Business; position: number }> = []
  let position = 0
  let lastProgress = Date.now()
  const interval = options.progressIntervalMs ?? 250

  const flush = async () => {
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

  for await (const business of source.search(search.params, search.category, { limit: maxLeads, signal: options.signal })) {
    const key = `${business.source}\u0000${storable(business.placeId)}`
    if (seen.has(key)) continue
    seen.add(key)
    batch.push({ business, position: position++ })
    if (batch.length >= SEARCH_BATCH) await flush()
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
async function linkBatch(db: Kysely<Database>, exportId: string, userId: string, batch: Array<{ business: Business; position: number }>, types: TaskType[]) {
  await db.transaction().execute(async (trx) => {
    // Lock order exports -> leads, as a delete takes them: a concurrent delete waits for (or beats) this batch.
    const locked = await sql`select 1 from public.exports where id = ${exportId} and user_id = ${userId} for key share`.execute(trx)
    if (locked.rows.length === 0) throw new ExportGone()
    const leads = await trx
      .insertInto('leads')
      .values(
        batch.map(({ business }) => storable(business)).map((b) => ({
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
        })),
      )
      .returning(['id', 'source', 'place_id'])
      .execute()
    const idByKey = new Map(leads.map((lead) => [`${lead.source}\u0000${lead.place_id}`, lead.id]))
    const statuses = Object.fromEntries(TASK_TYPES.map((type) => [`${type}_status`, types.includes(type) ? 'pending' : 'not_required'])) as Record<
      `${TaskType}_status`,
      'pending' | 'not_required'
    >
    await trx
      .insertInto('export_leads')
      .values(
        batch.map(({ business, position }) => ({
          export_id: exportId,
          lead_id: idByKey.get(`${business.source}\u0000${storable(business.placeId)}`) as string,
          user_id: userId,
          position,
          ...statuses,
        })),
      )
      .onConflict((oc) => oc.columns(['export_id', 'lead_id']).doNothing())
      .execute()
  })
}

interface PendingRow {
  lead_id: string
  position: number
  phone_status: string
  website_status: string
  email_status: string
  technologies_status: string
  social_media_status: string
  admin_fr_info_status: string
  name: string
  phone: string | null
  website: string | null
  city: string | null
  postal_code: string | null
  country_code: string | null
  email: string[] | null
  social_media: Record<string, string> | null
}

interface RecordResult {
  missing: boolean
  charged: number
  recorded: number
  out_of_credits: boolean
}

async function runEnrichmentPhase(
  db: Kysely<Database>,
  row: ExportRow,
  search: ReturnType<typeof exportSearch>,
  options: ProcessOptions,
): Promise<ProcessResult> {
  const exportId = row.id
  const userId = row.user_id
  const log = options.log ?? (() => {})
  const concurrency = Math.max(1, options.concurrency ?? intEnv('EXPORT_CONCURRENCY', 16))
  const interval = options.progressIntervalMs ?? 250
  const nafCodes = search.category?.naf

  await db.updateTable('exports').set({ enrichment_status: 'processing' }).where('id', '=', exportId).where('status', '=', 'processing').execute()

  // Internal stop: out of credits, export gone or not running any more, a fatal error, or the caller's abort.
  const stop = new AbortController()
  const onAbort = () => stop.abort(abortError(options.signal as AbortSignal))
  options.signal?.addEventListener('abort', onAbort, { once: true })
  let stopReason: 'credits' | 'gone' | 'not_running' | 'error' | 'abort' | null = null
  let fatal: unknown = null
  const halt = (reason: NonNullable<typeof stopReason>, error?: unknown) => {
    if (!stopReason) {
      stopReason = reason
      if (reason === 'error') fatal = error
    }
    if (!stop.signal.aborted) stop.abort(new DOMException(`export run stopped: ${reason}`, 'AbortError'))
  }

  let enrichedLeads = 0
  let charged = 0
  let lastFlush = 0
  let flushing: Promise<void> | null = null
  const flushProgress = async (force = false) => {
    if (!force && (flushing || Date.now() - lastFlush < interval)) return
    if (flushing) await flushing
    lastFlush = Date.now()
    flushing = (async () => {
      const progress = await refreshProgress(db, exportId, { phase: 'enrichment' })
      if (!progress) halt((await exportExists(db, exportId)) ? 'not_running' : 'gone')
    })().finally(() => {
      flushing = null
    })
    await flushing
  }

  const record = async (leadId: string, outcomes: object, values: object): Promise<RecordResult> => {
    for (let attempt = 1; ; attempt++) {
      try {
        const { rows } = await sql<{ result: RecordResult }>`
          select public.record_lead_enrichment(
            ${userId}::uuid, ${exportId}::uuid, ${leadId}::uuid, ${JSON.stringify(outcomes)}::jsonb, ${JSON.stringify(values)}::jsonb
          ) as result`.execute(db)
        return (rows[0] as { result: RecordResult }).result
      } catch (error) {
        if (attempt < 4 && isTransientDbError(error)) continue
        throw error
      }
    }
  }

  const handleLead = async (lead: PendingRow) => {
    const pending = new Set(TASK_TYPES.filter((type) => lead[`${type}_status`] === 'pending'))
    if (pending.size === 0) return
    const input: LeadForEnrichment = {
      name: lead.name,
      phone: lead.phone,
      website: lead.website,
      city: lead.city,
      postalCode: lead.postal_code,
      countryCode: lead.country_code,
      sourceEmails: lead.email ?? [],
      sourceSocialMedia: lead.social_media ?? {},
    }
    const result = await enrichLead(input, pending, { enrichers: options.enrichers, signal: stop.signal, exportCountryCode: search.countryCode, nafCodes })
    let recorded: RecordResult
    try {
      recorded = await record(lead.lead_id, storable(result.outcomes), storable(result.values))
    } catch (error) {
      // Data Postgres refuses (SQLSTATE class 22: a value too long, an odd encoding...) must not stall the whole
      // export on one lead: its tasks are recorded as failed, free of charge, and the run goes on.
      if (!String((error as { code?: unknown }).code ?? '').startsWith('22')) throw error
      log(`export ${exportId}: lead ${lead.lead_id} could not be stored (${(error as Error).message}); its tasks are marked failed`)
      const failed = Object.fromEntries(Object.keys(result.outcomes).map((type) => [type, 'failed' satisfies TaskOutcome]))
      recorded = await record(lead.lead_id, failed, {})
    }
    if (recorded.missing) return halt('gone')
    enrichedLeads++
    charged += recorded.charged
    await options.onLeadRecorded?.({ leadId: lead.lead_id, charged: recorded.charged, outOfCredits: recorded.out_of_credits })
    if (recorded.out_of_credits) return halt('credits')
    await flushProgress()
  }

  // Leads with a pending task, in position order, paged by keyset (several passes if some remain, e.g. a racing
  // worker's lead that failed to record).
  let cursor = { position: -1, leadId: ZERO_UUID }
  const nextPage = async (): Promise<PendingRow[]> => {
    const { rows } = await sql<PendingRow>`
      select el.lead_id, el.position, el.phone_status, el.website_status, el.email_status, el.technologies_status,
             el.social_media_status, el.admin_fr_info_status,
             l.name, l.phone, l.website, l.city, l.postal_code, l.country_code, l.email, l.social_media
        from public.export_leads el
        join public.leads l on l.id = el.lead_id
       where el.export_id = ${exportId}
         and ${ANY_PENDING}
         and (el.position, el.lead_id) > (${cursor.position}, ${cursor.leadId}::uuid)
       order by el.position, el.lead_id
       limit ${PAGE_SIZE}`.execute(db)
    const last = rows[rows.length - 1]
    if (last) cursor = { position: last.position, leadId: last.lead_id }
    return rows
  }

  try {
    for (let pass = 0; pass < 3 && !stopReason; pass++) {
      cursor = { position: -1, leadId: ZERO_UUID }
      let queue: PendingRow[] = []
      let exhausted = false
      let paging: Promise<void> | null = null
      let seenInPass = 0
      // One page is fetched at a time; the lanes share it.
      const take = async (): Promise<PendingRow | undefined> => {
        while (!stopReason) {
          const next = queue.shift()
          if (next) return next
          if (exhausted) return undefined
          paging ??= nextPage()
            .then((rows) => {
              if (rows.length < PAGE_SIZE) exhausted = true
              queue = queue.concat(rows)
              seenInPass += rows.length
            })
            .finally(() => {
              paging = null
            })
          await paging
        }
        return undefined
      }
      const lane = async () => {
        for (;;) {
          let lead: PendingRow | undefined
          try {
            lead = await take()
          } catch (error) {
            halt('error', error)
            return
          }
          if (!lead || stopReason) return
          try {
            await handleLead(lead)
          } catch (error) {
            // After a stop, the in-flight leads reject with the abort: expected, nothing to report.
            if (stop.signal.aborted) return
            halt('error', error)
            return
          }
        }
      }
      await Promise.all(Array.from({ length: concurrency }, lane))
      if (seenInPass === 0) break
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort)
    if (flushing) await (flushing as Promise<void>).catch(() => {})
  }

  if (options.signal?.aborted || stopReason === 'abort') {
    await refreshProgress(db, exportId, { phase: 'enrichment' }).catch(() => {})
    throw abortError(options.signal as AbortSignal)
  }
  if (stopReason === 'error') {
    await refreshProgress(db, exportId, { phase: 'enrichment' }).catch(() => {})
    throw fatal
  }
  const reason = stopReason as typeof stopReason
  if (reason === 'gone') {
    log(`export ${exportId}: deleted, run stopped`)
    return { outcome: 'deleted', leads: 0, enrichedLeads, charged }
  }
  const leads = await db.selectFrom('exports').select('lead_count').where('id', '=', exportId).executeTakeFirst()
  if (!leads) return { outcome: 'deleted', leads: 0, enrichedLeads, charged }
  if (reason === 'not_running') {
    log(`export ${exportId}: no longer processing, run stopped`)
    return { outcome: 'skipped', leads: leads.lead_count, enrichedLeads, charged }
  }

  // Finished walking (or out of credits): completed when no task is pending, else interrupted.
  const completed = await sql<{ id: string }>`
    update public.exports e
       set status = 'completed', completed_at = now(), enrichment_status = 'completed', can_resume = false,
           enrichment_status_details = null
     where e.id = ${exportId} and e.status = 'processing'
       and not exists (select 1 from public.export_leads el where el.export_id = ${exportId} and ${ANY_PENDING})
    returning e.id`.execute(db)
  if (completed.rows.length) {
    await refreshProgress(db, exportId, { phase: 'done', onlyProcessing: false })
    log(`export ${exportId}: completed (${enrichedLeads} leads enriched, ${charged} credits)`)
    return { outcome: 'completed', leads: leads.lead_count, enrichedLeads, charged }
  }
  await refreshProgress(db, exportId, { phase: 'enrichment' })
  const interrupted = await db
    .updateTable('exports')
    .set({
      status: 'interrupted',
      can_resume: true,
      enrichment_status: 'interrupted',
      enrichment_status_details: {
        phase: 'enrichment',
        reason: reason === 'credits' ? 'insufficient_credits' : 'incomplete',
        at: new Date().toISOString(),
      },
    })
    .where('id', '=', exportId)
    .where('status', '=', 'processing')
    .executeTakeFirst()
  if (Number(interrupted.numUpdatedRows) === 0) return { outcome: 'skipped', leads: leads.lead_count, enrichedLeads, charged }
  log(`export ${exportId}: interrupted (${reason === 'credits' ? 'out of credits' : 'tasks left'})`)
  return { outcome: 'interrupted', leads: leads.lead_count, enrichedLeads, charged }
}
