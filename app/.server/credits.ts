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
