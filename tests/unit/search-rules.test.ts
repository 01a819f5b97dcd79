import { describe, expect, it } from 'vitest'
import {
  criteriaFromSearchParams,
  EMPTY_CRITERIA,
  hasSectorOrLocation,
  levelAvailable,
  levelsWithData,
  parentLevel,
  planRestrictionMessageKey,
  requiredLevels,
  sameSearch,
  validateSearch,
  withLevel,
} from '#app/domain/search.ts'

const france = { ...EMPTY_CRITERIA, country: 'France' }
const region = { ...france, region: 'Île-de-France' }
const department = { ...region, department: 'Paris' }

describe('required levels per plan (SPEC §5)', () => {
  it('free_trial and basic need country, region and department; professional and premium country and region', () => {
    expect(requiredLevels('free_trial')).toEqual(['country', 'region', 'department'])
    expect(requiredLevels('basic')).toEqual(['country', 'region', 'department'])
    expect(requiredLevels('professional')).toEqual(['country', 'region'])
    expect(requiredLevels('premium')).toEqual(['country', 'region'])
  })
})

describe('validateSearch', () => {
  it('needs a sector or a country first', () => {
    expect(hasSectorOrLocation(EMPTY_CRITERIA)).toBe(false)
    expect(hasSectorOrLocation({ sector: ' ', country: '' })).toBe(false)
    expect(validateSearch(EMPTY_CRITERIA, 'premium')).toEqual({ ok: false, reason: 'sector_or_location', messageKey: 'search.errors.sectorOrLocation' })
  })
  it('asks a sector-only search for a country', () => {
    expect(validateSearch({ ...EMPTY_CRITERIA, sector: 'bakery' }, 'premium')).toMatchObject({ ok: false, missing: 'country', messageKey: 'search.plan.requiresCountry' })
  })
  it('stops a free-trial user at region level with the basic modal message', () => {
    expect(validateSearch(region, 'free_trial')).toEqual({
      ok: false,
      reason: 'plan',
      missing: 'department',
      messageKey: 'search.plan.requiresDepartment',
      modalKey: 'search.plan.modalBasic',
    })
    expect(validateSearch(region, 'basic')).toMatchObject({ ok: false, missing: 'department' })
  })
  it('lets professional and premium users search a region, not a country', () => {
    expect(validateSearch(region, 'professional')).toEqual({ ok: true })
    expect(validateSearch(region, 'premium')).toEqual({ ok: true })
    expect(validateSearch(france, 'professional')).toMatchObject({ ok: false, missing: 'region', modalKey: 'search.plan.modalProfessional' })
  })
  it('accepts a department search on every plan and never requires a city', () => {
    for (const plan of ['free_trial', 'basic', 'professional', 'premium'] as const) expect(validateSearch(department, plan)).toEqual({ ok: true })
  })
  it('does not require a level the country has no data for', () => {
    expect(validateSearch(region, 'free_trial', { department: false })).toEqual({ ok: true })
  })
})

describe('levelsWithData: the levels the loaded picker lists show data for', () => {
  const berlin = { ...EMPTY_CRITERIA, country: 'Germany', region: 'Berlin' }
  it('marks a level whose list loaded empty as without data, so a free-trial search of Germany → Berlin passes', () => {
    const levels = levelsWithData({ region: 16, department: 0 })
    expect(levels).toEqual({ country: true, region: true, department: false })
    expect(validateSearch(berlin, 'free_trial', levels)).toEqual({ ok: true })
    expect(validateSearch(berlin, 'basic', levels)).toEqual({ ok: true })
  })
  it('still requires a department where the region has some', () => {
    const levels = levelsWithData({ region: 13, department: 5 })
    expect(levels).toEqual({ country: true, region: true, department: true })
    expect(validateSearch(region, 'free_trial', levels)).toMatchObject({ ok: false, missing: 'department' })
  })
  it('leaves a level unknown while its list is not loaded', () => {
    expect(levelsWithData({})).toEqual({ country: true })
    expect(levelsWithData({ region: 3 })).toEqual({ country: true, region: true })
    expect(validateSearch(berlin, 'free_trial', levelsWithData({ region: 16 }))).toMatchObject({ ok: false, missing: 'department' })
  })
  it('has no department data below a country without regions', () => {
    expect(levelsWithData({ region: 0 })).toEqual({ country: true, region: false, department: false })
    expect(validateSearch({ ...EMPTY_CRITERIA, country: 'Monaco' }, 'free_trial', levelsWithData({ region: 0 }))).toEqual({ ok: true })
  })
  it('uses the basic message for free_trial and basic, the professional one otherwise', () => {
    expect(planRestrictionMessageKey('free_trial')).toBe('search.plan.modalBasic')
    expect(planRestrictionMessageKey('basic')).toBe('search.plan.modalBasic')
    expect(planRestrictionMessageKey('professional')).toBe('search.plan.modalProfessional')
    expect(planRestrictionMessageKey('premium')).toBe('search.plan.modalProfessional')
  })
})

