/**
 * Records one lead's outcomes with public.record_lead_enrichment(): each success is charged 1 credit in the
 * transaction that records it, conditional on the task still being pending, so two workers never double-charge; a
 * success the user already paid for within the reuse window is recorded free and marked reused.
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '#app/.server/db.ts'
import { countLeadRecorded } from '#app/.server/observability/metrics.ts'
import { storable, type LeadEnrichmentResult, type TaskOutcome } from './enrichers.ts'

interface RecordResult {
  missing: boolean
  charged: number
  /** Successes recorded free: the user paid for them within the reuse window. */
  reused: number
  recorded: number
  out_of_credits: boolean
}

interface LeadRef {
  userId: string
  exportId: string
  leadId: string
  /** The reuse window, in days (ENRICHMENT_REUSE_DAYS). */
  reuseDays: number
}

/** Postgres errors worth retrying at once: deadlock, serialization failure. */
function isTransientDbError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === '40P01' || code === '40001'
}

async function record(db: Kysely<Database>, { userId, exportId, leadId, reuseDays }: LeadRef, outcomes: object, values: object): Promise<RecordResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { rows } = await sql<{ result: RecordResult }>`
        select public.record_lead_enrichment(
          ${userId}::uuid, ${exportId}::uuid, ${leadId}::uuid, ${JSON.stringify(outcomes)}::jsonb, ${JSON.stringify(values)}::jsonb,
          ${reuseDays}::integer
        ) as result`.execute(db)
      return (rows[0] as { result: RecordResult }).result
    } catch (error) {
      if (attempt < 4 && isTransientDbError(error)) continue
      throw error
    }
  }
}

export async function recordLeadEnrichment(db: Kysely<Database>, lead: LeadRef, result: LeadEnrichmentResult, log: (message: string) => void): Promise<RecordResult> {
  try {
    return countLeadRecorded(result.outcomes, await record(db, lead, storable(result.outcomes), storable(result.values)))
  } catch (error) {
    // Data Postgres refuses (SQLSTATE class 22: a value too long, an odd encoding...) must not stall the whole
    // export on one lead: its tasks are recorded as failed, free of charge, and the run goes on.
    if (!String((error as { code?: unknown }).code ?? '').startsWith('22')) throw error
    log(`export ${lead.exportId}: lead ${lead.leadId} could not be stored (${(error as Error).message}); its tasks are marked failed`)
    const failed = Object.fromEntries(Object.keys(result.outcomes).map((type) => [type, 'failed' satisfies TaskOutcome]))
    return countLeadRecorded(failed, await record(db, lead, failed, {}))
  }
}
