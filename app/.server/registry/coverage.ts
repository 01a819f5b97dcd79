/**
 * How much of a registry set the map source covers (issue 22 item 3). The first establishments of the set (up to
 * 100: at most 4 registry pages, read through the rate-limited, day-cached client) are looked up among the map
 * source's businesses for the same place and activity: same postcode (or town) and a similar name, by the enrichment's
 * name rules (enrichment/registry-names.ts) or because the registry's legal name begins with the map's trade name
 * ("Au Pain Doré" / "AU PAIN DORE FRERES (EURL)"), or the same street number or the same position (within a
 * shopfront's geocoding error) with a looser name; positions far apart rule a pair out (app/domain/geo-distance.ts),
 * whatever the name. The shares found on the
 * map and with a website are estimates for the whole set (app/domain/coverage.ts), exact when the sample is the set.
 */
import { LRUCache } from 'lru-cache'
import type { Language } from '#app/i18n.ts'
import { estimateShare, type MapCoverage } from '#app/domain/coverage.ts'
import { positionEvidence } from '#app/domain/geo-distance.ts'
import { registryFiltersSchema, type RegistryFilters, type RegistryFiltersInput } from '#app/domain/registry-search.ts'
import { nameSimilarity, normalizeCompanyName } from '#app/.server/enrichment/registry-names.ts'
import { normalizeName } from '#app/.server/geo/france.ts'
import { resolveCategory } from '#app/.server/search/preview.ts'
import { searchParamsOf } from '#app/.server/search/resolve-criteria.ts'
import { getLeadSource } from '#app/.server/sources/index.ts'
import { SharedRequests } from '#app/.server/sources/shared-requests.ts'
import type { Business, ResolvedCategory } from '#app/.server/sources/types.ts'
import { allCategories } from '#app/.server/taxonomy/categories.ts'
import { registryPlaceCriteria } from './place.ts'
import type { LabelledEstablishment, RegistrySearchClient } from './search.ts'

/** 4 registry pages of 25. */
const COVERAGE_SAMPLE_MAX = 100
/** Map businesses read per activity: enough for a department's bakeries, bounded for a real source. */
const MAP_BUSINESSES_PER_CATEGORY = 1_500
/** Activities looked up on the map for a set of NAF codes (each is one source search). */
const MAX_MAP_CATEGORIES = 4
const SAME_NAME = 0.8
const SIMILAR_NAME = 0.5

/** The map categories that stand for these NAF codes (the registry match's mapping, categories.naf). */
function categoriesFor(nafCodes: readonly string[], lang: Language): ResolvedCategory[] {
  const wanted = new Set(nafCodes)
  return allCategories()
    .filter((category) => category.naf.some((code) => wanted.has(code)))
    .slice(0, MAX_MAP_CATEGORIES)
    .flatMap((category) => resolveCategory(category.id, lang) ?? [])
}

/** The legal name begins with the whole trade name, word for word. */
function legalNameExtends(legalName: string, tradeName: string): boolean {
  const legal = normalizeCompanyName(legalName)
  const trade = normalizeCompanyName(tradeName)
  return trade.length >= 4 && (legal === trade || legal.startsWith(`${trade} `))
}

const streetNumber = (address: string | null) => /^\s*(\d+)/.exec(address ?? '')?.[1] ?? null

/** The map business that is this establishment, if any (see the module comment). */
function findOnMap(establishment: LabelledEstablishment, businesses: readonly Business[]): Business | null {
  const city = establishment.city ? normalizeName(establishment.city) : null
  const samePostcodeOrTown = (business: Business) =>
    establishment.postalCode && business.postalCode ? business.postalCode === establishment.postalCode : city !== null && business.city !== null && normalizeName(business.city) === city
  // A shop geocoded on the other side of a postcode boundary is still near; one kilometres away is not, whatever its postcode.
  const near = businesses.filter((business) => {
    const position = positionEvidence(establishment, business)
    return position === 'same_place' || (position === 'undecided' && samePostcodeOrTown(business))
  })
  if (establishment.siret) {
    const bySiret = near.find((business) => business.siret === establishment.siret) ?? businesses.find((business) => business.siret === establishment.siret)
    if (bySiret) return bySiret
  }
  // A sole trader under partial diffusion has no name nor address to compare: only its SIRET can find it.
  if (!establishment.name) return null
  let best: { business: Business; score: number } | null = null
  for (const business of near) {
    const score = legalNameExtends(establishment.name, business.name) ? 1 : nameSimilarity(establishment.name, business.name)
    const sameNumber = streetNumber(establishment.address) !== null && streetNumber(establishment.address) === streetNumber(business.address)
    const samePlace = sameNumber || positionEvidence(establishment, business) === 'same_place'
    if (score >= SAME_NAME || (samePlace && score >= SIMILAR_NAME)) {
      if (!best || score > best.score) best = { business, score }
    }
  }
  return best?.business ?? null
}

async function mapBusinesses(filters: RegistryFilters, sector: string, lang: Language, signal?: AbortSignal): Promise<Business[] | null> {
  const criteria = registryPlaceCriteria(filters.place, sector)
  if (!criteria) return null
  const category = sector ? resolveCategory(sector, lang) : null
  const categories = category?.naf?.length ? [category] : categoriesFor(filters.nafCodes, lang)
  const source = getLeadSource()
  const params = searchParamsOf(criteria, lang)
  const found = new Map<string, Business>()
  for (const each of categories.length ? categories : [null]) {
    for await (const business of source.search(params, each, { limit: MAP_BUSINESSES_PER_CATEGORY, signal })) found.set(business.placeId, business)
  }
  return [...found.values()]
}

const coverages = new LRUCache<string, MapCoverage>({ max: 200, ttl: 10 * 60 * 1000 })
const running = new SharedRequests<MapCoverage | null>()

/**
 * The coverage of the set `input` selects, whose registry total is `total`; null when the place is unknown (the
 * preview refused it first). Registry and map-source errors are the caller's to answer (as the preview's).
 */
export async function registryCoverage(
  input: RegistryFiltersInput,
  { total, sector = '', lang, client, signal }: { total: number; sector?: string; lang: Language; client: RegistrySearchClient; signal?: AbortSignal },
): Promise<MapCoverage | null> {
  const filters = registryFiltersSchema.parse(input)
  const source = getLeadSource()
  const key = JSON.stringify([source.scope ?? source.name, lang, sector, filters, total])
  const hit = coverages.get(key)
  if (hit) return hit
  return running.run(key, signal, async (shared) => {
    const sample: LabelledEstablishment[] = []
    for await (const establishment of client.establishments(filters, { limit: Math.min(COVERAGE_SAMPLE_MAX, total), signal: shared })) sample.push(establishment)
    const businesses = await mapBusinesses(filters, sector, lang, shared)
    if (!businesses) return null
    let onMap = 0
    let withWebsite = 0
    for (const establishment of sample) {
      const business = findOnMap(establishment, businesses)
      if (!business) continue
      onMap++
      if (business.website) withWebsite++
    }
    const population = Math.max(total, sample.length)
    const coverage: MapCoverage = { onMap: estimateShare(onMap, sample.length, population), withWebsite: estimateShare(withWebsite, sample.length, population), source: source.name }
    coverages.set(key, coverage)
    return coverage
  })
}
