/**
 * The demo registry's establishments for a filtered search (no `q`): a universe coherent with the demo map source.
 *
 * For each category the NAF codes stand for and each place, the registry lists every business the demo map shows
 * there (app/.server/sources/demo/source.ts, searched as the search page searches that place), registered under the
 * SIREN the registry match gives it today (server/demo/registry.ts: the SIRET printed on its website when it prints
 * one, else the company its name and postcode find), plus businesses the map does not know, about 3 for every 7 it
 * knows: the map is about 70 % of the registry. Unknown ones are identified by (commune, sector, rank), like the map's,
 * so a commune's registry holds what a wider search shows there. Deterministic; every company says `"demo": true`.
 */
import { LRUCache } from 'lru-cache'
import { franceData, type Commune } from '#app/.server/geo/france.ts'
import { registryPlaceCriteria } from '#app/.server/registry/place.ts'
import { searchParamsOf } from '#app/.server/search/resolve-criteria.ts'
import { demoBusinesses } from '#app/.server/sources/demo/source.ts'
import { demoSite } from '#app/.server/sources/demo/site.ts'
import { businessName, sectorForCategory } from '#app/.server/sources/demo/names.ts'
import { hashString, rngFor } from '#app/.server/sources/demo/prng.ts'
import { SECTORS, type SectorStyle, slugify } from '#app/.server/sources/demo/vocabulary.ts'
import type { Business, ResolvedCategory } from '#app/.server/sources/types.ts'
import { allCategories } from '#app/.server/taxonomy/categories.ts'
import type { RegistryPlace } from '#app/domain/registry-search.ts'
import { demoMapCreationDay, historySectors, resolvedCategory as resolved, UNKNOWN_PER_KNOWN, unknownSeed } from './history-slots.ts'
import { demoClosedByHistory } from './history-stories.ts'

export type DemoCompany = Record<string, unknown>
/** The demo registry's company for a name search (or a SIRET printed on a site): server/demo/registry.ts. */
export type MakeCompany = (options: {
  name: string
  postalCode: string | null
  naf: string | null
  seed: number
  siret?: string
  /** Where the demo map shows the business: the registry geocodes it a few metres off, as two real geocoders do. */
  position?: { latitude: number; longitude: number }
  /** YYYY-MM-DD: a creation of the event history (registry-events-history.ts): founded that day, active. */
  createdOn?: string
  /** The history closes it (history-stories.ts): cessée, whatever its seed says. */
  closed?: boolean
}) => DemoCompany

/** A search with many categories (e.g. a shared NAF code) reads the first ones only: the demo answers in time. */
const MAX_CATEGORIES = 8
/** The map's businesses get websites so the printed SIRETs can be read (this base URL itself is never called). */
const DEMO_WEBSITES = 'http://demo-websites.invalid'
/** Labels the demo gives some companies, each about one in twelve. */
const LABEL_FIELDS = ['est_rge', 'est_qualiopi', 'est_ess', 'est_bio', 'est_organisme_formation', 'est_siae', 'est_societe_mission', 'est_patrimoine_vivant'] as const

/** The name seed the name search uses, so the same name and postcode give the same company. */
export function nameSeed(name: string, postalCode: string | null, normalize: (text: string) => string): number {
  return hashString(`name|${normalize(name)}|${postalCode ?? ''}`)
}

/** Categories of the NAF codes (none: one per built-in demo sector), one per demo sector: they show the same businesses. */
function categoriesFor(nafCodes: readonly string[]): ResolvedCategory[] {
  const wanted = new Set(nafCodes)
  const candidates = wanted.size
    ? allCategories().filter((c) => c.naf.some((code) => wanted.has(code)))
    : SECTORS.flatMap((s) => allCategories().filter((c) => c.osm.key === s.osm.key && c.osm.value === s.osm.value && c.naf.length > 0).slice(0, 1))
  const seen = new Set<string>()
  const out: ResolvedCategory[] = []
  for (const category of [...candidates].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const r = resolved(category)
    const key = sectorForCategory(r)?.key ?? slugify(r.label)
    if (seen.has(key)) continue
    seen.add(key)
    out.push(r)
    if (out.length >= MAX_CATEGORIES) break
  }
  return out
}

