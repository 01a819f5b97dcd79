/**
 * A registry-first export as the search it is matched against: the filters' place (registry/place.ts, so the plan
 * rules read it as the search page's) and the map category of their activity codes. Stored like any export's
 * criteria, so resume, the plan check of today and the file name work unchanged.
 */
import { registryPlaceCriteria } from '#app/.server/registry/place.ts'
import type { ResolvedCriteria } from '#app/.server/search/resolve-criteria.ts'
import { allCategories } from '#app/.server/taxonomy/categories.ts'
import type { RegistryFilters } from '#app/domain/registry-search.ts'

/** The categories listing one of the codes, by id (so always in the same order); none for no code. */
export function categoriesForNafCodes(nafCodes: readonly string[]): string[] {
  const wanted = new Set(nafCodes)
  return allCategories()
    .filter((category) => category.naf.some((code) => wanted.has(code)))
    .map((category) => category.id)
    .sort()
}

/** The first of them: the export's sector as stored; '' (every activity) for none. */
export function categoryForNafCodes(nafCodes: readonly string[]): string {
  return categoriesForNafCodes(nafCodes)[0] ?? ''
}

/** Null for a place our geography does not know. */
export function registryExportCriteria(filters: RegistryFilters): ResolvedCriteria | null {
  return registryPlaceCriteria(filters.place, categoryForNafCodes(filters.nafCodes))
}