describe('cascading levels (SPEC §4)', () => {
  const full = { ...department, city: 'Paris', sector: 'bakery' }
  it('picking a level clears the ones below', () => {
    expect(withLevel(full, 'country', 'Germany')).toEqual({ ...EMPTY_CRITERIA, sector: 'bakery', country: 'Germany' })
    expect(withLevel(full, 'region', 'Bretagne')).toEqual({ ...full, region: 'Bretagne', department: '', city: '' })
    expect(withLevel(full, 'department', 'Hauts-de-Seine')).toEqual({ ...full, department: 'Hauts-de-Seine', city: '' })
    expect(withLevel(full, 'city', 'Paris')).toEqual(full)
  })
  it('drops orphan levels read from a URL', () => {
    expect(criteriaFromSearchParams(new URLSearchParams('region=Bretagne&city=Rennes&sector=cafe'))).toEqual({ ...EMPTY_CRITERIA, sector: 'cafe' })
  })
  it('compares searches', () => {
    expect(sameSearch(full, { ...full })).toBe(true)
    expect(sameSearch(full, { ...full, city: '' })).toBe(false)
  })
})

describe('a lower level needs its parent, except a parent level with no data', () => {
  const berlin = { ...EMPTY_CRITERIA, country: 'Germany', region: 'Berlin' }
  const germanyLevels = levelsWithData({ region: 16, department: 0 })
  it('waits for the direct parent while nothing says it has no data (France, lists not loaded)', () => {
    expect(parentLevel('country')).toBeNull()
    expect(parentLevel('region')).toBe('country')
    expect(parentLevel('department')).toBe('region')
    expect(parentLevel('city')).toBe('department')
    expect(parentLevel('city', levelsWithData({ region: 13, department: 8 }))).toBe('department')
    expect(parentLevel('city', levelsWithData({ region: 16 }))).toBe('department')
  })
  it('skips a parent level without data: Germany\'s cities wait for the region', () => {
    expect(parentLevel('city', germanyLevels)).toBe('region')
    expect(parentLevel('department', germanyLevels)).toBe('region')
    // No regions either: departments and cities wait for the country.
    expect(parentLevel('city', levelsWithData({ region: 0 }))).toBe('country')
  })
  it('offers the city of Germany → Berlin once the department level is known to be empty', () => {
    expect(levelAvailable('city', berlin, germanyLevels)).toBe(true)
    expect(levelAvailable('city', berlin, levelsWithData({ region: 16 }))).toBe(false)
    expect(levelAvailable('city', berlin)).toBe(false)
    expect(levelAvailable('city', { ...berlin, region: '' }, germanyLevels)).toBe(false)
    expect(levelAvailable('country', EMPTY_CRITERIA)).toBe(true)
  })
  it('keeps France as before: no city without a department', () => {
    const franceLevels = levelsWithData({ region: 13, department: 8 })
    expect(levelAvailable('city', region, franceLevels)).toBe(false)
    expect(levelAvailable('city', department, franceLevels)).toBe(true)
    expect(levelAvailable('department', france, franceLevels)).toBe(false)
  })
  it('keeps a city without a department read from a URL only where the department level has no data', () => {
    const params = new URLSearchParams('country=Germany&region=Berlin&city=Berlin&sector=shop-bakery')
    const levelsFor = (criteria: typeof EMPTY_CRITERIA) => (criteria.country === 'Germany' ? { region: true, department: false, city: true } : { region: true, department: true, city: true })
    expect(criteriaFromSearchParams(params, levelsFor)).toEqual({ ...berlin, city: 'Berlin', sector: 'shop-bakery' })
    // Without knowing the levels, or for France, the orphan city goes.
    expect(criteriaFromSearchParams(params).city).toBe('')
    expect(criteriaFromSearchParams(new URLSearchParams('country=France&region=Bretagne&city=Rennes'), levelsFor)).toEqual({ ...france, region: 'Bretagne' })
    expect(criteriaFromSearchParams(new URLSearchParams('country=Germany&city=Berlin'), levelsFor).city).toBe('')
  })
  it('lets a free-trial user search Germany → Berlin → a city (the city is never required)', () => {
    expect(validateSearch({ ...berlin, city: 'Berlin', sector: 'shop-bakery' }, 'free_trial', germanyLevels)).toEqual({ ok: true })
  })
})