/** The commune of a demo business, from its place id (fr-<INSEE code>-<seed>). */
function communeOfBusiness(business: Business): Commune | undefined {
  const code = /^fr-([0-9a-z]{5})-/.exec(business.placeId)?.[1]?.toUpperCase()
  return code ? franceData().communeByCode.get(code) : undefined
}

/** The SIRET the business's website prints in its legal notice, if it has a site and prints one. */
function printedSiret(business: Pick<Business, 'website'>): string | null {
  const slug = business.website ? /\/sites\/([^/]+)\//.exec(business.website)?.[1] : undefined
  return slug ? demoSite(slug).siret : null
}

/** Today as the demo registry reads it: the history's creations are dated relative to it. */
function today(): string {
  return new Date().toISOString().slice(0, 10)
}

/** The demo source's seed of a business, from its place id (fr-<INSEE code>-<seed in base 36>). */
function sourceSeed(business: Pick<Business, 'placeId'>): number | null {
  const token = /^fr-[0-9a-z]{5}-([0-9a-z]{7})$/.exec(business.placeId)?.[1]
  return token ? parseInt(token, 36) : null
}

type MapBusiness = Pick<Business, 'name' | 'postalCode' | 'placeId' | 'website' | 'latitude' | 'longitude'>

/** The registry's company for a business the demo map shows (the one its registry match finds). */
export function knownCompany(business: MapBusiness, naf: string | null, makeCompany: MakeCompany, normalize: (text: string) => string, day = today()): DemoCompany {
  const siret = printedSiret(business)
  const seed = nameSeed(business.name, business.postalCode, normalize)
  const position = business.latitude !== null && business.longitude !== null ? { latitude: business.latitude, longitude: business.longitude } : undefined
  const source = sourceSeed(business)
  const createdOn = source === null ? null : demoMapCreationDay(source, day)
  const closed = source !== null && demoClosedByHistory(source)
  return makeCompany({
    name: business.name,
    postalCode: business.postalCode,
    naf,
    seed,
    ...(siret ? { siret } : {}),
    ...(position ? { position } : {}),
    ...(createdOn ? { createdOn } : {}),
    ...(closed ? { closed } : {}),
  })
}

/** The registry-only company of a rank in a commune and sector (the map does not know it). */
export function unknownCompany(commune: Commune, category: ResolvedCategory, rank: number, naf: string | null, makeCompany: MakeCompany): DemoCompany {
  const sector: SectorStyle | undefined = sectorForCategory(category)
  const seed = unknownSeed(commune.code, sector?.key ?? category.id, rank)
  const closed = demoClosedByHistory(seed)
  const name = businessName(rngFor(seed, 'name'), { sector, label: category.label, french: true })
  const postalCode = rngFor(seed, 'postcode').pick(commune.codesPostaux)
  return makeCompany({ name, postalCode, naf, seed, ...(closed ? { closed } : {}) })
}

function withLabels(company: DemoCompany): DemoCompany {
  const rng = rngFor(hashString(`labels|${String(company.siren)}`), 'labels')
  const complements = { ...(company.complements as Record<string, unknown> | undefined) }
  for (const field of LABEL_FIELDS) complements[field] = rng.chance(1 / 12)
  return { ...company, complements }
}

