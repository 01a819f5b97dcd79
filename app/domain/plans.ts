// Plan rules (SPEC §4, §5, §9). Pure functions: shared by the server, the client and the tests.

export const PLAN_IDS = ['free_trial', 'basic', 'professional', 'premium'] as const
export type PlanId = (typeof PLAN_IDS)[number]
export type PaidPlanId = Exclude<PlanId, 'free_trial'>
export const PAID_PLAN_IDS: readonly PaidPlanId[] = ['basic', 'professional', 'premium']

/** Credits granted when an account is created (the spec leaves it open; see README). */
export const FREE_TRIAL_CREDITS = 100

export const PLAN_CATALOG: Record<PaidPlanId, { monthlyCredits: number; monthlyPrice: number; annualMonthlyPrice: number }> = {
  basic: { monthlyCredits: 1500, monthlyPrice: 39, annualMonthlyPrice: 29 },
  professional: { monthlyCredits: 5000, monthlyPrice: 69, annualMonthlyPrice: 49 },
  premium: { monthlyCredits: 15000, monthlyPrice: 149, annualMonthlyPrice: 99 },
}

/**
 * Saved searches a user may keep, by plan (issue 28: 300 were created in 3 s, and each scheduled one spends the
 * shared source budgets). Generous for each plan's use; the spec sets no figure.
 */
export const SAVED_SEARCH_LIMITS: Record<PlanId, number> = { free_trial: 3, basic: 10, professional: 25, premium: 100 }

/** Whether a user on `plan` who keeps `count` saved searches may save one more. */
export function canSaveAnotherSearch(plan: PlanId, count: number): boolean {
  return count < SAVED_SEARCH_LIMITS[plan]
}

export interface SubscriptionRecord {
  plan_id: string | null
  status: string | null
  current_period_end: string | Date | null
}

/** "Professional Annual" → "professional"; anything unknown → null. */
export function planIdFromLabel(planLabel: string | null | undefined): PlanId | null {
  const first = (planLabel ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? ''
  return (PLAN_IDS as readonly string[]).includes(first) ? (first as PlanId) : null
}

/**
 * A subscription counts only while its period end is in the future and its status is active
 * or canceling; otherwise (or with none) the user is on free_trial.
 */
export function isSubscriptionCurrent(subscription: SubscriptionRecord, now: Date = new Date()): boolean {
  if (subscription.status !== 'active' && subscription.status !== 'canceling') return false
  if (!subscription.current_period_end) return false
  const end = new Date(subscription.current_period_end)
  return !Number.isNaN(end.getTime()) && end.getTime() > now.getTime()
}

export function resolvePlan(subscription: SubscriptionRecord | null | undefined, now: Date = new Date()): PlanId {
  if (!subscription || !isSubscriptionCurrent(subscription, now)) return 'free_trial'
  return planIdFromLabel(subscription.plan_id) ?? 'free_trial'
}

/** Share of credits left, 0–100, for the credits bar. */
export function creditsPercent(remaining: number, total: number): number {
  if (!Number.isFinite(remaining) || !Number.isFinite(total) || total <= 0) return 0
  return Math.max(0, Math.min(100, Math.round((remaining / total) * 100)))
}

export interface CreditsSummary {
  remaining: number
  total: number
  plan: PlanId
  nextReloadDate: string | null
  /** false when the figures could not be read: the header then shows 0/0 and Free Trial (SPEC §8). */
  ok: boolean
  /** A member with a monthly cap (issue 29 item 4): the cap and what is left of it this month; null when uncapped. */
  memberCap?: { cap: number; left: number } | null
}
