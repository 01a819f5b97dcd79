// The match before launching (app/domain/list-match.ts): which identifier a row is matched by, a sample spread over
// the whole file, the 95 % interval a sample gives, and the file's figures from its sample.
import { describe, expect, it } from 'vitest'
import { emptyKindCounts, estimatedPaidPositions, estimateMatches, rowMatchKind, samplePositions, wilsonInterval, type ListSampleSummary } from '#app/domain/list-match.ts'

const row = (ids: Partial<{ siret: string; siren: string; domain: string }>) => ({ siret: null, siren: null, domain: null, ...ids })

describe('rowMatchKind', () => {
  it('takes the surest identifier a row gives: SIRET, SIREN, website, then name and place', () => {
    expect(rowMatchKind(row({ siret: '73282932000009', siren: '732829320', domain: 'acme.fr' }))).toBe('siret')
    expect(rowMatchKind(row({ siren: '732829320', domain: 'acme.fr' }))).toBe('siren')
    expect(rowMatchKind(row({ domain: 'acme.fr' }))).toBe('domain')
    expect(rowMatchKind(row({}))).toBe('name')
  })
})

describe('samplePositions', () => {
  it('takes every row of a small file', () => {
    expect(samplePositions(5, 60)).toEqual([0, 1, 2, 3, 4])
    expect(samplePositions(0)).toEqual([])
  })

  it('spreads a big file\'s sample from its first to its last rows, each row once', () => {
    const positions = samplePositions(10_000, 60)
    expect(positions).toHaveLength(60)
    expect(new Set(positions).size).toBe(60)
    expect(positions[0]).toBeLessThan(200)
    expect(positions.at(-1)).toBeGreaterThan(9_800)
    expect(positions.every((position, i) => i === 0 || position > positions[i - 1]!)).toBe(true)
  })
})

describe('wilsonInterval', () => {
  it('brackets the sample\'s proportion, narrower as the sample grows, within 0..1', () => {
    const small = wilsonInterval(41, 50)
    const big = wilsonInterval(820, 1000)
    expect(small.low).toBeLessThan(0.82)
    expect(small.high).toBeGreaterThan(0.82)
    expect(big.high - big.low).toBeLessThan(small.high - small.low)
    // Known values of the Wilson score interval (z = 1.96): 41 of 50 → 0.692..0.902.
    expect(small.low).toBeCloseTo(0.692, 3)
    expect(small.high).toBeCloseTo(0.902, 3)
    expect(wilsonInterval(0, 20).low).toBe(0)
    expect(wilsonInterval(20, 20).high).toBe(1)
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 })
  })
})

function summary(overrides: Partial<ListSampleSummary>): ListSampleSummary {
  return { sampled: 0, matched: 0, byKind: emptyKindCounts(() => ({ sampled: 0, matched: 0 })), rowsByKind: emptyKindCounts(() => 0), alreadyYours: 0, failed: 0, exact: false, ...overrides }
}

describe('estimateMatches', () => {
  it('gives an exact file its own figures', () => {
    const estimate = estimateMatches(summary({ sampled: 5, matched: 4, alreadyYours: 1, exact: true, rowsByKind: { siret: 1, siren: 0, domain: 0, name: 4 } }))
    expect(estimate).toEqual({ usable: 5, matched: 4, low: 4, high: 4, rate: 0.8, newBusinesses: 3, alreadyYours: 1, exact: true })
  })

  it('applies each kind\'s rate in the sample to the file\'s rows of that kind, with the sample\'s interval', () => {
    // 2 000 rows: SIRETs always match, names half of the time.
    const estimate = estimateMatches(
      summary({
        sampled: 60,
        matched: 40,
        alreadyYours: 10,
        byKind: { siret: { sampled: 20, matched: 20 }, siren: { sampled: 0, matched: 0 }, domain: { sampled: 0, matched: 0 }, name: { sampled: 40, matched: 20 } },
        rowsByKind: { siret: 600, siren: 0, domain: 0, name: 1_400 },
      }),
    )
    expect(estimate.matched).toBe(600 + 700)
    expect(estimate.rate).toBeCloseTo(0.65, 5)
    expect(estimate.alreadyYours).toBe(Math.round(1_300 * 0.25))
    expect(estimate.newBusinesses).toBe(1_300 - estimate.alreadyYours)
    expect(estimate.low).toBeLessThan(estimate.matched)
    expect(estimate.high).toBeGreaterThan(estimate.matched)
    expect(estimate.high).toBeLessThanOrEqual(2_000)
  })

  it('counts a kind the sample missed at the sample\'s overall rate', () => {
    const estimate = estimateMatches(summary({ sampled: 10, matched: 5, byKind: { ...emptyKindCounts(() => ({ sampled: 0, matched: 0 })), name: { sampled: 10, matched: 5 } }, rowsByKind: { siret: 0, siren: 0, domain: 2, name: 100 } }))
    expect(estimate.matched).toBe(51)
  })
})

describe('estimatedPaidPositions', () => {
  it('gives each type its sample share of already-paid rows, as the first positions of the leads counted', () => {
    expect(estimatedPaidPositions({ matched: 40, paidByType: { phone: 10, email: 0 } }, 100)).toEqual({ phone: Array.from({ length: 25 }, (_, i) => i), email: [] })
    expect(estimatedPaidPositions({ matched: 0, paidByType: { phone: 3 } }, 100)).toEqual({})
    expect(estimatedPaidPositions({ matched: 4 }, 100)).toEqual({})
  })
})
