/**
 * Builds Overpass QL for a search: the area (France by INSEE code and admin level, elsewhere ISO 3166 or name and
 * admin level) and the tag filter of the category.
 */
import { cityName, findCommune, findDepartment, findRegion } from '#app/.server/geo/france.ts'
import { LeadSourceError, type ResolvedCategory, type SearchParams } from './types.ts'

/** Overpass QL string literal. */
function ql(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`
}

function regexLiteral(text: string): string {
  return ql(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
}

const ADMIN = '["boundary"="administrative"]'

interface OverpassArea {
  /** QL statements leaving the search area in set `.a`. */
  statements: string
  /** Whether the area is a single town (searching "all sectors" is only sensible there). */
  isTown: boolean
  isFrance: boolean
  /** The searched town's name, used when an element has no addr:city. */
  town: string | null
}

function franceArea(params: SearchParams): OverpassArea | null {
  const region = findRegion(params.region)
  const department = findDepartment(params.department)
  if ((params.region && !region) || (params.department && !department)) return null
  const commune = findCommune(params.city, { departmentCode: department?.code, regionCode: region?.code })
  if (params.city && !commune) return null
  const byInsee = (level: number, code: string) => `area${ADMIN}["admin_level"="${level}"]["ref:INSEE"=${ql(code)}]->.a;`
  // Paris/Lyon/Marseille arrondissements are admin level 9 in OSM.
  if (commune) return { statements: byInsee(commune.isArrondissement ? 9 : 8, commune.code), isTown: true, isFrance: true, town: cityName(commune) }
  if (department) return { statements: byInsee(6, department.code), isTown: false, isFrance: true, town: null }
  if (region) return { statements: byInsee(4, region.code), isTown: false, isFrance: true, town: null }
  return { statements: `area["ISO3166-1"="FR"]["admin_level"="2"]->.a;`, isTown: false, isFrance: true, town: null }
}

function overpassArea(params: SearchParams): OverpassArea {
  // The resolved code (resolve-criteria.ts): the country's own, whatever name or code the request sent.
  const countryCode = params.countryCode ?? ''
  if (countryCode === 'FR' || !countryCode) {
    const area = franceArea(params)
    if (area) return area
  }
  const city = params.city?.trim()
  const department = params.department?.trim()
  const region = params.region?.trim()
  const [name, level] = city ? [city, 8] : department ? [department, 6] : region ? [region, 4] : [null, 2]
  const isFrance = countryCode === 'FR'
  if (!name) {
    if (!countryCode) throw new LeadSourceError('bad_request', 'Choose at least a country to search OpenStreetMap')
    return { statements: `area["ISO3166-1"=${ql(countryCode)}]["admin_level"="2"]->.a;`, isTown: false, isFrance, town: null }
  }
  if (/^[A-Z]{2}-[A-Z0-9]{1,3}$/i.test(name)) {
    return { statements: `area["ISO3166-2"=${ql(name.toUpperCase())}]->.a;`, isTown: level === 8, isFrance, town: null }
  }
  const byName = `${ADMIN}["admin_level"="${level}"]["name"=${ql(name)}]`
  const statements = countryCode
    ? // Names repeat across countries: look for the boundary relation inside the country, then turn it into an area.
      `area["ISO3166-1"=${ql(countryCode)}]["admin_level"="2"]->.c;\nrel(area.c)${byName};\nmap_to_area->.a;`
    : `area${byName}->.a;`
  return { statements, isTown: level === 8, isFrance, town: city ?? null }
}

/** Amenities that are businesses (OSM amenity also covers benches, toilets, parking…). */
const BUSINESS_AMENITIES = 'restaurant|cafe|bar|pub|fast_food|ice_cream|pharmacy|bank|dentist|doctors|veterinary|clinic|driving_school|car_rental|cinema|nightclub'
const BUSINESS_OFFICES = 'estate_agent|lawyer|accountant|insurance|architect|notary|travel_agent|it|consulting'

function filters(category: ResolvedCategory | null, area: OverpassArea): string[] {
  if (category?.osm) return [`nwr[${ql(category.osm.key)}=${ql(category.osm.value)}](area.a);`]
  if (category) {
    // Free text has no tag: match business names containing it, among things that are businesses at all.
    return [`nwr[~"^(shop|amenity|craft|office|tourism|healthcare|leisure)$"~"."]["name"~${regexLiteral(category.label || category.id)},i](area.a);`]
  }
  if (!area.isTown) {
    throw new LeadSourceError('bad_request', 'OpenStreetMap cannot list every business of a large area: choose a category or a city')
  }
  return [
    'nwr["shop"](area.a);',
    `nwr["amenity"~"^(${BUSINESS_AMENITIES})$"](area.a);`,
    'nwr["craft"](area.a);',
    `nwr["office"~"^(${BUSINESS_OFFICES})$"](area.a);`,
  ]
}

export interface OverpassQuery {
  query: string
  /** What the query selects (area + category), without its output options: the cache key of the answer. */
  selector: string
  area: OverpassArea
}

export function buildOverpassQuery(
  params: SearchParams,
  category: ResolvedCategory | null,
  options: { maxElements?: number; timeoutSeconds?: number } = {},
): OverpassQuery {
  const area = overpassArea(params)
  const parts = filters(category, area)
  const selector = [area.statements, '(', ...parts.map((p) => `  ${p}`), ');'].join('\n')
  // The output is capped, not sorted: the cap bounds what one answer may weigh.
  const cap = options.maxElements !== undefined ? ` ${options.maxElements}` : ''
  const query = [`[out:json][timeout:${options.timeoutSeconds ?? 90}];`, selector, `out center tags${cap};`].join('\n')
  return { query, selector, area }
}
