import { describe, expect, it } from 'vitest'
import { canSaveAnotherSearch, creditsPercent, FREE_TRIAL_CREDITS, isSubscriptionCurrent, PLAN_CATALOG, planIdFromLabel, resolvePlan, SAVED_SEARCH_LIMITS } from '#app/domain/plans.ts'

const now = new Date('2026-11-22T12:00:00Z')
const future = '2026-12-22T12:00:00Z'
const past = '2026-11-01T12:00:00Z'

describe('resolvePlan (SPEC §4 subscription rules)', () => {
  it('is free_trial without a subscription', () => {
    expect(resolvePlan(null, now)).toBe('free_trial')
    expect(resolvePlan(undefined, now)).toBe('free_trial')
  })
  it('reads the first word of plan_id, lowercased, for an active subscription in its period', () => {
    expect(resolvePlan({ plan_id: 'Professional Annual', status: 'active', current_period_end: future }, now)).toBe('professional')
    expect(resolvePlan({ plan_id: 'premium', status: 'canceling', current_period_end: future }, now)).toBe('premium')
    expect(resolvePlan({ plan_id: '  BASIC monthly', status: 'active', current_period_end: new Date(future) }, now)).toBe('basic')
  })
  it('falls back to free_trial when the period has ended, the status does not count, or the plan is unknown', () => {
    expect(resolvePlan({ plan_id: 'premium', status: 'active', current_period_end: past }, now)).toBe('free_trial')
    expect(resolvePlan({ plan_id: 'premium', status: 'canceled', current_period_end: future }, now)).toBe('free_trial')
    expect(resolvePlan({ plan_id: 'premium', status: 'past_due', current_period_end: future }, now)).toBe('free_trial')
    expect(resolvePlan({ plan_id: 'enterprise', status: 'active', current_period_end: future }, now)).toBe('free_trial')
    expect(resolvePlan({ plan_id: 'premium', status: 'active', current_period_end: null }, now)).toBe('free_trial')
    expect(resolvePlan({ plan_id: 'premium', status: 'active', current_period_end: 'not a date' }, now)).toBe('free_trial')
  })
  it('treats a period ending exactly now as over', () => {
    expect(isSubscriptionCurrent({ plan_id: 'basic', status: 'active', current_period_end: now.toISOString() }, now)).toBe(false)
  })
  it('parses plan labels', () => {
    expect(planIdFromLabel('free_trial')).toBe('free_trial')
    expect(planIdFromLabel('')).toBeNull()
    expect(planIdFromLabel(null)).toBeNull()
  })
})

describe('plan catalog (SPEC §9)', () => {
  it('has the spec prices and credits', () => {
    expect(PLAN_CATALOG.basic).toEqual({ monthlyCredits: 1500, monthlyPrice: 39, annualMonthlyPrice: 29 })
    expect(PLAN_CATALOG.professional).toEqual({ monthlyCredits: 5000, monthlyPrice: 69, annualMonthlyPrice: 49 })
    expect(PLAN_CATALOG.premium).toEqual({ monthlyCredits: 15000, monthlyPrice: 149, annualMonthlyPrice: 99 })
    expect(FREE_TRIAL_CREDITS).toBe(100)
  })
})

describe('creditsPercent', () => {
  it('is remaining / total as a bounded percentage', () => {
    expect(creditsPercent(50, 100)).toBe(50)
    expect(creditsPercent(1, 3)).toBe(33)
    expect(creditsPercent(0, 0)).toBe(0)
    expect(creditsPercent(200, 100)).toBe(100)
    expect(creditsPercent(-5, 100)).toBe(0)
  })
})

describe('saved-search cap per plan', () => {
  it('grows with the plan, and refuses at the cap', () => {
    expect(SAVED_SEARCH_LIMITS).toEqual({ free_trial: 3, basic: 10, professional: 25, premium: 100 })
    expect(canSaveAnotherSearch('free_trial', 2)).toBe(true)
    expect(canSaveAnotherSearch('free_trial', 3)).toBe(false)
    expect(canSaveAnotherSearch('basic', 9)).toBe(true)
    expect(canSaveAnotherSearch('basic', 10)).toBe(false)
    expect(canSaveAnotherSearch('premium', 99)).toBe(true)
    expect(canSaveAnotherSearch('premium', 300)).toBe(false)
  })
})
