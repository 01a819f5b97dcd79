/**
 * The registry-first search's count and preview (issue 22 item 2): the registry's total ("10 000+" beyond its cap)
 * and the first 20 establishments. As the search page's preview (app/.server/search/preview.ts), the plan's location
 * rule is checked first, on the place resolved through the same module (resolve-criteria.ts): a free-trial or basic
 * plan needs a department, a professional or premium plan a region. The first page is read as the export reads it
 * (25 results), so a preview followed by an export asks the registry once (search.ts caches it for a day).
 */
import type { PlanId } from '#app/domain/plans.ts'
import type { SearchValidation } from '#app/domain/search.ts'
import { registryFiltersSchema, type RegistryFiltersInput } from '#app/domain/registry-search.ts'
import { isDatabaseUnavailable } from '#app/.server/db-errors.ts'
import { checkPlan } from '#app/.server/search/resolve-criteria.ts'
import { registryPlaceCriteria } from './place.ts'
import { createRegistrySearchClient, RegistrySearchError, type LabelledEstablishment, type RegistrySearchClient } from './search.ts'

const REGISTRY_PREVIEW_SIZE = 20

export type RegistryPreviewOutcome =
  | { ok: true; total: number; capped: boolean; establishments: LabelledEstablishment[] }
  | { ok: false; status: number; error: string; messageKey: string; validation?: SearchValidation }

let defaultClient: RegistrySearchClient | undefined

export async function previewRegistry(
  input: RegistryFiltersInput,
  { plan, signal, client }: { plan: PlanId; signal?: AbortSignal; client?: RegistrySearchClient },
): Promise<RegistryPreviewOutcome> {
  const parsed = registryFiltersSchema.safeParse(input)
  if (!parsed.success) return { ok: false, status: 400, error: 'invalid_filters', messageKey: 'companies.errors.invalidFilters' }
  const filters = parsed.data
  const criteria = registryPlaceCriteria(filters.place, filters.nafCodes.join(','))
  if (!criteria) return { ok: false, status: 400, error: 'invalid_location', messageKey: 'companies.errors.unknownPlace' }
  const validation = checkPlan(criteria, plan)
  if (!validation.ok) {
    return { ok: false, status: validation.reason === 'plan' ? 403 : 400, error: validation.reason, messageKey: validation.messageKey, validation }
  }
  try {
    const page = await (client ?? (defaultClient ??= createRegistrySearchClient())).page(filters, 1, { signal })
    return { ok: true, total: page.total, capped: page.capped, establishments: page.establishments.slice(0, REGISTRY_PREVIEW_SIZE) }
  } catch (error) {
    // The budget and the cache live in the database: without it the registry is not asked (never a 500).
    if (isDatabaseUnavailable(error)) return { ok: false, status: 503, error: 'unavailable', messageKey: 'companies.errors.unavailable' }
    if (!(error instanceof RegistrySearchError)) throw error
    if (error.code === 'rate_limited') return { ok: false, status: 429, error: error.code, messageKey: 'companies.errors.rateLimited' }
    return { ok: false, status: 502, error: error.code, messageKey: 'companies.errors.upstream' }
  }
}
