/**
 * How fast (and how well) each demo website answers under LATENCY_PROFILE=realistic: a stand-in for the real web,
 * so the enrichment benchmark measures the pipeline against real-world latency rather than a flat 50 ms. Derived from
 * the site's slug alone, so every run meets the same slow, broken and moved sites and runs compare.
 *
 *   response time  lognormal, median 1.8 s, p90 3.1 s (every page of a site answers in its time)
 *   5 %            never answer: the crawler's timeout is what ends the request
 *   3 %            the homepage is a 404
 *   2 %            the homepage redirects (302) to another page of the same site, which then answers
 */
import { hashString, Rng } from './prng.ts'

export type LatencyProfileName = 'flat' | 'realistic'

type SiteBehaviour = 'ok' | 'hang' | 'not_found' | 'redirect'

export interface SiteLatency {
  behaviour: SiteBehaviour
  /** Time before each answer of this site, ms (Infinity when it never answers). */
  delayMs: number
}

const MEDIAN_MS = 1_800
const P90_MS = 3_100
/** The standard normal's 90th percentile: p90 = median · e^(σ·z90), so σ follows from the two figures. */
const Z90 = 1.2815515655446004
const SIGMA = Math.log(P90_MS / MEDIAN_MS) / Z90

/** Cumulative shares: below 0.05 hang, then 404, then redirect. */
const SHARES: ReadonlyArray<readonly [SiteBehaviour, number]> = [
  ['hang', 0.05],
  ['not_found', 0.03],
  ['redirect', 0.02],
]

function behaviourOf(draw: number): SiteBehaviour {
  let bound = 0
  for (const [behaviour, share] of SHARES) {
    bound += share
    if (draw < bound) return behaviour
  }
  return 'ok'
}

/** A standard normal draw (Box–Muller); 1 − next() keeps the logarithm's argument in (0, 1]. */
function standardNormal(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next())
}

/** The realistic profile's answer for one site (its slug). */
export function realisticSiteLatency(slug: string): SiteLatency {
  const rng = new Rng(hashString(`latency:${slug}`))
  const behaviour = behaviourOf(rng.next())
  if (behaviour === 'hang') return { behaviour, delayMs: Number.POSITIVE_INFINITY }
  return { behaviour, delayMs: Math.round(MEDIAN_MS * Math.exp(SIGMA * standardNormal(rng))) }
}

/** Where a redirecting site's homepage sends the crawler (same site, another path). */
export const REDIRECTED_HOME = 'accueil'
