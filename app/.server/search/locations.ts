/**
 * The four cascading location pickers (SPEC §2, §4, §7 "GET locations search"): country, region,
 * department, city. France uses its official hierarchy (régions, départements, communes); other
 * countries use ISO 3166-2 subdivisions and GeoNames cities. Datasets load on first use and stay
 * in memory, indexed so a lookup is a map read plus a filter.
 *
 * Parent levels arrive as the display names the user picked (a country in fr or en, an alias or
 * a code is accepted too). Requests the API must refuse throw LocationQueryError (→ HTTP 400).
 */
import { countriesIn, countryCodeFromName, type Lang } from './locations/countries.ts'
import { france, listedCommune, listedDepartment, listedRegion } from './locations/france.ts'
import { filterPlaces, findPlace, toOption, type LocationOption, type Place } from './locations/places.ts'
import type { LevelsWithData } from '#app/domain/search.ts'
import { adminUnitOf } from './locations/geonames-links.ts'
import { citiesOf, countryHasCities, subdivisionsOf, type AdminUnit } from './locations/world.ts'

export type { LocationOption }
export { countryCodeFromName }

const LOCATION_TYPES = ['country', 'region', 'department', 'city'] as const
type LocationType = (typeof LOCATION_TYPES)[number]

/** The city picker shows the first 100 matches; typing narrows the list. */
export const CITY_LIMIT = 100

export interface LocationQuery {
  /** One of LOCATION_TYPES; anything else is refused (the API passes the raw query parameter). */
  type: string
  query?: string
  countryName?: string
  regionName?: string
  departmentName?: string
  lang: Lang
}

export type LocationQueryErrorCode = 'unknown_type' | 'missing_parent' | 'unknown_parent'
export type LocationField = 'type' | 'countryName' | 'regionName' | 'departmentName'

/** A request the locations API answers with 400: bad type, or a parent level missing/unknown. */
export class LocationQueryError extends Error {
  readonly code: LocationQueryErrorCode
  readonly field: LocationField
  constructor(code: LocationQueryErrorCode, field: LocationField) {
    super(`${code}: ${field}`)
    this.name = 'LocationQueryError'
    this.code = code
    this.field = field
  }
}

function isLocationType(type: string): type is LocationType {
  return (LOCATION_TYPES as readonly string[]).includes(type)
}

/**
 * Options of one picker level, filtered by `query` (case and accents ignored, prefix matches
 * first). Countries: localized names sorted by name, code = alpha-2. France: official French
 * names; communes by population. Elsewhere: ISO 3166-2 names; GeoNames cities by name.
 */
export function searchLocations(request: LocationQuery): LocationOption[] {
  const { type, query } = request
  if (!isLocationType(type)) throw new LocationQueryError('unknown_type', 'type')
  if (type === 'country') return filterPlaces(countriesIn(request.lang), query).map(toOption)

  const countryCode = requireCountry(request.countryName)
  const levels = countryCode === 'FR' ? franceLevels(request, type) : worldLevels(countryCode, request, type)
  return filterPlaces(levels.places, query, type === 'city' ? CITY_LIMIT : Infinity).map(toOption)
}

function requireCountry(countryName: string | undefined): string {
  if (!countryName?.trim()) throw new LocationQueryError('missing_parent', 'countryName')
  const code = countryCodeFromName(countryName)
  if (!code) throw new LocationQueryError('unknown_parent', 'countryName')
  return code
}

function requireParent<T>(name: string | undefined, field: LocationField, find: (name: string) => T | undefined): T {
  if (!name?.trim()) throw new LocationQueryError('missing_parent', field)
  const place = find(name)
  if (!place) throw new LocationQueryError('unknown_parent', field)
  return place
}

function franceLevels(request: LocationQuery, type: Exclude<LocationType, 'country'>): { places: readonly Place[] } {
  const index = france()
  if (type === 'region') return { places: index.regions }
  const region = requireParent(request.regionName, 'regionName', listedRegion)
  if (type === 'department') return { places: index.departmentsByRegion.get(region.code) ?? [] }
  const department = requireParent(request.departmentName, 'departmentName', (name) => listedDepartment(name, region.code))
  return { places: index.communesByDepartment.get(department.code) ?? [] }
}

function worldLevels(
  countryCode: string,
  request: LocationQuery,
  type: Exclude<LocationType, 'country'>,
): { places: readonly Place[] } {
  const regions = subdivisionsOf(countryCode)
  if (type === 'region') return { places: regions }
  // A level without data is skipped: a country without ISO subdivisions lists its cities
  // straight away, and the pickers (see locationLevelsAvailable) never ask for it.
  const region = regions.length > 0 ? requireParent(request.regionName, 'regionName', (name) => findPlace(regions, name)) : null
  const departments = region ? subdivisionsOf(region.code!) : []
  if (type === 'department') return { places: departments }
  const department =
    departments.length > 0 ? requireParent(request.departmentName, 'departmentName', (name) => findPlace(departments, name)) : null
  // Narrow cities to the most precise level GeoNames can be tied to, else the whole country.
  const unit: AdminUnit | null =
    (department && adminUnitOf(countryCode, department.code!)) ?? (region && adminUnitOf(countryCode, region.code!)) ?? null
  return { places: citiesOf(countryCode, unit) }
}

