/**
 * The export's "email verification unavailable" mark (exports.email_verification_unavailable, issue 19 item 15): set
 * once by the run as soon as a delivered address came back `unverified` (DNS unusable), so the export page can say
 * the addresses were not verified rather than let them pass for checked ones.
 */
import type { Kysely } from 'kysely'
import type { Database } from '#app/.server/db.ts'
import type { LeadEnrichmentResult } from './enrichers.ts'

function hasUnverifiedEmail(values: LeadEnrichmentResult['values']): boolean {
  return Object.values(values.email_sources ?? {}).some((source) => source?.check?.status === 'unverified')
}

/** Call after each recorded lead: the first unverified address sets the mark; later ones cost nothing. */
export function unverifiedEmailMark(db: Kysely<Database>, exportId: string): (result: LeadEnrichmentResult) => Promise<void> {
  let marked = false
  return async (result) => {
    if (marked || !hasUnverifiedEmail(result.values)) return
    marked = true
    await db.updateTable('exports').set({ email_verification_unavailable: true }).where('id', '=', exportId).execute()
  }
}
