// The realistic latency profile of the demo websites (LATENCY_PROFILE=realistic): the figures the enrichment benchmark
// promises, over many seeded sites.
import { describe, expect, it } from 'vitest'
import { realisticSiteLatency } from '#app/.server/sources/demo/site-latency.ts'

const SITES = Array.from({ length: 10_000 }, (_, i) => realisticSiteLatency(`demo-site-${i}`))

function quantile(sorted: number[], q: number): number {
  return sorted[Math.floor(q * (sorted.length - 1))] as number
}

describe('realistic demo site latency', () => {
  it('answers in a lognormal time: median 1.8 s, p90 3.1 s', () => {
    const delays = SITES.filter((site) => site.behaviour !== 'hang')
      .map((site) => site.delayMs)
      .sort((a, b) => a - b)
    expect(quantile(delays, 0.5)).toBeGreaterThan(1_750)
    expect(quantile(delays, 0.5)).toBeLessThan(1_850)
    expect(quantile(delays, 0.9)).toBeGreaterThan(3_000)
    expect(quantile(delays, 0.9)).toBeLessThan(3_200)
    expect(delays[0]).toBeGreaterThan(0)
  })

  it('has 5 % of sites that never answer, 3 % with a missing homepage and 2 % that redirect', () => {
    const share = (behaviour: string) => SITES.filter((site) => site.behaviour === behaviour).length / SITES.length
    expect(share('hang')).toBeCloseTo(0.05, 2)
    expect(share('not_found')).toBeCloseTo(0.03, 2)
    expect(share('redirect')).toBeCloseTo(0.02, 2)
    expect(SITES.filter((site) => site.behaviour === 'hang').every((site) => site.delayMs === Number.POSITIVE_INFINITY)).toBe(true)
  })

  it('gives a site the same answer on every run', () => {
    expect(realisticSiteLatency('boulangerie-martin-brest')).toEqual(realisticSiteLatency('boulangerie-martin-brest'))
  })
})