/** Every company of the universe for `nafCodes` in `place` (unfiltered otherwise), deterministic order. */
function buildUniverse(nafCodes: readonly string[], place: RegistryPlace, makeCompany: MakeCompany, normalize: (text: string) => string, day: string): DemoCompany[] {
  const criteria = registryPlaceCriteria(place)
  if (!criteria) return []
  const companies = new Map<string, DemoCompany>()
  const add = (company: DemoCompany) => {
    const siret = (company.siege as { siret?: string } | undefined)?.siret ?? String(company.siren)
    if (!companies.has(siret)) companies.set(siret, withLabels(company))
  }
  for (const category of categoriesFor(nafCodes)) {
    const naf = category.naf?.find((code) => nafCodes.length === 0 || nafCodes.includes(code)) ?? category.naf?.[0] ?? null
    const params = searchParamsOf(criteria, 'fr')
    // Businesses per commune, in rank order: a commune's first k are the same whichever search finds them.
    const perCommune = new Map<string, { commune: Commune; count: number }>()
    for (const business of demoBusinesses(params, category, DEMO_WEBSITES)) {
      const commune = communeOfBusiness(business)
      if (!commune) continue
      if (place.kind === 'postcode' && business.postalCode !== place.code) continue
      const entry = perCommune.get(commune.code) ?? { commune, count: 0 }
      entry.count++
      perCommune.set(commune.code, entry)
      add(knownCompany(business, naf, makeCompany, normalize, day))
    }
    for (const { commune, count } of perCommune.values()) {
      const unknown = Math.round(count * UNKNOWN_PER_KNOWN)
      for (let rank = 0; rank < unknown; rank++) {
        const company = unknownCompany(commune, category, rank, naf, makeCompany)
        if (place.kind === 'postcode' && (company.siege as { code_postal?: string }).code_postal !== place.code) continue
        add(company)
      }
    }
  }
  // The registry ranks by relevance; here a fixed mix, so the first page shows several towns.
  return [...companies.values()].sort((a, b) => hashString(String(a.siren)) - hashString(String(b.siren)) || (String(a.siren) < String(b.siren) ? -1 : 1))
}

const universes = new LRUCache<string, DemoCompany[]>({ max: 64 })

export function demoRegistryUniverse(nafCodes: readonly string[], place: RegistryPlace, makeCompany: MakeCompany, normalize: (text: string) => string): DemoCompany[] {
  const day = today()
  const key = JSON.stringify([[...nafCodes].sort(), place, day])
  let universe = universes.get(key)
  if (!universe) {
    universe = buildUniverse(nafCodes, place, makeCompany, normalize, day)
    universes.set(key, universe)
  }
  return universe
}

const namedActivities = new LRUCache<string, Map<string, { naf: string; seed: number | null }>>({ max: 256 })

/**
 * The activity code a demo map business of `postalCode` is registered under, found by its name: a name search that
 * names no activity (a user's list of names) finds the bakery as a bakery, as the real registry would. Null for a name
 * the demo map does not show there.
 */
export function demoActivityOfName(name: string, postalCode: string, normalize: (text: string) => string): string | null {
  return mapBusinessOfName(name, postalCode, normalize)?.naf ?? null
}

/**
 * What the history did to the demo map business of that name at that postcode: created it on a day of the last
 * cycle, or closed it. Empty for a name the map does not show there.
 */
export function demoHistoryOfName(name: string, postalCode: string, normalize: (text: string) => string): { createdOn?: string; closed?: boolean } {
  const seed = mapBusinessOfName(name, postalCode, normalize)?.seed
  if (seed == null) return {}
  const createdOn = demoMapCreationDay(seed, today())
  return { ...(createdOn ? { createdOn } : {}), ...(demoClosedByHistory(seed) ? { closed: true } : {}) }
}

function mapBusinessOfName(name: string, postalCode: string, normalize: (text: string) => string): { naf: string; seed: number | null } | null {
  let byName = namedActivities.get(postalCode)
  if (!byName) {
    byName = new Map()
    const criteria = registryPlaceCriteria({ kind: 'postcode', code: postalCode })
    for (const { category, naf } of criteria ? historySectors() : []) {
      for (const business of demoBusinesses(searchParamsOf(criteria!, 'fr'), category, DEMO_WEBSITES)) {
        if (business.postalCode === postalCode && !byName.has(normalize(business.name))) byName.set(normalize(business.name), { naf, seed: sourceSeed(business) })
      }
    }
    namedActivities.set(postalCode, byName)
  }
  return byName.get(normalize(name)) ?? null
}
