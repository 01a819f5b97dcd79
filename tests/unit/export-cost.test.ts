import { describe, expect, it } from 'vitest'
import { parseWithZod } from '@conform-to/zod/v4'
import { CreateExportSchema } from '#app/domain/export-commands.ts'
import { ENRICHMENT_TABLE } from '#app/domain/enrichment-types.ts'
import { exportCost, exportLeadCount, storedMaxLeads } from '#app/domain/export-cost.ts'

const RATES = { phone: 0.8, website: 0.6, email: 0.35, social: 0.4 }

describe('exportCost', () => {
  it('costs at most leads × chosen types, and expects the fill rates of those types', () => {
    const cost = exportCost({ leads: 197, types: ['phone', 'website', 'email', 'social'], fillRates: RATES, balance: 10_000 })
    expect(cost.maxCredits).toBe(788)
    // 197 × (0.8 + 0.6 + 0.35 + 0.4) = 423.55, rounded up to whole credits.
    expect(cost.expectedCredits).toBe(424)
    expect(cost.exceedsBalance).toBe(false)
    expect(cost.fullyEnrichableLeads).toBe(197)
  })

  it('says how many leads the balance fully enriches when the maximum exceeds it (the free trial case)', () => {
    const cost = exportCost({ leads: 197, types: ['phone', 'website', 'email', 'social'], fillRates: RATES, balance: 100 })
    expect(cost.exceedsBalance).toBe(true)
    expect(cost.fullyEnrichableLeads).toBe(25)
    const capped = exportCost({ leads: exportLeadCount(197, 1000, cost.fullyEnrichableLeads), types: ['phone', 'website', 'email', 'social'], fillRates: RATES, balance: 100 })
    expect(capped.maxCredits).toBe(100)
    expect(capped.exceedsBalance).toBe(false)
  })

  it('counts an unknown or broken rate as always succeeding, so the estimate never promises less than the maximum allows', () => {
    expect(exportCost({ leads: 10, types: ['new_type'], fillRates: {}, balance: 5 }).expectedCredits).toBe(10)
    expect(exportCost({ leads: 10, types: ['phone'], fillRates: { phone: Number.NaN }, balance: 5 }).expectedCredits).toBe(10)
    expect(exportCost({ leads: 10, types: ['phone'], fillRates: { phone: 3 }, balance: 5 }).expectedCredits).toBe(10)
    expect(exportCost({ leads: 10, types: ['phone'], fillRates: { phone: -1 }, balance: 5 }).expectedCredits).toBe(0)
  })

  it('costs nothing without leads or without types', () => {
    expect(exportCost({ leads: 0, types: ['phone'], fillRates: RATES, balance: 0 })).toMatchObject({ maxCredits: 0, expectedCredits: 0, exceedsBalance: false })
    expect(exportCost({ leads: 12, types: [], fillRates: RATES, balance: 0 })).toMatchObject({ maxCredits: 0, fullyEnrichableLeads: 12, exceedsBalance: false })
  })
})

describe('exportCost with never-pay-twice', () => {
  const all = Array.from({ length: 197 }, (_, position) => position)

  it('a phone-only repeat of a paid export is quoted at 0, and says every lead is already paid', () => {
    const cost = exportCost({ leads: 197, types: ['phone'], fillRates: RATES, balance: 100, paid: { phone: all } })
    expect(cost).toMatchObject({ leads: 197, maxCredits: 0, expectedCredits: 0, exceedsBalance: false, paidLeads: 197, paidTasks: 197, fullyEnrichableLeads: 197 })
  })

  it('only the positions within the leads count, type by type', () => {
    const paid = { phone: [0, 1, 2, 150], email: [1, 180] }
    const cost = exportCost({ leads: 100, types: ['phone', 'email', 'website'], fillRates: RATES, balance: 10_000, paid })
    // phone: 100 − 3, email: 100 − 1, website: 100.
    expect(cost.maxCredits).toBe(296)
    expect(cost.expectedCredits).toBe(Math.ceil(97 * 0.8 + 99 * 0.35 + 100 * 0.6))
    expect(cost).toMatchObject({ paidLeads: 3, paidTasks: 4 })
    // A type not chosen is not counted, even when paid.
    expect(exportCost({ leads: 100, types: ['website'], fillRates: RATES, balance: 10_000, paid }).paidLeads).toBe(0)
  })

  it('the balance fully enriches more leads when some of them are already paid', () => {
    const paid = { phone: Array.from({ length: 50 }, (_, position) => position) }
    // 2 types × 25 leads = 50 credits without reuse; the first 50 leads cost 1 credit each (email only).
    expect(exportCost({ leads: 197, types: ['phone', 'email'], fillRates: RATES, balance: 50, paid }).fullyEnrichableLeads).toBe(50)
    expect(exportCost({ leads: 197, types: ['phone', 'email'], fillRates: RATES, balance: 50 }).fullyEnrichableLeads).toBe(25)
  })
})

describe('exportLeadCount', () => {
  it('is the match count within the export limit and the user cap', () => {
    expect(exportLeadCount(197, 1000, null)).toBe(197)
    expect(exportLeadCount(5000, 1000, null)).toBe(1000)
    expect(exportLeadCount(197, 1000, 20)).toBe(20)
    expect(exportLeadCount(12, 1000, 20)).toBe(12)
  })
})

describe('storedMaxLeads', () => {
  it('reads a positive whole number, else no cap', () => {
    expect(storedMaxLeads(20)).toBe(20)
    for (const value of [0, -3, 2.5, '20', null, undefined]) expect(storedMaxLeads(value)).toBeNull()
  })
})

describe('default fill rates', () => {
  it('every enrichment type carries a rate within 0..1 and a success line', () => {
    for (const entry of ENRICHMENT_TABLE) {
      expect(entry.defaultFillRate).toBeGreaterThan(0)
      expect(entry.defaultFillRate).toBeLessThanOrEqual(1)
      expect(entry.successKey).toBe(`exports.modal.success.${entry.key}`)
    }
  })
})

describe('max leads in the create-export command', () => {
  function parse(maxLeads: string) {
    const form = new FormData()
    form.set('intent', 'create-export')
    form.set('name', 'Bakeries')
    form.set('maxLeads', maxLeads)
    return parseWithZod(form, { schema: CreateExportSchema })
  }

  it('is optional, and a whole number of at least 1 when given', () => {
    expect(parse('').status).toBe('success')
    const twenty = parse('20')
    expect(twenty.status === 'success' && twenty.value.maxLeads).toBe(20)
    for (const bad of ['0', '-4', '2.5', 'many']) {
      const refused = parse(bad)
      expect(refused.status).toBe('error')
      expect(refused.reply().error?.maxLeads).toEqual(['exports.errors.maxLeadsInvalid'])
    }
  })
})
