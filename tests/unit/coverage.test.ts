import { describe, expect, it } from 'vitest'
import { estimateShare, shareInPoints } from '#app/domain/coverage.ts'

describe('estimateShare', () => {
  it('gives the 95 % Wilson interval of a sample drawn from a much larger set', () => {
    const estimate = estimateShare(70, 100, 1_000_000)
    expect(estimate.share).toBe(0.7)
    expect(estimate.exact).toBe(false)
    // Wilson for 70/100: [0.6041, 0.7810].
    expect(estimate.low).toBeCloseTo(0.6041, 3)
    expect(estimate.high).toBeCloseTo(0.781, 3)
    expect(shareInPoints(estimate)).toEqual({ percent: 70, margin: 9 })
  })

  it('stays within [0, 1] at the edges, where the normal interval would collapse', () => {
    const none = estimateShare(0, 20, 500)
    expect(none.low).toBe(0)
    expect(none.high).toBeGreaterThan(0.1)
    const all = estimateShare(20, 20, 500)
    expect(all.high).toBe(1)
    expect(all.low).toBeLessThan(0.9)
  })

  it('narrows the interval when the sample is a large part of the set, and is exact for the whole set', () => {
    const wide = estimateShare(70, 100, 100_000)
    const narrow = estimateShare(70, 100, 150)
    expect(narrow.high - narrow.low).toBeLessThan((wide.high - wide.low) * 0.6)
    expect(estimateShare(42, 60, 60)).toMatchObject({ share: 0.7, low: 0.7, high: 0.7, exact: true })
    expect(shareInPoints(estimateShare(42, 60, 60))).toEqual({ percent: 70, margin: 0 })
  })

  it('reads an empty sample as knowing nothing, and clamps impossible counts', () => {
    expect(estimateShare(0, 0, 50)).toMatchObject({ share: 0, low: 0, high: 1, exact: false })
    expect(estimateShare(0, 0, 0)).toMatchObject({ exact: true })
    expect(estimateShare(12, 10, 5)).toMatchObject({ hits: 10, sample: 10, population: 10, exact: true })
  })
})
