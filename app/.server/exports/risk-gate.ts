/**
 * The risk shield's lead gate: "exclude companies in insolvency proceedings" and "exclude radiated" leave out a
 * business whose company the search already knows (a registry-first establishment, the source's SIRET, a registry
 * match stored by an earlier export), by its BODACC announcements in the local store, before any task exists. A map
 * business known by no SIREN yet is judged once this export's registry step has matched it (enrichment-phase.ts,
 * `riskAfterRegistry`), still before anything of it is recorded or charged.
 */
import type { Kysely } from 'kysely'
import type { Database } from '#app/.server/db.ts'
import { readRisks } from '#app/.server/registry-events/store.ts'
import type { Business } from '#app/.server/sources/types.ts'
import { companySiren, registryMatchSiren } from '#app/domain/do-not-contact.ts'
import { asksRiskShield, riskExclusion, type RiskExclusion, type RiskFilters } from '#app/domain/risk-shield.ts'
import { storedFilters } from '#app/domain/search-filters.ts'
import { companiesOf, storedMatches, type WithRegistryData } from './exclusion-gates.ts'
import type { LeadEnrichmentResult } from './enrichers.ts'
import type { LeadGateFactory } from './lead-gates.ts'

/** The export's risk filters, or null when it asked for neither. */
export function riskFiltersOf(searchParams: { filters?: unknown } | null | undefined): RiskFilters | null {
  const filters = storedFilters(searchParams?.filters)
  return asksRiskShield(filters) ? filters : null
}

export const riskGate: LeadGateFactory = async (db, row) => {
  const filters = riskFiltersOf(row.search_params)
  if (!filters) return null
  return {
    async judge(batch: readonly WithRegistryData[]) {
      const stored = await storedMatches(db, row.user_id, batch)
      const sirensOf = new Map<Business, string[]>(
        batch.map((business) => [business, [...new Set(companiesOf(business, stored).flatMap((ids) => companySiren(ids) ?? []))]]),
      )
      const risks = await readRisks(db, [...sirensOf.values()].flat())
      const verdicts = new Map<Business, RiskExclusion>()
      for (const [business, sirens] of sirensOf) {
        const reason = sirens.map((siren) => riskExclusion(risks.get(siren), filters)).find((found) => found !== null)
        if (reason) verdicts.set(business, reason)
      }
      return verdicts
    },
  }
}

/**
 * For a lead the gate could not judge: the reason its fresh registry match leaves it out, or null. Any match the
 * registry step delivers (its own floor, 0.5): the shield judges the company the lead's registry data would name, as
 * the gate judges a stored match. A map listing rarely spells the legal name ("Plomberie Petit" for "PLOMBERIE PETIT
 * FRERES" scores 0.58), so the stricter 0.9 of "closed in the registry" would let most failing companies through;
 * wrongly leaving a business out costs nothing, paying for a company in liquidation does.
 */
export async function riskAfterRegistry(db: Kysely<Database>, filters: RiskFilters, result: LeadEnrichmentResult): Promise<RiskExclusion | null> {
  if (result.outcomes.admin_fr_info !== 'success') return null
  const siren = registryMatchSiren(result.values.admin_fr_info)
  if (!siren) return null
  const risks = await readRisks(db, [siren])
  return riskExclusion(risks.get(siren), filters)
}
