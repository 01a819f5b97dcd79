import { describe, expect, it } from 'vitest'
import { formatEuros } from '#app/components/billing/format.ts'
import { planCardAction } from '#app/components/billing/plan-card.tsx'
import {
  addMonths,
  isBillingFrequency,
  isPaidPlanId,
  maxAnnualDiscountPercent,
  monthlyCredits,
  nextCreditDate,
  parseFrequency,
  PLAN_FEATURES,
  planPricing,
} from '#app/domain/billing.ts'

describe('plan prices (SPEC §9)', () => {
  it('charges the monthly price each month on monthly billing', () => {
    expect(planPricing('basic', 'monthly')).toEqual({ plan: 'basic', frequency: 'monthly', pricePerMonth: 39, amountPerPeriod: 39, yearlySavings: 0 })
    expect(planPricing('professional', 'monthly').pricePerMonth).toBe(69)
    expect(planPricing('premium', 'monthly').amountPerPeriod).toBe(149)
  })
  it('shows the annual monthly price and bills it times 12 on annual billing', () => {
    expect(planPricing('basic', 'annual')).toEqual({ plan: 'basic', frequency: 'annual', pricePerMonth: 29, amountPerPeriod: 348, yearlySavings: 120 })
    expect(planPricing('professional', 'annual')).toMatchObject({ pricePerMonth: 49, amountPerPeriod: 588, yearlySavings: 240 })
    expect(planPricing('premium', 'annual')).toMatchObject({ pricePerMonth: 99, amountPerPeriod: 1188, yearlySavings: 600 })
  })
  it('advertises the best annual discount, rounded down so it is never overstated', () => {
    // premium: (149 - 99) / 149 = 33.6 %
    expect(maxAnnualDiscountPercent()).toBe(33)
  })
  it('grants the monthly credits of each plan', () => {
    expect([monthlyCredits('basic'), monthlyCredits('professional'), monthlyCredits('premium')]).toEqual([1500, 5000, 15000])
  })
  it('formats euros in the active language', () => {
    expect(formatEuros(348, 'en')).toBe('€348')
    expect(formatEuros(69, 'en', { cents: true })).toBe('€69.00')
    expect(formatEuros(348, 'fr').replace(/\s/g, ' ')).toBe('348 €')
  })
})

describe('plan features', () => {
  it('gives basic email, phone and social enrichment and search by activity, department and city', () => {
    expect(PLAN_FEATURES.basic).toEqual(expect.arrayContaining(['enrichContacts', 'searchByActivity', 'searchByDepartmentCity']))
    expect(PLAN_FEATURES.basic).not.toContain('searchByRegion')
  })
  it('adds search by region to professional and premium', () => {
    for (const plan of ['professional', 'premium'] as const) {
      expect(PLAN_FEATURES[plan]).toEqual(expect.arrayContaining([...PLAN_FEATURES.basic, 'searchByRegion']))
    }
  })
})

describe('frequencies and plan ids', () => {
  it('parses ?frequency=, falling back for anything unknown', () => {
    expect(parseFrequency('annual')).toBe('annual')
    expect(parseFrequency(' Annual ')).toBe('annual')
    expect(parseFrequency('yearly')).toBe('annual')
    expect(parseFrequency('monthly', 'annual')).toBe('monthly')
    expect(parseFrequency(null)).toBe('monthly')
    expect(parseFrequency('weekly')).toBe('monthly')
    expect(parseFrequency(undefined, 'annual')).toBe('annual')
    expect(parseFrequency(['annual'])).toBe('monthly')
  })
  it('is strict where the API needs it', () => {
    expect(isBillingFrequency('annual')).toBe(true)
    expect(isBillingFrequency('yearly')).toBe(false)
    expect(isBillingFrequency('Monthly')).toBe(false)
    expect(isPaidPlanId('premium')).toBe(true)
    expect(isPaidPlanId('free_trial')).toBe(false)
    expect(isPaidPlanId('enterprise')).toBe(false)
  })
})

describe('monthly credit dates', () => {
  it('adds calendar months, clamping to the end of shorter months', () => {
    expect(addMonths(new Date('2027-01-31T10:00:00Z'), 1).toISOString()).toBe('2027-02-28T10:00:00.000Z')
    expect(addMonths(new Date('2028-01-31T10:00:00Z'), 1).toISOString()).toBe('2028-02-29T10:00:00.000Z')
    expect(addMonths(new Date('2027-03-15T00:00:00Z'), 12).toISOString()).toBe('2028-03-15T00:00:00.000Z')
    expect(addMonths(new Date('2027-03-31T00:00:00Z'), -1).toISOString()).toBe('2027-02-28T00:00:00.000Z')
  })
  it('reloads an annual plan every month of its year', () => {
    const periodStart = new Date('2027-01-15T09:00:00Z')
    const periodEnd = addMonths(periodStart, 12)
    const at = (iso: string) => nextCreditDate({ periodStart, periodEnd, after: new Date(iso), canceling: false })?.toISOString()
    expect(at('2027-01-15T09:00:00Z')).toBe('2027-02-15T09:00:00.000Z')
    expect(at('2027-03-20T00:00:00Z')).toBe('2027-04-15T09:00:00.000Z')
    expect(at('2027-04-15T09:00:00Z')).toBe('2027-05-15T09:00:00.000Z')
    // The last month: the next reload is the renewal itself.
    expect(at('2027-12-20T00:00:00Z')).toBe(periodEnd.toISOString())
  })
  it('has no reload left at the end of a canceling subscription', () => {
    const periodStart = new Date('2027-01-15T09:00:00Z')
    expect(nextCreditDate({ periodStart, periodEnd: addMonths(periodStart, 1), after: periodStart, canceling: true })).toBeNull()
    expect(nextCreditDate({ periodStart, periodEnd: addMonths(periodStart, 1), after: periodStart, canceling: false })?.toISOString()).toBe('2027-02-15T09:00:00.000Z')
    const annualEnd = addMonths(periodStart, 12)
    expect(nextCreditDate({ periodStart, periodEnd: annualEnd, after: new Date('2027-06-01T00:00:00Z'), canceling: true })?.toISOString()).toBe('2027-06-15T09:00:00.000Z')
    expect(nextCreditDate({ periodStart, periodEnd: annualEnd, after: new Date('2027-12-16T00:00:00Z'), canceling: true })).toBeNull()
  })
})

describe('plan card buttons (SPEC §4: free trial → checkout, paid → portal)', () => {
  const t = (key: string, options?: Record<string, unknown>) => `${key}${options ? JSON.stringify(options) : ''}`
  it('sends a free-trial user to checkout for that plan', () => {
    expect(planCardAction({ plan: 'professional', frequency: 'annual', currentPlan: 'free_trial', currentFrequency: null, t })).toMatchObject({ intent: 'checkout', variant: 'primary' })
  })
  it('sends a paid user to the portal: manage on their plan, switch on the others', () => {
    expect(planCardAction({ plan: 'professional', frequency: 'monthly', currentPlan: 'professional', currentFrequency: 'monthly', t })).toEqual({ intent: 'portal', label: 'subscription.manage', variant: 'primary' })
    expect(planCardAction({ plan: 'professional', frequency: 'annual', currentPlan: 'professional', currentFrequency: 'monthly', t }).label).toContain('subscription.switchFrequency')
    expect(planCardAction({ plan: 'premium', frequency: 'monthly', currentPlan: 'basic', currentFrequency: 'monthly', t })).toMatchObject({ intent: 'portal', variant: 'secondary' })
  })
})
