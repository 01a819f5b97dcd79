import { describe, expect, it } from 'vitest'
import { ENRICHMENT } from '#app/domain/enrichment-types.ts'
import { formatEmailSources, isoDay } from '#app/domain/lead-file-values.ts'

describe('email provenance in the file', () => {
  const sources = {
    'contact@paul.fr': { page: 'https://paul.fr/contact', found_at: '2026-11-21T09:30:00.000Z' },
    'paul@paul.fr': { page: null, found_at: '2026-11-22T23:59:00.000Z' },
  }

  it('gives each email, in the lead order, its page and day; an email without a page keeps its day', () => {
    expect(formatEmailSources(['paul@paul.fr', 'contact@paul.fr'], sources)).toBe('paul@paul.fr (2026-11-22); contact@paul.fr: https://paul.fr/contact (2026-11-21)')
  })

  it('leaves out emails it has no source for, and is empty without sources', () => {
    expect(formatEmailSources(['other@paul.fr', 'contact@paul.fr'], sources)).toBe('contact@paul.fr: https://paul.fr/contact (2026-11-21)')
    expect(formatEmailSources(['contact@paul.fr'], {})).toBeNull()
    expect(formatEmailSources(['contact@paul.fr'], null)).toBeNull()
    expect(formatEmailSources('contact@paul.fr', sources)).toBeNull()
  })

  it('is a file column of the email type, after the emails', () => {
    const keys = ENRICHMENT.email.fileColumns.map((column) => column.key)
    expect(keys).toEqual(['email', 'email_sources', 'email_checks'])
    const row = { email: ['contact@paul.fr'], email_sources: sources }
    expect(ENRICHMENT.email.fileColumns[1]?.value(row)).toBe('contact@paul.fr: https://paul.fr/contact (2026-11-21)')
  })

  it('isoDay reads timestamps and refuses anything else', () => {
    expect(isoDay('2026-11-20T08:00:00+00:00')).toBe('2026-11-20')
    expect(isoDay('not a date')).toBeNull()
    expect(isoDay(42)).toBeNull()
  })
})
