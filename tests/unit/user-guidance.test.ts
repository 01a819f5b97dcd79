import { describe, expect, it } from 'vitest'
import { recommendedPlan } from '#app/domain/billing.ts'
import { ExportNameSchema } from '#app/domain/export-commands.ts'
import { canStartExport, errorNeedsPlans, EXPORT_ERROR_CODES, EXPORT_NAME_MAX, PLANS_PATH, plansHint } from '#app/domain/exports.ts'
import en from '#app/locales/en.json'
import fr from '#app/locales/fr.json'

describe('the way to the plans beside credit errors', () => {
  it('is offered for insufficient credits only', () => {
    expect(errorNeedsPlans('insufficient_credits')).toBe(true)
    for (const code of EXPORT_ERROR_CODES.filter((code) => code !== 'insufficient_credits')) expect(errorNeedsPlans(code)).toBe(false)
    expect(errorNeedsPlans(undefined)).toBe(false)
    expect(errorNeedsPlans(402)).toBe(false)
  })

  it('names the subscription page in API answers', () => {
    expect(PLANS_PATH).toBe('/subscription')
    expect(plansHint('insufficient_credits')).toEqual({ plansUrl: '/subscription' })
    expect(plansHint('not_found')).toEqual({})
    expect(plansHint(undefined)).toEqual({})
  })
})

describe('canStartExport', () => {
  it('needs at least one credit', () => {
    expect(canStartExport(0)).toBe(false)
    expect(canStartExport(-3)).toBe(false)
    expect(canStartExport(Number.NaN)).toBe(false)
    expect(canStartExport(1)).toBe(true)
    expect(canStartExport(5000)).toBe(true)
  })
})

describe('ExportNameSchema (the export modal, client and server)', () => {
  const errorsOf = (name: unknown) => {
    const result = ExportNameSchema.safeParse({ name })
    return result.success ? [] : result.error.issues.map((issue) => issue.message)
  }

  it('requires a name, blanks included, with the locale key as message', () => {
    expect(errorsOf('')).toEqual(['exports.errors.nameRequired'])
    expect(errorsOf('   ')).toEqual(['exports.errors.nameRequired'])
    expect(errorsOf(undefined)).toEqual(['exports.errors.nameRequired'])
  })

  it('counts characters, not UTF-16 units, up to the maximum', () => {
    expect(errorsOf('é'.repeat(EXPORT_NAME_MAX))).toEqual([])
    expect(errorsOf('😀'.repeat(EXPORT_NAME_MAX))).toEqual([])
    expect(errorsOf('a'.repeat(EXPORT_NAME_MAX + 1))).toEqual(['exports.errors.nameTooLong'])
  })

  it('trims the accepted name', () => {
    expect(ExportNameSchema.parse({ name: '  Bakeries  ' })).toEqual({ name: 'Bakeries' })
  })
})

describe('recommendedPlan (subscription page)', () => {
  it('is the next tier up, none on the top plan', () => {
    expect(recommendedPlan('free_trial')).toBe('professional')
    expect(recommendedPlan('basic')).toBe('professional')
    expect(recommendedPlan('professional')).toBe('premium')
    expect(recommendedPlan('premium')).toBeNull()
  })
})

describe('demo notice', () => {
  it('speaks to sales users, not operators', () => {
    for (const locale of [en, fr]) {
      expect(locale.search.demoNotice).not.toMatch(/LEADS_SOURCE|environment|variable/i)
    }
    expect(en.search.demoNotice).toMatch(/generated/)
    expect(fr.search.demoNotice).toMatch(/générées/)
  })
})
