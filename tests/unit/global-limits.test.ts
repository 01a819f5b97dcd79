// The pure parts of the global limits (app/.server/limits/): how long a waiter waits before asking again, which key a
// website's requests count under, which windows a Google Places call counts in.
import { describe, expect, it } from 'vitest'
import { hostLimitKey } from '#app/.server/enrichment/http.ts'
import { pollDelay } from '#app/.server/limits/polling.ts'
import { googleQuota } from '#app/.server/sources/google.ts'

describe('pollDelay', () => {
  it('starts short and doubles up to the ceiling', () => {
    const ceilings = [0, 1, 2, 3, 4, 5, 6, 30].map((attempt) => pollDelay(attempt, 0.999_999, { firstMs: 10, maxMs: 250 }))
    expect(ceilings).toEqual([10, 20, 40, 80, 160, 250, 250, 250])
  })

  it('is jittered between half and all of the step, never zero', () => {
    expect(pollDelay(2, 0, { firstMs: 10, maxMs: 250 })).toBe(20)
    expect(pollDelay(0, 0, { firstMs: 1, maxMs: 250 })).toBe(1)
    const spread = new Set(Array.from({ length: 50 }, (_, i) => pollDelay(4, i / 50)))
    expect(spread.size).toBeGreaterThan(20)
  })
})

describe('hostLimitKey', () => {
  it('is the host and port, without www., the same for every path and for both spellings of the site', () => {
    expect(hostLimitKey(new URL('https://www.boulangerie-martin.fr/contact'))).toBe('boulangerie-martin.fr:443')
    expect(hostLimitKey(new URL('https://boulangerie-martin.fr/'))).toBe('boulangerie-martin.fr:443')
    expect(hostLimitKey(new URL('http://Boulangerie-Martin.FR./a-propos'))).toBe('boulangerie-martin.fr:80')
    expect(hostLimitKey(new URL('http://127.0.0.1:4321/site-3/'))).toBe('127.0.0.1:4321')
  })

  it('keeps other subdomains apart (a shared host of many sites is not one site)', () => {
    expect(hostLimitKey(new URL('https://martin.wixsite.com/'))).not.toBe(hostLimitKey(new URL('https://dupont.wixsite.com/')))
  })
})

describe('googleQuota', () => {
  it('counts a call per minute, and per day when a daily cap is set, under a key that never holds the API key', () => {
    const { key: pauseKey, windows } = googleQuota('https://places.googleapis.com/v1/places:searchText', 'AIza-secret', 600, 5_000)
    expect(pauseKey).toMatch(/^google-places:places\.googleapis\.com:[0-9a-f]{16}$/)
    expect(windows.map(({ limit, windowMs }) => ({ limit, windowMs }))).toEqual([
      { limit: 600, windowMs: 60_000 },
      { limit: 5_000, windowMs: 86_400_000 },
    ])
    for (const { key } of windows) {
      expect(key).toMatch(/^google-places:places\.googleapis\.com:[0-9a-f]{16}:(minute|day)$/)
      expect(key).not.toContain('secret')
    }
    expect(googleQuota('https://places.googleapis.com/x', 'AIza-secret', 600, undefined).windows).toHaveLength(1)
    // Two projects (two keys) have two quotas.
    expect(googleQuota('https://places.googleapis.com/x', 'other', 600, undefined).key).not.toBe(pauseKey)
  })
})
