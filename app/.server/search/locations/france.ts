/**
 * France in the location pickers: the 18 current regions (13 metropolitan + 5 overseas), their departments and
 * their whole communes, indexed as picker places. The data and the lookups are geo/france.ts's; this module only
 * decides what the pickers list. Names are the official French names in both interface languages.
 */
import { type Commune, type Department, type FranceScope, type Region, findCommune, findDepartment, findRegion, franceData } from '#app/.server/geo/france.ts'
import { sortByName, toPlace, type Place } from './places.ts'

export interface FranceIndex {
  regions: readonly Place[]
  departmentsByRegion: ReadonlyMap<string, readonly Place[]>
  /** Every listed department, for lookups without a region. */
  departments: readonly Place[]
  departmentRegion: ReadonlyMap<string, string>
  /** Communes per department code, most populous first: the order the city picker shows. */
  communesByDepartment: ReadonlyMap<string, readonly Place[]>
}

// Collectivités d'outre-mer (zone "com") are not regions in the 2016 reform sense: only
// metropolitan and overseas regions (drom) are listed.
const LISTED_ZONES = new Set(['metro', 'drom'])

let index: FranceIndex | undefined

/** Builds the picker index on first use and keeps it in memory. */
export function france(): FranceIndex {
  index ??= buildIndex()
  return index
}

function buildIndex(): FranceIndex {
  const data = franceData()
  const regions = data.regions.filter((r) => LISTED_ZONES.has(r.zone))
  const regionCodes = new Set(regions.map((r) => r.code))
  const departments = data.departments.filter((d) => regionCodes.has(d.region))

  const departmentsByRegion = new Map<string, Place[]>()
  const departmentRegion = new Map<string, string>()
  for (const department of departments) {
    const list = departmentsByRegion.get(department.region) ?? []
    list.push(toPlace(department.nom, department.code))
    departmentsByRegion.set(department.region, list)
    departmentRegion.set(department.code, department.region)
  }
  for (const list of departmentsByRegion.values()) sortByName(list, 'fr')

  return {
    regions: sortByName(regions.map((r) => toPlace(r.nom, r.code)), 'fr'),
    departmentsByRegion,
    departments: sortByName(departments.map((d) => toPlace(d.nom, d.code)), 'fr'),
    departmentRegion,
    communesByDepartment: communePlaces(departmentRegion),
  }
}

/** Paris/Lyon/Marseille arrondissements are not cities: the picker lists whole communes only. */
function communePlaces(departmentRegion: ReadonlyMap<string, string>): Map<string, Place[]> {
  const byDepartment = new Map<string, Commune[]>()
  for (const commune of franceData().communes) {
    if (commune.isArrondissement || !departmentRegion.has(commune.departement)) continue
    const list = byDepartment.get(commune.departement) ?? []
    list.push(commune)
    byDepartment.set(commune.departement, list)
  }
  const collator = new Intl.Collator('fr', { sensitivity: 'base' })
  const places = new Map<string, Place[]>()
  for (const [code, communes] of byDepartment) {
    communes.sort((a, b) => b.population - a.population || collator.compare(a.nom, b.nom))
    places.set(code, communes.map((c) => toPlace(c.nom, c.code)))
  }
  return places
}

/** A region the pickers list, by name or code. */
export function listedRegion(nameOrCode: string): Region | undefined {
  const region = findRegion(nameOrCode)
  return region && LISTED_ZONES.has(region.zone) ? region : undefined
}

/** A listed department by name or code, within `regionCode` when given. */
export function listedDepartment(nameOrCode: string, regionCode?: string): Department | undefined {
  const department = findDepartment(nameOrCode)
  if (!department || !france().departmentRegion.has(department.code)) return undefined
  return regionCode === undefined || department.region === regionCode ? department : undefined
}

/**
 * A whole commune of a listed department, by name, INSEE code or postcode, within `scope`; a homonym
 * ("Saint-Martin") resolves to the most populous commune of that name.
 */
export function listedCommune(nameOrCode: string, scope: FranceScope = {}): Commune | undefined {
  const { departmentRegion } = france()
  return findCommune(nameOrCode, scope, (c) => !c.isArrondissement && departmentRegion.has(c.departement))
}
