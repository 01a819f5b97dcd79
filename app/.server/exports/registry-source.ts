/**
 * The lead stream of a registry-first export: the registry's establishments (rate-limited, cached, split beyond its
 * 10 000 cap: registry/search.ts), each matched to the map source of the same place and category (registry/map-match.ts).
 * The map is listed once per run, before the first establishment is matched: in every category the filters' activity
 * codes stand for (codes of several categories: one listing each), or in all of them when no code is chosen.
 */
import type { LeadSource } from '#app/.server/sources/index.ts'
import type { ResolvedCategory, SearchParams } from '#app/.server/sources/types.ts'
import { indexMap, matchOnMap, registryCandidate, type RegistryCandidate } from '#app/.server/registry/map-match.ts'
import { createRegistrySearchClient, type LabelledEstablishment, type RegistrySearchClient } from '#app/.server/registry/search.ts'
import { createLocalRegistrySearch, type LocalRegistrySearch } from '#app/.server/registry-events/local-search.ts'
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
let localClient: LocalRegistrySearch | undefined

/** The registry filters an export stored (search_params.registry), or null for a map-first export. */
export function storedRegistryFilters(searchParams: Record<string, unknown> | null): RegistryFilters | null {
  if (!searchParams?.registry) return null
  const parsed = registryFiltersSchema.safeParse(searchParams.registry)
  return parsed.success ? parsed.data : null
}

/** The SIRETs a new-companies watch run looks for on the map again (search_params.watch.retrySirets), else none. */
export function storedWatchRetries(searchParams: Record<string, unknown> | null): string[] {
  const watch = searchParams?.watch
  const sirets = watch && typeof watch === 'object' ? (watch as { retrySirets?: unknown }).retrySirets : undefined
  return Array.isArray(sirets) ? sirets.filter((siret): siret is string => typeof siret === 'string' && /^\d{14}$/.test(siret)) : []
}

export async function* registryCandidates(
  filters: RegistryFilters,
  options: {
    source: LeadSource
    params: SearchParams
    category: ResolvedCategory | null
    limit: number
    signal?: AbortSignal
    client?: RegistrySearchClient
    /** Establishments of the local store to deliver only if the map knows them now (a watch's retries). */
    retrySirets?: readonly string[]
    local?: LocalRegistrySearch
  },
): AsyncGenerator<RegistryCandidate> {
  const local = () => options.local ?? (localClient ??= createLocalRegistrySearch())
  // A creation window is the local store's to answer (registry-events/local-search.ts): the API cannot filter on it.
  const client = filters.createdAfter ? local() : (options.client ?? (defaultClient ??= createRegistrySearchClient()))
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
  if (options.retrySirets?.length) yield* foundAgain(await local().bySirets(options.retrySirets), index, taken, options.source.name)
  for await (const establishment of client.establishments(filters, { limit: options.limit, signal: options.signal })) {
    const match = matchOnMap(establishment, index, taken)
    if (match) taken.add(match.business)
    yield registryCandidate(establishment, match, options.source.name)
  }
}

/**
 * The watch's waiting establishments the map knows now, as their map business; the others are not delivered again.
 * Their SIRET is left off the candidate: the run delivered it before, free and without a phone or site, and "only new"
 * would otherwise leave it out for that very delivery. Its map business is still judged by its place id, and the
 * do-not-contact list still reads its registry data.
 */
function* foundAgain(establishments: readonly LabelledEstablishment[], index: ReadonlyMap<string, readonly Business[]>, taken: Set<Business>, source: LeadSource['name']): Generator<RegistryCandidate> {
  for (const establishment of establishments) {
    const match = matchOnMap(establishment, index, taken)
    if (!match) continue
    taken.add(match.business)
    yield { ...registryCandidate(establishment, match, source), siret: null }
  }
}