export interface LocationLevels {
  region: boolean
  department: boolean
  city: boolean
}

/**
 * Which picker levels have data for a country (and, given a region, for that region): plan rules
 * must not require a level that cannot be filled (e.g. Germany has no ISO level below its Länder).
 * An unknown country has nothing.
 */
export function locationLevelsAvailable(countryName: string, regionName?: string): LocationLevels {
  const countryCode = countryCodeFromName(countryName)
  if (!countryCode) return { region: false, department: false, city: false }
  if (countryCode === 'FR') return { region: true, department: true, city: true }
  const regions = subdivisionsOf(countryCode)
  const region = regionName ? findPlace(regions, regionName) : undefined
  const department = region
    ? subdivisionsOf(region.code!).length > 0
    : !regionName && regions.some((r) => subdivisionsOf(r.code!).length > 0)
  return { region: regions.length > 0, department, city: countryHasCities(countryCode) }
}

/**
 * locationLevelsAvailable for the country and region of a search, in the domain's terms (see
 * levelAvailable in app/domain/search.ts); nothing is known without a country.
 */
export function searchLevelsWithData(criteria: { country: string; region: string }): LevelsWithData {
  return criteria.country ? locationLevelsAvailable(criteria.country, criteria.region || undefined) : {}
}

// -----------------------------------------------------------------------------------------------
// Codes for the lead sources
// -----------------------------------------------------------------------------------------------

export interface FrenchLocationCodes {
  regionCode: string | null
  regionName: string | null
  departmentCode: string | null
  departmentName: string | null
  /** INSEE code of the commune (Overpass `ref:INSEE`, registry lookups). */
  inseeCode: string | null
  cityName: string | null
  postcodes: string[]
  population: number | null
}

/**
 * INSEE codes of a French region / department / commune given by name (or code). Missing upper
 * levels are derived from the lower ones. Null when a given level is unknown or not inside the
 * level above it.
 */
export function resolveFrenchLocation(location: {
  region?: string | null
  department?: string | null
  city?: string | null
}): FrenchLocationCodes | null {
  const index = france()
  const result: FrenchLocationCodes = {
    regionCode: null, regionName: null, departmentCode: null, departmentName: null,
    inseeCode: null, cityName: null, postcodes: [], population: null,
  }
  if (location.region?.trim()) {
    const region = listedRegion(location.region)
    if (!region) return null
    result.regionCode = region.code
  }
  if (location.department?.trim()) {
    const department = listedDepartment(location.department, result.regionCode ?? undefined)
    if (!department) return null
    result.departmentCode = department.code
    result.regionCode = department.region
  }
  if (location.city?.trim()) {
    // Within the department, else the region (most populous homonym).
    const scope = result.departmentCode !== null ? { departmentCode: result.departmentCode } : { regionCode: result.regionCode ?? undefined }
    const commune = listedCommune(location.city, scope)
    if (!commune) return null
    result.inseeCode = commune.code
    result.cityName = commune.nom
    result.postcodes = [...commune.codesPostaux]
    result.population = commune.population
    result.departmentCode = commune.departement
    result.regionCode = commune.region
  }
  result.regionName = index.regions.find((r) => r.code === result.regionCode)?.name ?? null
  result.departmentName = index.departments.find((d) => d.code === result.departmentCode)?.name ?? null
  return result
}

export interface SubdivisionCodes {
  countryCode: string
  /** ISO 3166-2 codes (e.g. "DE-BY"), null when not given. */
  regionCode: string | null
  departmentCode: string | null
}

/**
 * ISO codes of a country and its picked subdivisions (Overpass `ISO3166-2`, Google region codes).
 * For France use resolveFrenchLocation. Null when a given level is unknown.
 */
export function resolveSubdivisions(location: {
  country: string
  region?: string | null
  department?: string | null
}): SubdivisionCodes | null {
  const countryCode = countryCodeFromName(location.country)
  if (!countryCode) return null
  const result: SubdivisionCodes = { countryCode, regionCode: null, departmentCode: null }
  if (location.region?.trim()) {
    const region = findPlace(subdivisionsOf(countryCode), location.region)
    if (!region) return null
    result.regionCode = region.code!
    if (location.department?.trim()) {
      const department = findPlace(subdivisionsOf(region.code!), location.department)
      if (!department) return null
      result.departmentCode = department.code!
    }
  }
  return result
}
