/**
 * Never pay twice, before the export (issue "Polish round 3", item 3a): which of the businesses an export would take the
 * user already paid for, per enrichment type, within the reuse window (public.enrichment_purchases, read as the user),
 * so the cost panel quotes what will really be charged.
 */
import { sql } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import { withUser } from '#app/.server/db.ts'
import { ENRICHMENT_TABLE } from '#app/domain/enrichment-types.ts'
import type { PaidPositions } from '#app/domain/export-cost.ts'

const OPTION_OF_TASK = new Map<string, string>(ENRICHMENT_TABLE.map((entry) => [entry.task, entry.key]))

/**
 * For each option key, the positions in `placeIds` (the export's order) of the businesses whose result of that type
 * the user paid within `reuseDays` (0: reuse is off, nothing is free).
 */
export async function paidPositions(user: SessionUser, source: string, placeIds: readonly string[], reuseDays: number): Promise<PaidPositions> {
  if (placeIds.length === 0 || reuseDays <= 0) return {}
  const rows = await withUser(user.claims, (trx) =>
    trx
      .selectFrom('enrichment_purchases')
      .select(['task', 'place_id'])
      .where('user_id', '=', user.workspace.id)
      .where('source', '=', source)
      .where('place_id', '=', sql<string>`any(${[...placeIds]}::text[])`)
      .where('paid_at', '>', sql<Date>`now() - make_interval(days => ${reuseDays})`)
      .execute(),
  )
  const positionOf = new Map(placeIds.map((placeId, position) => [placeId, position]))
  const paid: Record<string, number[]> = {}
  for (const row of rows) {
    const option = OPTION_OF_TASK.get(row.task)
    const position = positionOf.get(row.place_id)
    if (option === undefined || position === undefined) continue
    ;(paid[option] ??= []).push(position)
  }
  for (const positions of Object.values(paid)) positions.sort((a, b) => a - b)
  return paid
}
