/**
 * One `/companies` search (issue 22 items 1–3), as the route shows it: the form's values as registry filters, the
 * registry's count and 20 establishments (preview.ts, with the plan's location rule), then the map-coverage panel
 * (coverage.ts). A refusal is a localized 4xx naming the field when one is wrong; the coverage may fail on its own
 * (registry busy, map source down) without taking the preview with it.
 */
import type { Language } from '#app/i18n.ts'
import type { CompaniesQuery } from '#app/domain/companies-form.ts'
import type { PlanId } from '#app/domain/plans.ts'
import { isDatabaseUnavailable } from '#app/.server/db-errors.ts'
import { LeadSourceError } from '#app/.server/sources/types.ts'
import { createLocalRegistrySearch } from '#app/.server/registry-events/local-search.ts'
import { readRisks } from '#app/.server/registry-events/store.ts'
import { adminDb } from '#app/.server/db.ts'
import { leadRisk, type LeadRisk } from '#app/domain/risk-shield.ts'
import { companiesFilters, type CompaniesField } from './companies-query.ts'
import type { MapCoverage } from '#app/domain/coverage.ts'
import type { RegistryFiltersInput } from '#app/domain/registry-search.ts'
import { registryCoverage } from './coverage.ts'
import { previewRegistry } from './preview.ts'
import { createRegistrySearchClient, RegistrySearchError, type LabelledEstablishment, type RegistrySearchClient } from './search.ts'

export type CompaniesSearchOutcome =
  | {
      ok: true
      total: number
      capped: boolean
      /** With their company's BODACC risk, shown beside the name (the export's risk shield leaves them out on request). */
      establishments: Array<LabelledEstablishment & { risk: LeadRisk | null }>
      /** null: could not be measured this time; needs_activity: every activity at once is not looked up on the map. */
      coverage: MapCoverage | 'needs_activity' | null
      nafCodes: string[]
      /** What was counted, so "Export these companies" exports exactly these establishments. */
      filters: RegistryFiltersInput
    }
  | { ok: false; status: number; messageKey: string; field?: CompaniesField; plan?: boolean; nafCodes: string[] }

let defaultClient: RegistrySearchClient | undefined
let localClient: RegistrySearchClient | undefined

export async function searchCompanies(
  query: CompaniesQuery,
  { plan, lang, signal, client }: { plan: PlanId; lang: Language; signal?: AbortSignal; client?: RegistrySearchClient },
): Promise<CompaniesSearchOutcome> {
  const resolved = companiesFilters(query, lang)
  if (!resolved.ok) return { ok: false, status: 400, messageKey: resolved.messageKey, field: resolved.field, nafCodes: resolved.nafCodes }
  const { filters, nafCodes } = resolved
  // A creation window is read from the local registry store (the API cannot filter on it), the rest from the API.
  const registry = client ?? (filters.createdAfter ? (localClient ??= createLocalRegistrySearch()) : (defaultClient ??= createRegistrySearchClient()))
  const preview = await previewRegistry(filters, { plan, signal, client: registry })
  if (!preview.ok) {
    const field = preview.error === 'invalid_location' ? ('city' as const) : undefined
    return { ok: false, status: preview.status, messageKey: preview.messageKey, plan: preview.error === 'plan', nafCodes, ...(field && { field }) }
  }
  let coverage: MapCoverage | 'needs_activity' | null = null
  // Without an activity the map would be read for every kind of business of the place: too costly for a real source.
  if (nafCodes.length === 0) coverage = 'needs_activity'
  else if (preview.total > 0) {
    try {
      coverage = await registryCoverage(filters, { total: preview.total, sector: query.sector, lang, client: registry, signal })
    } catch (error) {
      // The preview stands on its own: the panel says the coverage could not be measured this time.
      if (!(error instanceof RegistrySearchError || error instanceof LeadSourceError || isDatabaseUnavailable(error))) throw error
    }
  }
  return { ok: true, total: preview.total, capped: preview.capped, establishments: await withEstablishmentRisks(preview.establishments), coverage, nafCodes, filters }
}

/** Each establishment's company risk from the local BODACC store (none known: none shown; the store down: none either). */
async function withEstablishmentRisks(establishments: LabelledEstablishment[]): Promise<Array<LabelledEstablishment & { risk: LeadRisk | null }>> {
  try {
    const risks = await readRisks(adminDb(), establishments.map((establishment) => establishment.siren))
    return establishments.map((establishment) => ({ ...establishment, risk: leadRisk(risks.get(establishment.siren)) }))
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error
    return establishments.map((establishment) => ({ ...establishment, risk: null }))
  }
}
