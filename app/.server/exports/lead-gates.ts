/**
 * Lead gates: what the search phase leaves out of an export before any task exists, so nothing left out is ever
 * charged. Each gate names its reason; the export counts what each left out (exports.excluded) and its page says so.
 *
 * A gate is built once per run from the export (its search, its options, its user's lists) and then judges batches
 * of businesses as the source yields them. A new rule is one factory in GATE_FACTORIES.
 */
import type { Kysely } from 'kysely'
import type { Database } from '#app/.server/db.ts'
import type { Business } from '#app/.server/sources/types.ts'
import { alreadyExportedGate, doNotContactGate } from './exclusion-gates.ts'
import type { ExportRow } from './export-run.ts'
import { filterGate } from './filter-gate.ts'
import { riskGate } from './risk-gate.ts'

export interface LeadGate {
  /** Judges one batch: the reason each left-out business is left out for (businesses not in the map are kept). */
  judge(batch: readonly Business[]): Promise<ReadonlyMap<Business, string>> | ReadonlyMap<Business, string>
}

/** Builds a gate for one run, or null when the export does not ask for it. */
export type LeadGateFactory = (db: Kysely<Database>, row: ExportRow) => Promise<LeadGate | null>

const GATE_FACTORIES: readonly LeadGateFactory[] = [filterGate, alreadyExportedGate, doNotContactGate, riskGate]

export interface GateVerdict {
  kept: Business[]
  /** Left out in this batch, by reason. */
  excluded: Record<string, number>
}

/** The gates an export's run applies, in order (a business left out by one is not shown to the next). */
export async function gatesFor(db: Kysely<Database>, row: ExportRow, factories: readonly LeadGateFactory[] = GATE_FACTORIES): Promise<LeadGate[]> {
  const gates = await Promise.all(factories.map((factory) => factory(db, row)))
  return gates.filter((gate): gate is LeadGate => gate !== null)
}

export async function applyGates(gates: readonly LeadGate[], batch: readonly Business[]): Promise<GateVerdict> {
  let kept = [...batch]
  const excluded: Record<string, number> = {}
  for (const gate of gates) {
    if (kept.length === 0) break
    const verdicts = await gate.judge(kept)
    if (verdicts.size === 0) continue
    for (const reason of verdicts.values()) excluded[reason] = (excluded[reason] ?? 0) + 1
    kept = kept.filter((business) => !verdicts.has(business))
  }
  return { kept, excluded }
}

/** Adds one batch's counts to the run's. */
export function addExclusions(total: Record<string, number>, more: Readonly<Record<string, number>>): void {
  for (const [reason, count] of Object.entries(more)) total[reason] = (total[reason] ?? 0) + count
}
