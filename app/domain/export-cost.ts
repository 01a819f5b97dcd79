// What an export will cost before it starts (SPEC §5 Export): credits pay only for successes, so the most it can
// cost is leads × chosen types, and what it is expected to cost follows the fill rate of each type (the share of
// its tasks that succeed). Pure: shared by client and server.

/** A share of tasks that succeed, 0..1, by enrichment type. */
export type FillRates = Readonly<Record<string, number>>

/**
 * Never pay twice, seen before the export: for each enrichment type, the positions (0-based, in the order the export
 * takes the businesses) of the businesses whose result of that type the user already paid within the reuse window.
 * A repeat of a paid enrichment is free, so the estimate leaves them out.
 */
export type PaidPositions = Readonly<Record<string, readonly number[]>>

export interface ExportCostInput {
  /** Leads the export will hold (the match count, capped by the export limit and the user's max leads). */
  leads: number
  /** The chosen enrichment types. */
  types: readonly string[]
  fillRates: FillRates
  /** The user's credit balance. */
  balance: number
  /** What the user already paid for among these businesses (none when unknown). */
  paid?: PaidPositions
}

export interface ExportCost {
  leads: number
  /** Every task succeeds: leads × types. */
  maxCredits: number
  /** Σ over types of leads × fill rate, rounded up (a credit is whole). */
  expectedCredits: number
  /** Leads the balance can enrich in full even if every task succeeds. */
  fullyEnrichableLeads: number
  /** The maximum is more than the balance: the export may stop (interrupted) before its last lead. */
  exceedsBalance: boolean
  /** Leads of which at least one chosen enrichment is already paid (free again). */
  paidLeads: number
  /** Chosen enrichments already paid, over all leads (tasks that cost nothing). */
  paidTasks: number
}

/** How many of the first `leads` businesses have their `type` already paid. */
function paidAmong(paid: PaidPositions | undefined, type: string, leads: number): number {
  return paid?.[type]?.filter((position) => position < leads).length ?? 0
}

function clampRate(rate: number | undefined): number {
  if (rate === undefined || !Number.isFinite(rate)) return 1
  return Math.min(1, Math.max(0, rate))
}

export function exportCost({ leads, types, fillRates, balance, paid }: ExportCostInput): ExportCost {
  const count = Math.max(0, Math.floor(leads))
  const chargeable = (type: string, within: number) => within - paidAmong(paid, type, within)
  const maxCredits = types.reduce((sum, type) => sum + chargeable(type, count), 0)
  // An unknown type counts as always succeeding: the estimate never promises less than it may charge.
  const expected = types.reduce((sum, type) => sum + chargeable(type, count) * clampRate(fillRates[type]), 0)
  const credits = Math.max(0, Math.floor(balance))
  const paidPositions = new Set(types.flatMap((type) => (paid?.[type] ?? []).filter((position) => position < count)))
  return {
    leads: count,
    maxCredits,
    expectedCredits: Math.max(0, Math.ceil(expected - 1e-9)),
    fullyEnrichableLeads: fullyEnrichable(count, credits, (within) => types.reduce((sum, type) => sum + chargeable(type, within), 0)),
    exceedsBalance: maxCredits > credits,
    paidLeads: paidPositions.size,
    paidTasks: types.reduce((sum, type) => sum + paidAmong(paid, type, count), 0),
  }
}

/** The most leads (of `count`) whose chargeable enrichments the balance covers even if every one succeeds. */
function fullyEnrichable(count: number, credits: number, maxCreditsOf: (leads: number) => number): number {
  // maxCreditsOf grows with the leads: the largest n with maxCreditsOf(n) ≤ credits, by bisection.
  let low = 0
  let high = count
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (maxCreditsOf(middle) <= credits) low = middle
    else high = middle - 1
  }
  return low
}

/** The leads an export will hold: what matches (or the lower bound the source allows), within both caps. */
export function exportLeadCount(matches: number, exportCap: number, maxLeads: number | null): number {
  return Math.max(0, Math.min(matches, exportCap, maxLeads ?? Number.POSITIVE_INFINITY))
}

/** The user's cap on an export's leads as search_params.maxLeads stores it, or null when none was set. */
export function storedMaxLeads(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null
}
