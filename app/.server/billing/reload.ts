// Monthly credit reloads (SPEC §9: credits per month), for annual plans too: an annual
// subscription is billed once a year but its credits are reset to the plan allowance every month.
// The renewal of a period reloads through the payment events; this job does the months in
// between. Run hourly by pg-boss (registerBillingJobs), and safe to run anywhere, any number of
// times: each reload has the idempotency key 'reload:<subscription id>:<next_credit_date ISO>'.
import type { PgBoss } from 'pg-boss'
import { sql } from 'kysely'
import { addMonths, isBillingFrequency, isPaidPlanId, nextCreditDate, periodMonths } from '#app/domain/billing.ts'
import { PLAN_CATALOG, planIdFromLabel } from '#app/domain/plans.ts'
import { billingDb } from './db.ts'
import { reloadKey } from './events.ts'

export const RELOAD_QUEUE = 'billing.reload-credits'
/** Every hour, on the hour (UTC). */
export const RELOAD_CRON = '0 * * * *'

export interface ReloadSummary {
  /** Subscriptions whose next credit date had come. */
  due: number
  /** Reloads applied now (a key already used, e.g. by a concurrent run, is not counted). */
  reloaded: number
}

/**
 * For every current subscription (active or canceling, period not over) whose next_credit_date has
 * come: reload its credits to the plan allowance through the ledger, then move next_credit_date to
 * the next monthly boundary of the period — never past current_period_end, and none at all once a
 * canceling subscription has no reload left. Expired and canceled subscriptions are left alone.
 */
export async function reloadDueCredits(now: Date = new Date()): Promise<ReloadSummary> {
  const db = billingDb()
  const due = await db
    .selectFrom('user_subscriptions')
    .select(['id'])
    .where('status', 'in', ['active', 'canceling'])
    .where('current_period_end', '>', now)
    .where('next_credit_date', '<=', now)
    .orderBy('next_credit_date')
    .limit(5000)
    .execute()
  let reloaded = 0
  for (const { id } of due) {
    try {
      const applied = await db.transaction().execute(async (trx) => {
        // Re-read under a row lock: another run (or a webhook) may have moved it meanwhile.
        const row = await trx
          .selectFrom('user_subscriptions')
          .select(['id', 'user_id', 'plan_id', 'status', 'frequency', 'current_period_end', 'next_credit_date'])
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst()
        if (!row?.next_credit_date || !row.current_period_end) return false
        if (row.status !== 'active' && row.status !== 'canceling') return false
        if (row.current_period_end.getTime() <= now.getTime() || row.next_credit_date.getTime() > now.getTime()) return false
        const plan = planIdFromLabel(row.plan_id)
        const dueAt = row.next_credit_date
        const canceling = row.status === 'canceling'
        const frequency = isBillingFrequency(row.frequency) ? row.frequency : 'monthly'
        // Monthly boundaries count from the start of the period (its end minus one billing period).
        const periodStart = addMonths(row.current_period_end, -periodMonths(frequency))
        const next = nextCreditDate({
          periodStart,
          periodEnd: row.current_period_end,
          after: new Date(Math.max(now.getTime(), dueAt.getTime())),
          canceling,
        })
        let ok = false
        if (isPaidPlanId(plan)) {
          const key = reloadKey(row.id, dueAt)
          const metadata = JSON.stringify({ job: RELOAD_QUEUE, plan, frequency, due: dueAt.toISOString() })
          const { rows } = await sql<{ ok: boolean }>`select public.apply_credit_change(${row.user_id}::uuid, ${PLAN_CATALOG[plan].monthlyCredits}, 'subscription_reload', ${key}, null, null, null, ${metadata}::jsonb) as ok`.execute(trx)
          ok = rows[0]?.ok === true
        }
        await trx.updateTable('user_subscriptions').set({ next_credit_date: next }).where('id', '=', row.id).where('user_id', '=', row.user_id).execute()
        return ok
      })
      if (applied) reloaded += 1
    } catch (error) {
      // One bad row must not stop the others; it is retried on the next run.
      console.error(`[billing] credit reload of subscription ${id} failed:`, error)
    }
  }
  return { due: due.length, reloaded }
}

/**
 * Registers the hourly reload on a started pg-boss instance: the queue, its worker and the
 * schedule (pg-boss keeps one schedule per name, so every process may call this).
 */
export async function registerBillingJobs(boss: PgBoss, { log = () => {} }: { log?: (message: string) => void } = {}): Promise<void> {
  await boss.createQueue(RELOAD_QUEUE, { retryLimit: 2, retryDelay: 60, expireInSeconds: 15 * 60 })
  await boss.work(RELOAD_QUEUE, async () => {
    const summary = await reloadDueCredits()
    if (summary.due) log(`Credit reloads: ${summary.reloaded} applied, ${summary.due} due`)
    return summary
  })
  await boss.schedule(RELOAD_QUEUE, RELOAD_CRON, null, { tz: 'UTC' })
}
