/**
 * Where a French commune is and which telephone zone it dials, for the demo businesses placed there. Centres come
 * from GeoNames (geo/cities.ts), matched by department and name: approximate, but always in the right part of France.
 */
import { citiesIn } from './cities.ts'
import { type Commune, cityName, departmentOf, franceData, normalizeName } from './france.ts'

// GeoNames files the overseas departments under their own country codes.
const OVERSEAS_COUNTRY = { '971': 'GP', '972': 'MQ', '973': 'GF', '974': 'RE', '976': 'YT' } as const
type OverseasCountry = (typeof OVERSEAS_COUNTRY)[keyof typeof OVERSEAS_COUNTRY]

function overseasCountry(departement: string): OverseasCountry | undefined {
  return departement in OVERSEAS_COUNTRY ? OVERSEAS_COUNTRY[departement as keyof typeof OVERSEAS_COUNTRY] : undefined
}

let coordinates: Map<string, { lat: number; lng: number }> | undefined

function coordinateKey(departement: string, name: string): string {
  return `${overseasCountry(departement) ?? departement}|${normalizeName(name)}`
}

/** "<department or overseas country>|<name>" → centre, the first GeoNames place of that name winning. */
function loadCoordinates(): Map<string, { lat: number; lng: number }> {
  const map = new Map<string, { lat: number; lng: number }>()
  for (const country of ['FR', ...Object.values(OVERSEAS_COUNTRY)]) {
    for (const city of citiesIn(country)) {
      const key = `${country === 'FR' ? city.admin2 : country}|${normalizeName(city.name)}`
      if (!map.has(key)) map.set(key, { lat: city.lat, lng: city.lng })
    }
  }
  return map
}

function lookupCentre(commune: Commune): { lat: number; lng: number } | undefined {
  coordinates ??= loadCoordinates()
  // Communes merged since GeoNames was compiled keep their main town's name first: "Oullins-Pierre-Bénite" → "Oullins".
  const parts = cityName(commune).split('-')
  for (let n = parts.length; n > 0; n--) {
    const found = coordinates.get(coordinateKey(commune.departement, parts.slice(0, n).join('-')))
    if (found) return found
  }
  return undefined
}

/**
 * Approximate centre of a commune (GeoNames places of 1 000+ inhabitants, matched by department and name), else its
 * department's prefecture, so a demo business always sits in the right part of France.
 */
export function communeCentre(commune: Commune): { lat: number; lng: number } | null {
  const own = lookupCentre(commune)
  if (own) return own
  const department = departmentOf(commune)
  const prefecture = department && franceData().communeByCode.get(department.chefLieu)
  return (prefecture && prefecture !== commune ? lookupCentre(prefecture) : undefined) ?? null
}

/** The dialling zone of a department: 01 Île-de-France, 02 north-west, 03 north-east, 04 south-east, 05 south-west. */
export function phoneZone(commune: Commune): '1' | '2' | '3' | '4' | '5' | OverseasCountry {
  const overseas = overseasCountry(commune.departement)
  if (overseas) return overseas
  switch (commune.region) {
    case '11':
      return '1'
    case '24':
    case '28':
    case '52':
    case '53':
      return '2'
    case '27':
    case '32':
    case '44':
      return '3'
    case '75':
      return '5'
    case '76':
      // Occitanie straddles two zones: the Toulouse side dials 05, the Montpellier side 04.
      return ['11', '30', '34', '48', '66'].includes(commune.departement) ? '4' : '5'
    default:
      return '4'
  }
}
