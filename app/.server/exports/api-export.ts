// Reads an export as the public API and webhooks show it (app/domain/api-export.ts).
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '#app/.server/db.ts'
import { toApiExport, type ApiExport } from '#app/domain/api-export.ts'
import { isUuid } from '#app/domain/ids.ts'

export const API_EXPORT_COLUMNS = [
  'id',
  'name',
  'status',
  'progress_info',
  'progress_percentage',
  'lead_count',
  'total_credits_used',
  'enrichment_options',
  'created_at',
  'completed_at',
  'saved_search_id',
  'webhook_url',
] as const

/**
 * The export, or undefined when missing. Run it in withUser() for a user's request (RLS decides what exists); with
 * adminDb() (webhooks, the worker) pass the owner's `userId`, which the query then requires.
 */
export async function loadApiExport(db: Kysely<Database> | Transaction<Database>, exportId: string, userId?: string): Promise<ApiExport | undefined> {
  if (!isUuid(exportId)) return undefined
  let query = db.selectFrom('exports').select(API_EXPORT_COLUMNS).where('id', '=', exportId)
  if (userId) query = query.where('user_id', '=', userId)
  const row = await query.executeTakeFirst()
  return row ? toApiExport(row) : undefined
}
