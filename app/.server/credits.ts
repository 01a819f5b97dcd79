import { sql } from 'kysely'
import { resolvePlan, type CreditsSummary } from '#app/domain/plans.ts'
import type { SessionUser } from './auth.ts'
import { withUser } from './db.ts'

const UNAVAILABLE_CREDITS: CreditsSummary = { remaining: 0, total: 0, plan: 'free_trial', nextReloadDate: null, ok: false }

// One read per request: the layout (header) and the page (plan rules) share it. SessionUser
// objects live for one request, so the cache goes with them.
const perRequest = new WeakMap<SessionUser, Promise<CreditsSummary>>()

/** What the credits dropdown, the plan rules and the export checks all read: one query path. */
export function getCreditsSummary(user: SessionUser): Promise<CreditsSummary> {
  let pending = perRequest.get(user)
  if (!pending) {
    pending = readCreditsSummary(user)
    perRequest.set(user, pending)
  }
  return pending
}

async function readCreditsSummary(user: SessionUser): Promise<CreditsSummary> {
  try {
    return await withUser(user.claims, async (trx) => {
      const credits = await trx
        .selectFrom('user_credits')
        .select(['remaining_credits', 'total_credits'])
        .where('user_id', '=', user.id)
        .executeTakeFirst()
      const subscription = await trx
        .selectFrom('user_subscriptions')
        .select(['plan_id', 'status', 'current_period_end', 'next_credit_date'])
        .where('user_id', '=', user.id)
        .where('status', 'in', ['active', 'canceling'])
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst()
      const plan = resolvePlan(subscription ?? null)
      return {
        remaining: credits?.remaining_credits ?? 0,
        total: credits?.total_credits ?? 0,
        plan,
        nextReloadDate: plan !== 'free_trial' && subscription?.next_credit_date ? toIso(subscription.next_credit_date) : null,
        ok: Boolean(credits),
      }
    })
  } catch (error) {
    console.error('Failed to load credits', error)
    return UNAVAILABLE_CREDITS
  }
}

function toIso(value: Date | string) {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString()
}

export interface LedgerEntry {
  id: string
  delta: number
  balanceAfter: number
  reason: string
  exportId: string | null
  enrichmentType: string | null
  createdAt: string
}

/**
 * The user's credit history (the ledger the balance is the sum of), newest first, as the user reads it (row-level
 * security). `after` is the [created_at, id] of the previous page's last entry.
 */
export async function listCreditLedger(user: SessionUser, { limit, after }: { limit: number; after?: readonly [string, string] | null }): Promise<LedgerEntry[]> {
  const rows = await withUser(user.claims, (trx) => {
    let select = trx
      .selectFrom('credit_ledger')
      .select(['id', 'delta', 'balance_after', 'reason', 'export_id', 'enrichment_type', 'created_at'])
      .where('user_id', '=', user.id)
    if (after) select = select.where(sql<boolean>`(created_at, id) < (${after[0]}::timestamptz, ${after[1]}::bigint)`)
    return select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute()
  })
  return rows.map((row) => ({
    id: String(row.id),
    delta: row.delta,
    balanceAfter: row.balance_after,
    reason: row.reason,
    exportId: row.export_id,
    enrichmentType: row.enrichment_type,
    createdAt: toIso(row.created_at),
  }))
}
