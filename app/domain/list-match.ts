/**
 * "Enrich your own list": how a row of the user's file is matched to a business, and what the match on a sample says
 * of the whole file before anything is spent. Pure: the confirm page, the API and the export run read it.
 *
 * A row is matched by its best identifier: its SIRET (the very establishment), its SIREN (the company: the registry
 * gives its head office or the establishment of its postcode), its website (the site itself answers), else its name
 * with its postcode or city (the registry, then the map source, with the registry-first search's matching rules).
 */
import type { ListRowInput } from './list-columns.ts'

export const LIST_MATCH_KINDS = ['siret', 'siren', 'domain', 'name'] as const
export type ListMatchKind = (typeof LIST_MATCH_KINDS)[number]

/** What an export lead made from a list row keeps of its match (export_leads.list_match). */
export interface ListMatchRecord {
  kind: ListMatchKind
  /** `same_company`: the business an earlier row (`sameAs`) was matched to; it comes back once, enriched there. */
  status: 'matched' | 'not_found' | 'same_company'
  sameAs?: number
  /** 0..1: the registry's or the map's confidence; a site that answers is 0.9 (its own legal notice is not read yet). */
  confidence: number | null
  line: number
  /** The row gave the lead's website: finding it is never charged (search-phase.ts, add enrichment). */
  givenWebsite?: boolean
}

/** The identifier a row is matched by first. */
export function rowMatchKind(input: Pick<ListRowInput, 'siret' | 'siren' | 'domain'>): ListMatchKind {
  if (input.siret) return 'siret'
  if (input.siren) return 'siren'
  if (input.domain) return 'domain'
  return 'name'
}

/** Rows matched before launching: all of a small file, else this many spread over the file. */
const LIST_SAMPLE_SIZE = 60

/**
 * The positions (0-based, of `total`) of a sample of `size` spread evenly over the file: a file sorted by region or
 * by source is sampled from end to end, never from its first rows only.
 */
export function samplePositions(total: number, size = LIST_SAMPLE_SIZE): number[] {
  const count = Math.max(0, Math.floor(total))
  if (count <= size) return Array.from({ length: count }, (_, i) => i)
  const step = count / size
  return Array.from({ length: size }, (_, i) => Math.floor(i * step + step / 2))
}

/** The 95 % Wilson score interval of a proportion: what a sample of `n` with `successes` says of the whole. */
export function wilsonInterval(successes: number, n: number, z = 1.96): { low: number; high: number } {
  if (n <= 0) return { low: 0, high: 1 }
  const p = successes / n
  const z2 = z * z
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n)
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n)
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) }
}

/** The match of the sample, as lists.sample stores it. */
export interface ListSampleSummary {
  /** Rows the sample matched (a row whose match failed — the registry down — is not counted). */
  sampled: number
  matched: number
  byKind: Record<ListMatchKind, { sampled: number; matched: number }>
  /** Usable rows of the whole file, by the identifier they are matched by. */
  rowsByKind: Record<ListMatchKind, number>
  /** Matched sample rows the workspace already has as leads (their paid enrichments are free again). */
  alreadyYours: number
  /** Matched sample rows whose enrichment of each type (option key) was paid within the reuse window. */
  paidByType?: Record<string, number>
  /** Sample rows whose match could not be decided (the registry did not answer). */
  failed: number
  /** Every usable row was matched: the figures are exact, not an estimate. */
  exact: boolean
}

export function emptyKindCounts<T>(make: () => T): Record<ListMatchKind, T> {
  return Object.fromEntries(LIST_MATCH_KINDS.map((kind) => [kind, make()])) as Record<ListMatchKind, T>
}

export interface ListMatchEstimate {
  usable: number
  /** Rows expected to match, and the interval the sample gives (equal to it when exact). */
  matched: number
  low: number
  high: number
  rate: number
  /** Matched rows expected to be businesses the workspace has never had. */
  newBusinesses: number
  alreadyYours: number
  exact: boolean
}

/** The whole file's match from its sample: each kind's rate applied to the file's rows of that kind. */
export function estimateMatches(sample: ListSampleSummary): ListMatchEstimate {
  const usable = Object.values(sample.rowsByKind).reduce((sum, n) => sum + n, 0)
  if (sample.exact) {
    const rate = usable ? sample.matched / usable : 0
    return { usable, matched: sample.matched, low: sample.matched, high: sample.matched, rate, newBusinesses: sample.matched - sample.alreadyYours, alreadyYours: sample.alreadyYours, exact: true }
  }
  let matched = 0
  for (const kind of LIST_MATCH_KINDS) {
    const { sampled, matched: hits } = sample.byKind[kind]
    // A kind the sample did not reach is counted at the sample's overall rate.
    const rate = sampled ? hits / sampled : sample.sampled ? sample.matched / sample.sampled : 0
    matched += rate * sample.rowsByKind[kind]
  }
  const rate = usable ? matched / usable : 0
  const interval = wilsonInterval(sample.matched, sample.sampled)
  const yoursShare = sample.matched ? sample.alreadyYours / sample.matched : 0
  const rounded = Math.round(matched)
  const alreadyYours = Math.round(rounded * yoursShare)
  return {
    usable,
    matched: rounded,
    low: Math.floor(interval.low * usable),
    high: Math.ceil(interval.high * usable),
    rate,
    newBusinesses: rounded - alreadyYours,
    alreadyYours,
    exact: false,
  }
}

/**
 * Never pay twice, in the cost panel's terms (PaidPositions): each type's share of already-paid rows in the sample,
 * applied to the `leads` the estimate counts (the first positions, as the panel reads them).
 */
export function estimatedPaidPositions(sample: Pick<ListSampleSummary, 'matched' | 'paidByType'>, leads: number): Record<string, number[]> {
  if (!sample.matched) return {}
  return Object.fromEntries(
    Object.entries(sample.paidByType ?? {}).map(([type, paid]) => [type, Array.from({ length: Math.min(leads, Math.round((paid / sample.matched) * leads)) }, (_, i) => i)]),
  )
}
