/**
 * The lead stream of a registry-first export: the registry's establishments (rate-limited, cached, split beyond its
 * 10 000 cap: registry/search.ts), each matched to the map source of the same place and category (registry/map-match.ts).
 * The map is listed once per run, before the first establishment is matched.
 */
import type { LeadSource } from '#app/.server/sources/index.ts'
import type { ResolvedCategory, SearchParams } from '#app/.server/sources/types.ts'
import { indexMap, matchOnMap, registryCandidate, type RegistryCandidate } from '#app/.server/registry/map-match.ts'
import { createRegistrySearchClient, type RegistrySearchClient } from '#app/.server/registry/search.ts'
import { registryFiltersSchema, type RegistryFilters } from '#app/domain/registry-search.ts'
import type { Business } from '#app/.server/sources/types.ts'

/** Map businesses read to match against, per establishment asked for (the registry lists more than the map). */
const MAP_PER_ESTABLISHMENT = 2
const MAP_LISTING_MAX = 20_000

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
  const map: Business[] = []
  const mapLimit = Math.min(MAP_LISTING_MAX, options.limit * MAP_PER_ESTABLISHMENT)
  for await (const business of options.source.search(options.params, options.category, { limit: mapLimit, signal: options.signal })) map.push(business)
  const index = indexMap(map)
  const taken = new Set<Business>()
  for await (const establishment of client.establishments(filters, { limit: options.limit, signal: options.signal })) {
    const match = matchOnMap(establishment, index, taken)
    if (match) taken.add(match.business)
    yield registryCandidate(establishment, match, options.source.name)
  }
}
