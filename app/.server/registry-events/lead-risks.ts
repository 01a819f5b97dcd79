/**
 * A lead's registry risk is read when the lead is read (the table, the API, the file), not stored with it: a company
 * enters liquidation after its lead was enriched, and the lead says so the next day. The risk is that of the company
 * the registry data names (its SIREN), attached to the match as `admin_fr_info.risk` (app/domain/risk-shield.ts
 * LeadRisk) so every reader of the match finds it there.
 */
import type { Kysely } from 'kysely'
import { adminDb, type Database } from '#app/.server/db.ts'
import { registryMatchSiren } from '#app/domain/do-not-contact.ts'
import { leadRisk } from '#app/domain/risk-shield.ts'
import { readRisks } from './store.ts'

type WithMatch = { admin_fr_info?: unknown }

/** `rows` with each match's risk attached (a new admin_fr_info object; rows without a risk are returned as they are). */
export async function withRisks<T extends WithMatch>(rows: readonly T[], db: Kysely<Database> = adminDb()): Promise<T[]> {
  const sirens = rows.flatMap((row) => registryMatchSiren(row.admin_fr_info) ?? [])
  if (sirens.length === 0) return [...rows]
  const risks = await readRisks(db, sirens)
  if (risks.size === 0) return [...rows]
  return rows.map((row) => {
    const siren = registryMatchSiren(row.admin_fr_info)
    const risk = siren ? leadRisk(risks.get(siren)) : null
    return risk ? { ...row, admin_fr_info: { ...(row.admin_fr_info as object), risk } } : row
  })
}

/** Rows of a stream with their risks attached, `size` at a time (one store read per batch). */
export async function* withRisksBatched<T extends WithMatch>(rows: AsyncIterable<T>, size = 500): AsyncGenerator<T, void, undefined> {
  let batch: T[] = []
  for await (const row of rows) {
    batch.push(row)
    if (batch.length >= size) {
      yield* await withRisks(batch)
      batch = []
    }
  }
  if (batch.length) yield* await withRisks(batch)
}
