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
import { businessName, frenchLabel, sectorForCategory } from '#app/.server/sources/demo/names.ts'
import { hashString, rngFor } from '#app/.server/sources/demo/prng.ts'
import { SECTORS, slugify } from '#app/.server/sources/demo/vocabulary.ts'
import type { Business, ResolvedCategory } from '#app/.server/sources/types.ts'
import { allCategories, type Category } from '#app/.server/taxonomy/categories.ts'
import type { RegistryPlace } from '#app/domain/registry-search.ts'

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
}) => DemoCompany

/** A search with many categories (e.g. a shared NAF code) reads the first ones only: the demo answers in time. */
const MAX_CATEGORIES = 8
/** The map's businesses get websites so the printed SIRETs can be read (this base URL itself is never called). */
const DEMO_WEBSITES = 'http://demo-websites.invalid'
/** Businesses the map does not know, per business it knows. */
const UNKNOWN_PER_KNOWN = 3 / 7
/** Labels the demo gives some companies, each about one in twelve. */
const LABEL_FIELDS = ['est_rge', 'est_qualiopi', 'est_ess', 'est_bio', 'est_organisme_formation', 'est_siae', 'est_societe_mission', 'est_patrimoine_vivant'] as const

/** The name seed the name search uses, so the same name and postcode give the same company. */
export function nameSeed(name: string, postalCode: string | null, normalize: (text: string) => string): number {
  return hashString(`name|${normalize(name)}|${postalCode ?? ''}`)
}

function resolved(category: Category): ResolvedCategory {
  return { id: category.id, label: frenchLabel({ id: category.id, label: category.labels.fr }), osm: category.osm, googleType: category.googleType, naf: category.naf }
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
function printedSiret(business: Business): string | null {
  const slug = business.website ? /\/sites\/([^/]+)\//.exec(business.website)?.[1] : undefined
  return slug ? demoSite(slug).siret : null
}

function withLabels(company: DemoCompany): DemoCompany {
  const rng = rngFor(hashString(`labels|${String(company.siren)}`), 'labels')
  const complements = { ...(company.complements as Record<string, unknown> | undefined) }
  for (const field of LABEL_FIELDS) complements[field] = rng.chance(1 / 12)
  return { ...company, complements }
}

/** Every company of the universe for `nafCodes` in `place` (unfiltered otherwise), deterministic order. */
function buildUniverse(nafCodes: readonly string[], place: RegistryPlace, makeCompany: MakeCompany, normalize: (text: string) => string): DemoCompany[] {
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
      const siret = printedSiret(business)
      const seed = nameSeed(business.name, business.postalCode, normalize)
      const position = business.latitude !== null && business.longitude !== null ? { latitude: business.latitude, longitude: business.longitude } : undefined
      add(makeCompany({ name: business.name, postalCode: business.postalCode, naf, seed, ...(siret ? { siret } : {}), ...(position ? { position } : {}) }))
    }
    const sector = sectorForCategory(category)
    for (const { commune, count } of perCommune.values()) {
      const unknown = Math.round(count * UNKNOWN_PER_KNOWN)
      for (let rank = 0; rank < unknown; rank++) {
        const seed = hashString(`registry-only|${commune.code}|${sector?.key ?? category.id}|${rank}`)
        const name = businessName(rngFor(seed, 'name'), { sector, label: category.label, french: true })
        const postalCode = rngFor(seed, 'postcode').pick(commune.codesPostaux)
        if (place.kind === 'postcode' && postalCode !== place.code) continue
        add(makeCompany({ name, postalCode, naf, seed }))
      }
    }
  }
  // The registry ranks by relevance; here a fixed mix, so the first page shows several towns.
  return [...companies.values()].sort((a, b) => hashString(String(a.siren)) - hashString(String(b.siren)) || (String(a.siren) < String(b.siren) ? -1 : 1))
}

const universes = new LRUCache<string, DemoCompany[]>({ max: 64 })

export function demoRegistryUniverse(nafCodes: readonly string[], place: RegistryPlace, makeCompany: MakeCompany, normalize: (text: string) => string): DemoCompany[] {
  const key = JSON.stringify([[...nafCodes].sort(), place])
  let universe = universes.get(key)
  if (!universe) {
    universe = buildUniverse(nafCodes, place, makeCompany, normalize)
    universes.set(key, universe)
  }
  return universe
}

/** One category per built-in demo sector, all of them (the map's businesses of a place are theirs). */
function everySector(): ResolvedCategory[] {
  return SECTORS.flatMap((s) => allCategories().filter((c) => c.osm.key === s.osm.key && c.osm.value === s.osm.value && c.naf.length > 0).slice(0, 1)).map(resolved)
}

const namedActivities = new LRUCache<string, Map<string, string>>({ max: 256 })

/**
 * The activity code a demo map business of `postalCode` is registered under, found by its name: a name search that
 * names no activity (a user's list of names) finds the bakery as a bakery, as the real registry would. Null for a name
 * the demo map does not show there.
 */
export function demoActivityOfName(name: string, postalCode: string, normalize: (text: string) => string): string | null {
  let byName = namedActivities.get(postalCode)
  if (!byName) {
    byName = new Map()
    const criteria = registryPlaceCriteria({ kind: 'postcode', code: postalCode })
    for (const category of criteria ? everySector() : []) {
      const naf = category.naf?.[0]
      if (!naf) continue
      for (const business of demoBusinesses(searchParamsOf(criteria!, 'fr'), category, DEMO_WEBSITES)) {
        if (business.postalCode === postalCode && !byName.has(normalize(business.name))) byName.set(normalize(business.name), naf)
      }
    }
    namedActivities.set(postalCode, byName)
  }
  return byName.get(normalize(name)) ?? null
}
