/**
 * Runs one export (ARCHITECTURE §5): search phase (search-phase.ts), then enrichment phase (enrichment-phase.ts).
 * All state lives in the database, so any worker can run, re-run, resume or race on any export.
 *
 * processExport runs both phases in one call (tests, benches, a single process). The queue splits them: the run job
 * searches and then hands the enrichment to batch jobs (batches.ts), which call enrichLeads on their position range.
 *
 * The privileged connection (adminDb) is used and every statement names the export's user.
 */
import { LIST_MAX_ROWS } from '#app/domain/list-columns.ts'
import type { Kysely } from 'kysely'
import { adminDb, type Database } from '#app/.server/db.ts'
import { env } from '#app/.server/env.server.ts'
import { withDoNotContact } from './dnc-enrichers.ts'
import { runEnrichmentPhase, type PositionRange } from './enrichment-phase.ts'
import { storedMaxLeads } from '#app/domain/export-cost.ts'
import { chosenTaskTypes, EXPORT_ROW_COLUMNS, exportSearch, type ExportRow, type ExportSearch, type ProcessOptions, type ProcessResult } from './export-run.ts'
import { runSearchPhase } from './search-phase.ts'

export type { ProcessOptions, ProcessResult } from './export-run.ts'

/** An export whose search is done and whose leads are ready to enrich. */
export interface SearchedExport {
  db: Kysely<Database>
  row: ExportRow
  search: ExportSearch
}

export async function processExport(exportId: string, options: ProcessOptions): Promise<ProcessResult> {
  const searched = await searchExport(exportId, options)
  if ('outcome' in searched) return searched
  return enrichLeads(searched, options)
}

/** The run's first part: status checks and the search phase. A result when the run ends there. */
export async function searchExport(exportId: string, options: ProcessOptions): Promise<SearchedExport | ProcessResult> {
  const db = options.db ?? adminDb()
  const log = options.log ?? (() => {})
  options.signal?.throwIfAborted()

  const row = (await db.selectFrom('exports').select(EXPORT_ROW_COLUMNS).where('id', '=', exportId).executeTakeFirst()) as ExportRow | undefined
  if (!row) return { outcome: 'deleted', leads: 0, enrichedLeads: 0, charged: 0 }
  if (row.status !== 'processing' && row.status !== 'pending') {
    log(`export ${exportId}: status ${row.status}, nothing to do`)
    return { outcome: 'skipped', leads: 0, enrichedLeads: 0, charged: 0 }
  }
  if (row.status === 'pending') {
    await db.updateTable('exports').set({ status: 'processing' }).where('id', '=', exportId).where('status', '=', 'pending').execute()
  }

  const search = exportSearch(row)
  if (!search.ok) {
    // Stored before locations were checked (names and code disagree): searching it could widen it, so it fails for good.
    log(`export ${exportId}: refused location (${search.field})`)
    await db
      .updateTable('exports')
      .set({ status: 'failed', search_status: 'failed', can_resume: false, enrichment_status_details: { phase: 'search', code: 'invalid_location', field: search.field, at: new Date().toISOString() } })
      .where('id', '=', exportId)
      .where('status', '=', 'processing')
      .execute()
    return { outcome: 'failed', leads: 0, enrichedLeads: 0, charged: 0 }
  }
  if (row.search_status !== 'completed') {
    options.onPhase?.('search')
    // The user's own cap (search_params.maxLeads) within the export limit.
    // A list's export holds its rows: the list's own cap (LIST_MAX_ROWS) bounds it, not an area search's.
    const exportCap = row.search_params?.list ? LIST_MAX_ROWS : (options.maxLeads ?? env.EXPORT_MAX_LEADS)
    const maxLeads = Math.min(exportCap, storedMaxLeads(row.search_params?.maxLeads) ?? Number.POSITIVE_INFINITY)
    const ended = await runSearchPhase(db, row, search, chosenTaskTypes(row.enrichment_options), { ...options, maxLeads })
    if (ended) return ended
  }
  return { db, row, search }
}

/** The enrichment phase over the export's leads, or only those at positions in `range` (a batch). */
export async function enrichLeads({ db, row, search }: SearchedExport, options: ProcessOptions, range?: PositionRange): Promise<ProcessResult> {
  const exportId = row.id
  const log = options.log ?? (() => {})
  options.onPhase?.('enrichment')
  const concurrency = Math.max(1, options.concurrency ?? env.EXPORT_CONCURRENCY)
  const reuseDays = options.reuseDays ?? env.ENRICHMENT_REUSE_DAYS
  const recheckDays = options.emailRecheckDays ?? env.EMAIL_RECHECK_DAYS
  const dnc = await withDoNotContact(db, row.user_id, options.enrichers)
  // After each recorded lead (before the phase can mark the export completed), what the list removed is counted.
  const onLeadRecorded: ProcessOptions['onLeadRecorded'] = async (event) => {
    await dnc.record(exportId)
    await options.onLeadRecorded?.(event)
  }
  try {
    return await runEnrichmentPhase(db, row, search, { ...options, concurrency, reuseDays, recheckDays, enrichers: dnc.enrichers, onLeadRecorded, range })
  } finally {
    await dnc.record(exportId).catch((error: unknown) => log(`export ${exportId}: do-not-contact counts not saved: ${String(error)}`))
  }
}
