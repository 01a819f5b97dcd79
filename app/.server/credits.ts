import { sql, type Kysely, type Transaction } from 'kysely'
import { data } from 'react-router'
import { resolvePlan, type CreditsSummary, type PlanId } from '#app/domain/plans.ts'
import type { SessionUser } from './auth.ts'
import { withUser, type Database } from './db.ts'

/** What the header shows when the figures cannot be read (SPEC §8: 0/0 and Free Trial). Never a plan to decide with. */
const UNAVAILABLE_CREDITS: CreditsSummary = { remaining: 0, total: 0, plan: 'free_trial', nextReloadDate: null, ok: false }

type Read = { ok: true; summary: CreditsSummary } | { ok: false }

// One read per request: the layout (header) and the page (plan rules) share it. SessionUser
// objects live for one request, so the cache goes with them.
const perRequest = new WeakMap<SessionUser, Promise<Read>>()

function cachedRead(user: SessionUser): Promise<Read> {
  let pending = perRequest.get(user)
  if (!pending) {
    pending = withUser(user.claims, (trx) => readCreditsSummary(trx, user.workspace.id, user.id)).then(
      (summary): Read => ({ ok: true, summary }),
      (error: unknown): Read => {
        console.error('Failed to load credits', error)
        return { ok: false }
      },
    )
    perRequest.set(user, pending)
  }
  return pending
}

/** What the credits dropdown shows: on a failed read, 0/0 and Free Trial with a warning (SPEC §8). */
export async function getCreditsSummary(user: SessionUser): Promise<CreditsSummary> {
  const read = await cachedRead(user)
  return read.ok ? read.summary : UNAVAILABLE_CREDITS
}

/**
 * The figures a decision rests on (the plan's location rules, a preview's estimate): a failed read is a 503 "try again",
 * never the free trial's rules applied to a paying user (issue 28).
 */
export async function requireCreditsSummary(user: SessionUser): Promise<CreditsSummary> {
  const read = await cachedRead(user)
  if (!read.ok) throw data({ error: 'database_unavailable' }, { status: 503, headers: { 'Retry-After': '5' } })
  return read.summary
}

/** The user's current subscription row (SPEC §4): the newest active or canceling one; its period decides the plan. */
export function currentSubscription(db: Kysely<Database> | Transaction<Database>, userId: string) {
  return currentSubscriptionQuery(db, userId).executeTakeFirst()
}

function currentSubscriptionQuery(db: Kysely<Database> | Transaction<Database>, userId: string) {
  return db
    .selectFrom('user_subscriptions')
    .select(['plan_id', 'status', 'frequency', 'current_period_end', 'next_credit_date'])
    .where('user_id', '=', userId)
    .where('status', 'in', ['active', 'canceling'])
    .orderBy('created_at', 'desc')
    .limit(1)
}

/** The user's plan, read in `trx` (a transaction acting as the user): the plan rules of a command. Throws when unreadable. */
export async function readPlan(trx: Transaction<Database>, userId: string): Promise<PlanId> {
  return resolvePlan((await currentSubscription(trx, userId)) ?? null)
}

/**
 * The figures, read in `trx`: a command reads what it needs on its own transaction (one pooled connection per
 * command, never a second one while it holds a lock). Throws when they cannot be read.
 */
async function readCreditsSummary(trx: Transaction<Database>, workspaceId: string, memberId: string): Promise<CreditsSummary> {
  // One round trip (every page's header reads this): the pool's balance row, if any, beside the current subscription,
  // if any, and the member's monthly cap with what it leaves.
  type Subscription = NonNullable<Awaited<ReturnType<typeof currentSubscription>>>
  type Row = Partial<Subscription> & { remaining_credits: number | null; total_credits: number | null; has_credits: boolean; cap: number | null; spent: number }
  const { rows } = await sql<Row>`
    select c.remaining_credits, c.total_credits, c.user_id is not null as has_credits,
           s.plan_id, s.status, s.frequency, s.current_period_end, s.next_credit_date,
           m.monthly_credit_cap as cap,
           case when m.monthly_credit_cap is null then 0 else
             (select coalesce(-sum(l.delta), 0)::int from credit_ledger l
               where l.user_id = ${workspaceId} and l.member_id = ${memberId}
                 and l.created_at >= date_trunc('month', now() at time zone 'utc') at time zone 'utc') end as spent
      from (select 1) one
      left join user_credits c on c.user_id = ${workspaceId}
      left join workspace_members m on m.workspace_id = ${workspaceId} and m.user_id = ${memberId}
      left join lateral (${currentSubscriptionQuery(trx, workspaceId)}) s on true`.execute(trx)
  const row = rows[0]
  const subscription = row?.plan_id ? (row as Subscription) : null
  const plan = resolvePlan(subscription)
  return {
    remaining: row?.remaining_credits ?? 0,
    total: row?.total_credits ?? 0,
    plan,
    nextReloadDate: plan !== 'free_trial' && subscription?.next_credit_date ? toIso(subscription.next_credit_date) : null,
    ok: row?.has_credits === true,
    memberCap: row?.cap == null ? null : { cap: row.cap, left: Math.max(0, row.cap - Math.max(0, row.spent)) },
  }
}

/**
 * Why the member cannot spend a credit now, or null: the pool is empty (SPEC §7 RPC check_user_credits, which answers
 * only about the caller's workspaces), or their monthly cap is used up.
 */
export async function spendingRefusal(trx: Transaction<Database>, user: SessionUser): Promise<'insufficient_credits' | 'member_cap_reached' | null> {
  const { rows } = await sql<{ pool: boolean | null; share: number | null }>`
    select public.check_user_credits(${user.workspace.id}::uuid, 1) as pool,
           public.member_spendable(${user.workspace.id}::uuid, ${user.id}::uuid) as share`.execute(trx)
  if (rows[0]?.pool !== true) return 'insufficient_credits'
  return (rows[0]?.share ?? 0) >= 1 ? null : 'member_cap_reached'
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
  /** The member who spent (enrichment debits and refunds); null for grants. */
  memberId: string | null
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
      .select(['id', 'delta', 'balance_after', 'reason', 'export_id', 'enrichment_type', 'created_at', 'member_id'])
      .where('user_id', '=', user.workspace.id)
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
    memberId: row.member_id,
    createdAt: toIso(row.created_at),
  }))
}
