// Search rules (SPEC §4 Search form, §5 Search, §7 preview payload). Pure: shared by client and server.
import type { PlanId } from './plans.ts'
import { SearchCriteriaSchema } from './search-schema.ts'

export const LOCATION_LEVELS = ['country', 'region', 'department', 'city'] as const
export type LocationLevel = (typeof LOCATION_LEVELS)[number]

export const PREVIEW_LIMIT = 20

export interface SearchCriteria {
  sector: string
  country: string
  countryCode?: string
  region: string
  department: string
  city: string
}

export const EMPTY_CRITERIA: SearchCriteria = { sector: '', country: '', region: '', department: '', city: '' }

/** Which levels the plan requires (city never is). */
export function requiredLevels(plan: PlanId): LocationLevel[] {
  return plan === 'professional' || plan === 'premium' ? ['country', 'region'] : ['country', 'region', 'department']
}

/** A category or a country is needed before the form can be submitted at all. */
export function hasSectorOrLocation(criteria: Pick<SearchCriteria, 'sector' | 'country'>): boolean {
  return criteria.sector.trim() !== '' || criteria.country.trim() !== ''
}

const PLAN_REQUIREMENT_MESSAGES: Record<LocationLevel, string> = {
  country: 'search.plan.requiresCountry',
  region: 'search.plan.requiresRegion',
  department: 'search.plan.requiresDepartment',
  city: 'search.plan.requiresCity',
}

export type SearchValidation =
  | { ok: true }
  | { ok: false; reason: 'sector_or_location'; messageKey: string }
  | { ok: false; reason: 'plan'; missing: LocationLevel; messageKey: string; modalKey: string }

/**
 * The plan rule of SPEC §5. `availableLevels` says which levels have data for the chosen
 * country: a level with no data (e.g. no departments) cannot be required.
 */
export function validateSearch(
  criteria: SearchCriteria,
  plan: PlanId,
  availableLevels: Partial<Record<LocationLevel, boolean>> = {},
): SearchValidation {
  if (!hasSectorOrLocation(criteria)) return { ok: false, reason: 'sector_or_location', messageKey: 'search.errors.sectorOrLocation' }
  for (const level of requiredLevels(plan)) {
    if (availableLevels[level] === false) continue
    if (!criteria[level].trim()) {
      return { ok: false, reason: 'plan', missing: level, messageKey: PLAN_REQUIREMENT_MESSAGES[level], modalKey: planRestrictionMessageKey(plan) }
    }
  }
  return { ok: true }
}

/**
 * Which levels have data, from the option lists the pickers loaded for the chosen parents: the
 * number of options, or undefined while a list is not loaded (then the level is not known).
 * The client's view of the server's `locationLevelsAvailable`: a level with no options has no
 * data, nor has a level below one without data.
 */
export function levelsWithData(loaded: { region?: number; department?: number }): LevelsWithData {
  const region = loaded.region === undefined ? undefined : loaded.region > 0
  const department = region === false ? false : loaded.department === undefined ? undefined : loaded.department > 0
  const levels: LevelsWithData = { country: true }
  if (region !== undefined) levels.region = region
  if (department !== undefined) levels.department = department
  return levels
}

export type LevelsWithData = Partial<Record<LocationLevel, boolean>>

/**
 * The level a picker waits for: the nearest level above it, skipping a level known to have no
 * data (Germany has no departments, so its cities wait for the region). A level not known to
 * lack data (unknown: not loaded yet) is waited for, so France's cities always need a department.
 * Null for the country.
 */
export function parentLevel(level: LocationLevel, levels: LevelsWithData = {}): LocationLevel | null {
  for (let index = LOCATION_LEVELS.indexOf(level) - 1; index >= 0; index--) {
    const parent = LOCATION_LEVELS[index]!
    if (levels[parent] !== false) return parent
  }
  return null
}

/** A lower level needs its parent chosen, except a parent level that has no data (see parentLevel). */
export function levelAvailable(level: LocationLevel, criteria: SearchCriteria, levels: LevelsWithData = {}): boolean {
  const parent = parentLevel(level, levels)
  return parent === null || criteria[parent].trim() !== ''
}

/** The restriction modal shows the basic message for free_trial and basic, the professional one otherwise. */
export function planRestrictionMessageKey(plan: PlanId): string {
  return plan === 'free_trial' || plan === 'basic' ? 'search.plan.modalBasic' : 'search.plan.modalProfessional'
}

/** Picking a level clears the levels below it (SPEC §4). */
export function withLevel(criteria: SearchCriteria, level: LocationLevel, value: string): SearchCriteria {
  const next = { ...criteria, [level]: value }
  const index = LOCATION_LEVELS.indexOf(level)
  for (const lower of LOCATION_LEVELS.slice(index + 1)) next[lower] = ''
  if (level === 'country') delete next.countryCode
  return next
}

/** The preview shows only while the form still matches the search that produced it. */
export function sameSearch(a: SearchCriteria, b: SearchCriteria): boolean {
  return a.sector === b.sector && LOCATION_LEVELS.every((level) => a[level] === b[level])
}

/**
 * Reads criteria from URL search params (the search is a GET form). `levelsFor` says which levels
 * have data for the country and region read (the server's `locationLevelsAvailable`); without it
 * every level needs its direct parent.
 */
export function criteriaFromSearchParams(params: URLSearchParams, levelsFor?: (criteria: SearchCriteria) => LevelsWithData): SearchCriteria {
  const read = (name: string) => params.get(name)
  const criteria = SearchCriteriaSchema.parse({
    sector: read('sector'),
    country: read('country'),
    countryCode: read('countryCode'),
    region: read('region'),
    department: read('department'),
    city: read('city'),
  })
  // A lower level without its parent is meaningless (and would be disabled in the form).
  const levels = levelsFor?.(criteria) ?? {}
  for (const level of LOCATION_LEVELS) if (!levelAvailable(level, criteria, levels)) criteria[level] = ''
  return criteria
}

/** How many businesses match (free, before any export): exactly, or at least `value` where the source was not read to its end. */
export interface MatchCount {
  value: number
  exact: boolean
}

/** One row of the results preview (SPEC §3 Preview lead result). */
export interface PreviewLead {
  id: string
  name: string
  address: string | null
  businessTypes: string[]
  website: string | null
  rating: number | null
  reviewCount: number | null
}
