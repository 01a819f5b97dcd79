/**
 * The one place a search's location is read from what a request (or a stored export) sent. A free-trial user once
 * posted `country=Atlantis&countryCode=FR`: the plan check read the unknown name (which requires no region) while
 * the lead source read the code and searched all of France. So the names and the code are checked against each
 * other and the datasets here, once, and everything downstream — the plan check, the preview and its count, the
 * exports, every lead source — reads the ResolvedCriteria this module returns. Its location carries a brand only
 * this module can give, so the compiler refuses a raw request object where a resolved one is expected.
 *
 * Rules: a country name must be known (fr or en name, alias, ISO code); a country code must agree with it and is
 * refused alone; a region, department or city must exist inside the levels above it (a city is looked up in the
 * most precise level given). Nothing unknown is dropped or widened: it is refused, naming the field.
 */
import { validateSearch, type LevelsWithData, type SearchCriteria, type SearchValidation } from '#app/domain/search.ts'
import { countryCodeFromName } from './locations/countries.ts'
import { findPlace } from './locations/places.ts'
import { adminUnitOf } from './locations/geonames-links.ts'
import { citiesOf, subdivisionsOf } from './locations/world.ts'
import { locationLevelsAvailable, resolveFrenchLocation, resolveSubdivisions } from './locations.ts'
import type { PlanId } from '#app/domain/plans.ts'
import type { ResolvedLocation, SearchParams } from '#app/.server/sources/types.ts'

export interface ResolvedCriteria {
  readonly sector: string
  readonly location: ResolvedLocation
  /** Which levels have data for the country and region (the plan never requires a level without data). */
  readonly levels: LevelsWithData
  readonly france: boolean
}

export type LocationField = 'country' | 'countryCode' | 'region' | 'department' | 'city'

export interface LocationRefusal {
  ok: false
  field: LocationField
  messageKey: string
}

export type CriteriaResolution = { ok: true; criteria: ResolvedCriteria } | LocationRefusal

function refuse(field: LocationField, messageKey: string): LocationRefusal {
  return { ok: false, field, messageKey: `search.errors.location.${messageKey}` }
}

/** The alpha-2 code the name and the code agree on (null when neither is given), or a refusal. */
function resolveCountry(country: string, countryCode: string): { ok: true; code: string | null } | LocationRefusal {
  if (!country) return countryCode ? refuse('countryCode', 'countryCodeAlone') : { ok: true, code: null }
  const code = countryCodeFromName(country)
  if (!code) return refuse('country', 'unknownCountry')
  if (countryCode && countryCode.toUpperCase() !== code) return refuse('countryCode', 'countryCodeMismatch')
  return { ok: true, code }
}

type Levels = Pick<SearchCriteria, 'region' | 'department' | 'city'>

/** France: each level inside the one above it (the pickers' own lists). */
function checkFrance({ region, department, city }: Levels): LocationRefusal | null {
  if (region && !resolveFrenchLocation({ region })) return refuse('region', 'unknownRegion')
  if (department && !resolveFrenchLocation({ region, department })) return refuse('department', 'unknownDepartment')
  if (city && !resolveFrenchLocation({ region, department, city })) return refuse('city', 'unknownCity')
  return null
}

/** Elsewhere: ISO 3166-2 subdivisions, and GeoNames cities of the most precise unit given (as the city picker lists them). */
function checkWorld(countryCode: string, { region, department, city }: Levels): LocationRefusal | null {
  const codes = resolveSubdivisions({ country: countryCode, region })
  if (!codes) return refuse('region', 'unknownRegion')
  const departmentCode = department ? (codes.regionCode ? findPlace(subdivisionsOf(codes.regionCode), department)?.code : undefined) : null
  if (departmentCode === undefined) return refuse('department', 'unknownDepartment')
  if (city) {
    const unit = (departmentCode && adminUnitOf(countryCode, departmentCode)) || (codes.regionCode && adminUnitOf(countryCode, codes.regionCode)) || null
    if (!findPlace(citiesOf(countryCode, unit), city)) return refuse('city', 'unknownCity')
  }
  return null
}

/** Checks a search's location (see the module comment); the only way to obtain ResolvedCriteria. */
export function resolveCriteria(criteria: SearchCriteria): CriteriaResolution {
  const text = (value: string | undefined) => (value ?? '').trim()
  const [sector, country, region, department, city] = [criteria.sector, criteria.country, criteria.region, criteria.department, criteria.city].map(text) as [string, string, string, string, string]
  const resolved = resolveCountry(country, text(criteria.countryCode))
  if (!resolved.ok) return resolved
  const countryCode = resolved.code
  if (!countryCode && (region || department || city)) return refuse('country', 'noCountry')
  const refusal = countryCode ? (countryCode === 'FR' ? checkFrance({ region, department, city }) : checkWorld(countryCode, { region, department, city })) : null
  if (refusal) return refusal
  const fields = { country, countryCode: countryCode ?? '', region, department, city }
  const location = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== '')) as ResolvedLocation
  const levels: LevelsWithData = countryCode ? locationLevelsAvailable(countryCode, region || undefined) : {}
  return { ok: true, criteria: { sector, location, levels, france: countryCode === 'FR' } }
}

/** The plan rule (SPEC §5, validateSearch) on the resolved search, with the levels its country has data for. */
export function checkPlan(criteria: ResolvedCriteria, plan: PlanId): SearchValidation {
  const { country = '', region = '', department = '', city = '' } = criteria.location
  return validateSearch({ sector: criteria.sector, country, region, department, city }, plan, criteria.levels)
}

/** What the lead sources are given: the resolved location, the category and the language. */
export function searchParamsOf(criteria: ResolvedCriteria, lang: 'fr' | 'en'): SearchParams {
  return { ...criteria.location, ...(criteria.sector ? { sector: criteria.sector } : {}), lang }
}
