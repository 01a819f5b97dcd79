// Billing rules (SPEC §4, §9): prices, totals, features and billing frequencies. Pure functions,
// shared by the subscription page, the billing service, the sandbox and the tests.
import { PAID_PLAN_IDS, PLAN_CATALOG, type PaidPlanId, type PlanId } from './plans.ts'

export const CURRENCY = 'EUR'

export const BILLING_FREQUENCIES = ['monthly', 'annual'] as const
export type BillingFrequency = (typeof BILLING_FREQUENCIES)[number]

export function isBillingFrequency(value: unknown): value is BillingFrequency {
  return typeof value === 'string' && (BILLING_FREQUENCIES as readonly string[]).includes(value)
}

/** `?frequency=annual` → 'annual'; anything else (missing, unknown) → the fallback. */
export function parseFrequency(value: unknown, fallback: BillingFrequency = 'monthly'): BillingFrequency {
  if (typeof value !== 'string') return fallback
  const normalized = value.trim().toLowerCase()
  if (normalized === 'annual' || normalized === 'yearly' || normalized === 'year') return 'annual'
  if (normalized === 'monthly' || normalized === 'month') return 'monthly'
  return fallback
}

export function isPaidPlanId(value: unknown): value is PaidPlanId {
  return typeof value === 'string' && (PAID_PLAN_IDS as readonly string[]).includes(value)
}

export interface PlanPricing {
  plan: PaidPlanId
  frequency: BillingFrequency
  /** What one month costs on this frequency (the big number on the card), in euros. */
  pricePerMonth: number
  /** What is charged each billing period: one month, or the annual monthly price × 12. */
  amountPerPeriod: number
  /** Whole euros saved over a year compared with paying monthly (0 on monthly). */
  yearlySavings: number
}

/** SPEC §9: the annual total shown is the annual monthly price times 12. */
export function planPricing(plan: PaidPlanId, frequency: BillingFrequency): PlanPricing {
  const catalog = PLAN_CATALOG[plan]
  const pricePerMonth = frequency === 'annual' ? catalog.annualMonthlyPrice : catalog.monthlyPrice
  return {
    plan,
    frequency,
    pricePerMonth,
    amountPerPeriod: frequency === 'annual' ? catalog.annualMonthlyPrice * 12 : catalog.monthlyPrice,
    yearlySavings: frequency === 'annual' ? (catalog.monthlyPrice - catalog.annualMonthlyPrice) * 12 : 0,
  }
}

/** The best annual discount of the catalogue, as a whole percentage (for "save up to N%"). */
export function maxAnnualDiscountPercent(): number {
  return Math.max(
    ...PAID_PLAN_IDS.map((plan) => {
      const { monthlyPrice, annualMonthlyPrice } = PLAN_CATALOG[plan]
      return Math.floor(((monthlyPrice - annualMonthlyPrice) / monthlyPrice) * 100)
    }),
  )
}

export function monthlyCredits(plan: PaidPlanId): number {
  return PLAN_CATALOG[plan].monthlyCredits
}

/**
 * What each plan includes (SPEC §9), as locale keys under `subscription.features`. Basic: email,
 * phone and social enrichment; search by activity, department and city. Professional and premium
 * add search by a whole region; premium differs by its credits.
 */
export const PLAN_FEATURES: Record<PaidPlanId, readonly PlanFeature[]> = {
  basic: ['enrichContacts', 'searchByActivity', 'searchByDepartmentCity', 'downloads'],
  professional: ['enrichContacts', 'searchByActivity', 'searchByDepartmentCity', 'searchByRegion', 'downloads'],
  premium: ['enrichContacts', 'searchByActivity', 'searchByDepartmentCity', 'searchByRegion', 'downloads'],
}
export type PlanFeature = 'enrichContacts' | 'searchByActivity' | 'searchByDepartmentCity' | 'searchByRegion' | 'downloads'

/** Adds calendar months in UTC, clamping to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime())
  const day = result.getUTCDate()
  result.setUTCDate(1)
  result.setUTCMonth(result.getUTCMonth() + months)
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate()
  result.setUTCDate(Math.min(day, lastDay))
  return result
}

export function periodMonths(frequency: BillingFrequency): number {
  return frequency === 'annual' ? 12 : 1
}

/**
 * The next monthly credit reload of a period (annual plans reload monthly too): the first
 * `periodStart + k months` (k ≥ 1) strictly after `after`. Reaching the period end means the next
 * reload is the renewal itself: the period end when the subscription renews, none when it ends.
 */
export function nextCreditDate({
  periodStart,
  periodEnd,
  after,
  canceling,
}: {
  periodStart: Date
  periodEnd: Date
  after: Date
  canceling: boolean
}): Date | null {
  let k = 1
  let candidate = addMonths(periodStart, k)
  while (candidate.getTime() <= after.getTime() && candidate.getTime() < periodEnd.getTime() && k < 240) {
    k += 1
    candidate = addMonths(periodStart, k)
  }
  if (candidate.getTime() >= periodEnd.getTime()) return canceling ? null : periodEnd
  return candidate
}

/**
 * The plan the subscription page recommends: the next tier up from the user's plan (Professional for
 * a free-trial user, the usual step from a trial); none once on the top plan.
 */
export function recommendedPlan(current: PlanId): PaidPlanId | null {
  if (current === 'free_trial') return 'professional'
  const next = PAID_PLAN_IDS[PAID_PLAN_IDS.indexOf(current) + 1]
  return next ?? null
}
