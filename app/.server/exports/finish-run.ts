/**
 * How an enrichment phase that walked its leads ends: completed when no task is pending, else interrupted and
 * resumable (out of credits, or tasks left); nothing when the export is gone or no longer processing.
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '#app/.server/db.ts'
import type { ProcessResult } from './export-run.ts'
import { ANY_PENDING } from './pending-leads.ts'
import { refreshProgress } from './progress.ts'

export type StopReason = 'credits' | 'gone' | 'not_running' | 'error' | 'abort'

export async function finishEnrichment(
  db: Kysely<Database>,
  exportId: string,
  { reason, enrichedLeads, charged, log }: { reason: Exclude<StopReason, 'error' | 'abort'> | null; enrichedLeads: number; charged: number; log: (message: string) => void },
): Promise<ProcessResult> {
  if (reason === 'gone') {
    log(`export ${exportId}: deleted, run stopped`)
    return { outcome: 'deleted', leads: 0, enrichedLeads, charged }
  }
  const leads = await db.selectFrom('exports').select('lead_count').where('id', '=', exportId).executeTakeFirst()
  if (!leads) return { outcome: 'deleted', leads: 0, enrichedLeads, charged }
  const result = (outcome: ProcessResult['outcome']): ProcessResult => ({ outcome, leads: leads.lead_count, enrichedLeads, charged })
  if (reason === 'not_running') {
    log(`export ${exportId}: no longer processing, run stopped`)
    return result('skipped')
  }

  // One transaction: a reader never sees a completed export whose progress still says "enrichment" (with hundreds
  // of leads in flight the last throttled write is often well behind).
  const completed = await db.transaction().execute(async (trx) => {
    const updated = await sql<{ id: string }>`
    update public.exports e
       set status = 'completed', completed_at = now(), enrichment_status = 'completed', can_resume = false,
           enrichment_status_details = null,
           -- With the status, not after it: a reader must never see a completed export short of 100 %.
           progress_percentage = 100
     where e.id = ${exportId} and e.status = 'processing'
       and not exists (select 1 from public.export_leads el where el.export_id = ${exportId} and ${ANY_PENDING})
    returning e.id`.execute(trx)
    if (updated.rows.length) await refreshProgress(trx, exportId, { phase: 'done', onlyProcessing: false })
    return updated.rows.length > 0
  })
  if (completed) {
    log(`export ${exportId}: completed (${enrichedLeads} leads enriched, ${charged} credits)`)
    return result('completed')
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
  if (Number(interrupted.numUpdatedRows) === 0) return result('skipped')
  log(`export ${exportId}: interrupted (${reason === 'credits' ? 'out of credits' : 'tasks left'})`)
  return result('interrupted')
}
