/**
 * An export's progress (progress_percentage, progress_info) from its tasks. The percentage follows the one rule of
 * app/domain/exports.ts (progressPercentage: finished tasks / tasks); the SQL only counts.
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '#app/.server/db.ts'
import { STATUS_COLUMNS } from '#app/domain/enrichment-types.ts'
import { progressPercentage, type ExportProgressInfo } from '#app/domain/exports.ts'

/** Per lead (export_leads alias el), summed over the export. */
const TOTAL_TASKS = sql.raw(STATUS_COLUMNS.map((column) => `(el.${column} <> 'not_required')::int`).join(' + '))
const DONE_TASKS = sql.raw(STATUS_COLUMNS.map((column) => `(el.${column} in ('success', 'not_found', 'failed'))::int`).join(' + '))
const SUCCESS_TASKS = sql.raw(STATUS_COLUMNS.map((column) => `(el.${column} = 'success')::int`).join(' + '))

type TaskCounts = Pick<ExportProgressInfo, 'total' | 'done' | 'successes'>

async function taskCounts(db: Kysely<Database>, exportId: string): Promise<TaskCounts> {
  const { rows } = await sql<TaskCounts>`
    select coalesce(sum(${TOTAL_TASKS}), 0)::int as total,
           coalesce(sum(${DONE_TASKS}), 0)::int as done,
           coalesce(sum(${SUCCESS_TASKS}), 0)::int as successes
      from public.export_leads el
     where el.export_id = ${exportId}`.execute(db)
  return rows[0] ?? { total: 0, done: 0, successes: 0 }
}

/**
 * Recomputes progress_percentage / progress_info of an export from its tasks. Used by the worker (throttled) and
 * by add-enrichment. Returns null when the export is gone or, with `onlyProcessing`, not running.
 */
export async function refreshProgress(
  db: Kysely<Database>,
  exportId: string,
  { phase, onlyProcessing = true }: { phase: 'enrichment' | 'done'; onlyProcessing?: boolean },
): Promise<TaskCounts | null> {
  const counts = await taskCounts(db, exportId)
  const progressInfo: ExportProgressInfo = { phase, done: counts.done, total: counts.total, successes: counts.successes }
  let update = db
    .updateTable('exports')
    .set({ progress_percentage: phase === 'done' ? 100 : progressPercentage(counts.done, counts.total), progress_info: { ...progressInfo } })
    .where('id', '=', exportId)
  if (onlyProcessing) update = update.where('status', '=', 'processing')
  const { numUpdatedRows } = await update.executeTakeFirst()
  return Number(numUpdatedRows) > 0 ? counts : null
}
