/**
 * How much of a registry set the map source covers (issue 22 item 3), from a sample of the set: a proportion with
 * its 95 % Wilson interval. Wilson rather than the normal approximation because shares near 0 or 100 % (a village
 * where every bakery is on the map) are common and the normal interval would leave [0, 1] or collapse to ± 0. When
 * the sample is a large part of the set, the finite-population correction narrows the interval; when it is the
 * whole set, the share is exact.
 */

/** Two-sided 95 % normal quantile. */
const Z_95 = 1.959963984540054

export interface ShareEstimate {
  /** Items that have the property, in the sample. */
  hits: number
  /** Items checked. */
  sample: number
  /** The set the sample was drawn from (≥ sample). */
  population: number
  /** hits / sample (0 for an empty sample). */
  share: number
  /** The 95 % interval, within [0, 1]; equal to share when exact. */
  low: number
  high: number
  /** The sample is the whole set: share is a count, not an estimate. */
  exact: boolean
}

/** The 95 % Wilson score interval of hits/sample, narrowed by the finite-population correction for `population`. */
export function estimateShare(hits: number, sample: number, population: number): ShareEstimate {
  const n = Math.max(0, Math.floor(sample))
  const k = Math.min(n, Math.max(0, Math.floor(hits)))
  const size = Math.max(n, Math.floor(population))
  if (n === 0) return { hits: 0, sample: 0, population: size, share: 0, low: 0, high: 1, exact: size === 0 }
  const share = k / n
  if (n >= size) return { hits: k, sample: n, population: size, share, low: share, high: share, exact: true }
  // The finite-population correction as an effective sample size, n·(N−1)/(N−n): the interval stays a Wilson one
  // (within [0, 1], from 0 when nothing was found) and narrows as the sample nears the whole set.
  const effective = size > 1 ? (n * (size - 1)) / (size - n) : n
  const z2 = Z_95 * Z_95
  const denominator = 1 + z2 / effective
  const centre = (share + z2 / (2 * effective)) / denominator
  const half = (Z_95 / denominator) * Math.sqrt((share * (1 - share)) / effective + z2 / (4 * effective * effective))
  // Rounding leaves 1 − ε where the bound is exactly 0 or 1 (nothing or everything found).
  const low = k === 0 ? 0 : Math.max(0, centre - half)
  const high = k === n ? 1 : Math.min(1, centre + half)
  return { hits: k, sample: n, population: size, share, low, high, exact: false }
}

/** The estimate as shown: a whole percentage and "± points", the interval's half-width (Wilson's is not centred on the share). */
export function shareInPoints(estimate: ShareEstimate): { percent: number; margin: number } {
  const percent = Math.round(estimate.share * 100)
  const margin = estimate.exact ? 0 : Math.round(((estimate.high - estimate.low) / 2) * 100)
  return { percent, margin }
}

/** The coverage panel's figures: shares of the registry's set found on the map source, and found there with a website. */
export interface MapCoverage {
  onMap: ShareEstimate
  withWebsite: ShareEstimate
  source: 'demo' | 'osm' | 'google'
}
