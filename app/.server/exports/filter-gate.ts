/**
 * The `filtered` lead gate: the filters chosen on the search (has website, minimum rating…) leave businesses out of
 * the export exactly as they left them out of the preview and its count (one predicate, search-filters.ts).
 */
import { hasFilters, matchesFilters, storedFilters } from '#app/domain/search-filters.ts'
import type { Business } from '#app/.server/sources/types.ts'
import type { LeadGateFactory } from './lead-gates.ts'

export const filterGate: LeadGateFactory = async (_db, row) => {
  const filters = storedFilters(row.search_params?.filters)
  if (!hasFilters(filters)) return null
  return {
    judge: (batch: readonly Business[]) => new Map(batch.filter((business) => !matchesFilters(business, filters)).map((business) => [business, 'filtered'])),
  }
}
