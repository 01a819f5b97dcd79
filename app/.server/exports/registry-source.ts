/**
 * The lead stream of a registry-first export: the registry's establishments (rate-limited, cached, split beyond its
 * 10 000 cap: registry/search.ts), each matched to the map source of the same place and category (registry/map-match.ts).
 * The map is listed once per run, before the first establishment is matched: in every category the filters' activity
 * codes stand for (codes of several categories: one listing each), or in all of them when no code is chosen.
 */
import type { LeadSource } from '#app/.server/sources/index.ts'
import type { ResolvedCategory, SearchParams } from '#app/.server/sources/types.ts'
import { indexMap, matchOnMap, registryCandidate, type RegistryCandidate } from '#app/.server/registry/map-match.ts'
import { createRegistrySearchClient, type RegistrySearchClient } from '#app/.server/registry/search.ts'
import { registryFiltersSchema, type RegistryFilters } from '#app/domain/registry-search.ts'
import type { Business } from '#app/.server/sources/types.ts'
import { resolveCategory } from '#app/.server/search/preview.ts'
import { categoriesForNafCodes } from './registry-criteria.ts'

/** Map businesses read to match against, per establishment asked for (the registry lists more than the map). */
const MAP_PER_ESTABLISHMENT = 2
const MAP_LISTING_MAX = 20_000
/** Categories listed at most: a code list spanning more is matched on the first ones (by id). */
const MAP_CATEGORIES_MAX = 8

let defaultClient: RegistrySearchClient | undefined

/** The registry filters an export stored (search_params.registry), or null for a map-first export. */
export function storedRegistryFilters(searchParams: Record<string, unknown> | null): RegistryFilters | null {
  if (!searchParams?.registry) return null
  const parsed = registryFiltersSchema.safeParse(searchParams.registry)
  return parsed.success ? parsed.data : null
}

export async function* registryCandidates(
  filters: RegistryFilters,
  options: { source: LeadSource; params: SearchParams; category: ResolvedCategory | null; limit: number; signal?: AbortSignal; client?: RegistrySearchClient },
): AsyncGenerator<RegistryCandidate> {
  const client = options.client ?? (defaultClient ??= createRegistrySearchClient())
  const mapLimit = Math.min(MAP_LISTING_MAX, options.limit * MAP_PER_ESTABLISHMENT)
  const ids = categoriesForNafCodes(filters.nafCodes).slice(0, MAP_CATEGORIES_MAX)
  const categories = ids.length ? ids.map((id) => resolveCategory(id, options.params.lang)) : [options.category]
  const map = new Map<string, Business>()
  for (const category of categories) {
    for await (const business of options.source.search(options.params, category, { limit: mapLimit, signal: options.signal })) {
      map.set(`${business.source}\u0000${business.placeId}`, business)
    }
  }
  const index = indexMap([...map.values()])
  const taken = new Set<Business>()
  for await (const establishment of client.establishments(filters, { limit: options.limit, signal: options.signal })) {
    const match = matchOnMap(establishment, index, taken)
    if (match) taken.add(match.business)
    yield registryCandidate(establishment, match, options.source.name)
  }
}
