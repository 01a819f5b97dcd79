// What an export will cost before it starts (SPEC §5 Export): credits pay only for successes, so the most it can
// cost is leads × chosen types, and what it is expected to cost follows the fill rate of each type (the share of
// its tasks that succeed). Pure: shared by client and server.

/** A share of tasks that succeed, 0..1, by enrichment type. */
export type FillRates = Readonly<Record<string, number>>

export interface ExportCostInput {
  /** Leads the export will hold (the match count, capped by the export limit and the user's max leads). */
  leads: number
  /** The chosen enrichment types. */
  types: readonly string[]
  fillRates: FillRates
  /** The user's credit balance. */
  balance: number
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
}

function clampRate(rate: number | undefined): number {
  if (rate === undefined || !Number.isFinite(rate)) return 1
  return Math.min(1, Math.max(0, rate))
}

export function exportCost({ leads, types, fillRates, balance }: ExportCostInput): ExportCost {
  const count = Math.max(0, Math.floor(leads))
  const perLead = types.length
  const maxCredits = count * perLead
  // An unknown type counts as always succeeding: the estimate never promises less than it may charge.
  const expected = types.reduce((sum, type) => sum + count * clampRate(fillRates[type]), 0)
  const credits = Math.max(0, Math.floor(balance))
  return {
    leads: count,
    maxCredits,
    expectedCredits: Math.max(0, Math.ceil(expected - 1e-9)),
    fullyEnrichableLeads: perLead === 0 ? count : Math.min(count, Math.floor(credits / perLead)),
    exceedsBalance: maxCredits > credits,
  }
}

/** The leads an export will hold: what matches (or the lower bound the source allows), within both caps. */
export function exportLeadCount(matches: number, exportCap: number, maxLeads: number | null): number {
  return Math.max(0, Math.min(matches, exportCap, maxLeads ?? Number.POSITIVE_INFINITY))
}

/** The user's cap on an export's leads as search_params.maxLeads stores it, or null when none was set. */
export function storedMaxLeads(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null
}
