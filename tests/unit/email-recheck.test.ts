import { describe, expect, it } from 'vitest'
import { staleEmails } from '#app/.server/exports/email-recheck.ts'

const NOW = new Date('2026-11-25T12:00:00Z')
const check = { status: 'valid' as const, role: false, webmail: false }

describe('staleEmails (EMAIL_RECHECK_DAYS)', () => {
  it('picks the addresses checked longer ago than the window, or never checked', () => {
    const value = {
      email: ['recent@a.fr', 'old@a.fr', 'rechecked@a.fr', 'unchecked@a.fr', 'nosource@a.fr'],
      email_sources: {
        'recent@a.fr': { page: null, found_at: '2026-11-10T00:00:00Z', check },
        'old@a.fr': { page: null, found_at: '2026-10-01T00:00:00Z', check },
        // Found long ago, checked again last week: its check's date counts, not the find's.
        'rechecked@a.fr': { page: null, found_at: '2026-06-01T00:00:00Z', check: { ...check, checked_at: '2026-11-18T00:00:00Z' } },
        'unchecked@a.fr': { page: null, found_at: '2026-11-24T00:00:00Z' },
      },
    }
    expect(staleEmails(value, 30, NOW)).toEqual(['old@a.fr', 'unchecked@a.fr', 'nosource@a.fr'])
    expect(staleEmails(value, 0, NOW)).toEqual(value.email)
  })
})
