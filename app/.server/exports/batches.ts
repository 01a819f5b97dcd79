/**
 * One export, many workers. The run job (worker.ts) searches, then plans the enrichment here: one batch job per
 * EXPORT_BATCH_SIZE positions that still hold a lead with a task pending. Any worker takes any batch and enriches
 * its range with the per-lead code of enrichment-phase.ts; the batch that finds nothing pending left in the export
 * finishes it (finish-run.ts: a conditional update, so exactly once). Since all state is in the database, a batch
 * killed mid-way is retried by pg-boss (heartbeat) and redoes only its pending leads, and recording a lead charges
 * it once whatever races (record-lead.ts).
 */
import { sql } from 'kysely'
import { EXPORT_ROW_COLUMNS, exportSearch, type ExportRow, type ProcessOptions, type ProcessResult } from './export-run.ts'
import { finishEnrichment } from './finish-run.ts'
import { ANY_PENDING } from './pending-leads.ts'
import { enrichLeads, searchExport } from './processor.ts'
import { refreshProgress } from './progress.ts'
import type { ExportBatchData } from './queue.ts'
import { adminDb } from '#app/.server/db.ts'
import { batchRange } from '#app/domain/export-batches.ts'

export interface RunExportOptions extends ProcessOptions {
  batchSize: number
  /** Queues the batches (queue.ts enqueueBatches). */
  enqueue: (batches: ExportBatchData[]) => Promise<void>
}

/** The run job: search, then one batch per range with pending leads; completed at once when nothing is pending. */
export async function runExport(exportId: string, options: RunExportOptions): Promise<ProcessResult> {
  const searched = await searchExport(exportId, options)
  if ('outcome' in searched) return searched
  const { db, row } = searched
  const log = options.log ?? (() => {})
  const { rows } = await sql<{ batch: number }>`
    select distinct floor(el.position / ${options.batchSize})::int as batch
      from public.export_leads el
     where el.export_id = ${exportId} and ${ANY_PENDING}
     order by 1`.execute(db)
  if (rows.length === 0) return finishEnrichment(db, exportId, { reason: null, enrichedLeads: 0, charged: 0, log })
  await db.updateTable('exports').set({ enrichment_status: 'processing' }).where('id', '=', exportId).where('status', '=', 'processing').execute()
  await refreshProgress(db, exportId, { phase: 'enrichment' })
  await options.enqueue(rows.map(({ batch }) => ({ exportId, userId: row.user_id, ...batchRange(batch, options.batchSize) })))
  log(`export ${exportId}: enrichment split into ${rows.length} batch(es) of ${options.batchSize} positions`)
  return { outcome: 'batched', leads: 0, enrichedLeads: 0, charged: 0 }
}

/** A batch job: the export's pending leads in [from, to), if the export is still running. */
export async function runExportBatch(batch: ExportBatchData, options: ProcessOptions): Promise<ProcessResult> {
  const db = options.db ?? adminDb()
  const log = options.log ?? (() => {})
  options.signal?.throwIfAborted()
  const row = (await db.selectFrom('exports').select(EXPORT_ROW_COLUMNS).where('id', '=', batch.exportId).executeTakeFirst()) as ExportRow | undefined
  if (!row) return { outcome: 'deleted', leads: 0, enrichedLeads: 0, charged: 0 }
  const search = exportSearch(row)
  if (row.status !== 'processing' || row.search_status !== 'completed' || !search.ok) {
    log(`export ${batch.exportId}: batch [${batch.from}, ${batch.to}) has nothing to do (status ${row.status})`)
    return { outcome: 'skipped', leads: 0, enrichedLeads: 0, charged: 0 }
  }
  return enrichLeads({ db, row, search }, options, { from: batch.from, to: batch.to })
}
