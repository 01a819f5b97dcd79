// One resolution of a search's location (app/.server/search/resolve-criteria.ts): names and the country code must
// agree and every level must exist inside the one above it; anything else is refused, naming the field.
import { describe, expect, it } from 'vitest'
import { checkPlan, resolveCriteria, searchParamsOf } from '#app/.server/search/resolve-criteria.ts'
import { EMPTY_CRITERIA, type SearchCriteria } from '#app/domain/search.ts'

const search = (criteria: Partial<SearchCriteria>) => resolveCriteria({ ...EMPTY_CRITERIA, sector: 'shop-bakery', ...criteria })
const refusal = (criteria: Partial<SearchCriteria>) => {
  const result = search(criteria)
  return result.ok ? null : { field: result.field, messageKey: result.messageKey }
}

describe('resolveCriteria: the country', () => {
  it('refuses an unknown country name, whatever code comes with it (the plan check once read the name, the source the code)', () => {
    expect(refusal({ country: 'Atlantis', countryCode: 'FR' })).toEqual({ field: 'country', messageKey: 'search.errors.location.unknownCountry' })
    expect(refusal({ country: 'Atlantis' })).toEqual({ field: 'country', messageKey: 'search.errors.location.unknownCountry' })
    expect(refusal({ country: 'XX' })).toEqual({ field: 'country', messageKey: 'search.errors.location.unknownCountry' })
  })

  it('refuses a code that disagrees with the name, and a code alone', () => {
    expect(refusal({ country: 'Germany', countryCode: 'FR' })).toEqual({ field: 'countryCode', messageKey: 'search.errors.location.countryCodeMismatch' })
    expect(refusal({ country: 'France', countryCode: 'DE' })).toEqual({ field: 'countryCode', messageKey: 'search.errors.location.countryCodeMismatch' })
    expect(refusal({ countryCode: 'DE' })).toEqual({ field: 'countryCode', messageKey: 'search.errors.location.countryCodeAlone' })
  })

  it('accepts a name in either language, an alias or a code, with or without the matching code (any case)', () => {
    for (const criteria of [{ country: 'Allemagne' }, { country: 'Germany', countryCode: 'de' }, { country: 'DE' }, { country: 'deu' }]) {
      const result = search(criteria)
      expect(result.ok && result.criteria.location.countryCode).toBe('DE')
    }
  })

  it('refuses a lower level without a country', () => {
    expect(refusal({ region: 'Bretagne' })).toEqual({ field: 'country', messageKey: 'search.errors.location.noCountry' })
    expect(refusal({ city: 'Lyon' })).toEqual({ field: 'country', messageKey: 'search.errors.location.noCountry' })
  })

  it('accepts a search without any location (the plan check then asks for a country)', () => {
    const result = search({})
    expect(result.ok).toBe(true)
    if (result.ok) expect(checkPlan(result.criteria, 'premium')).toMatchObject({ ok: false, missing: 'country' })
  })
})

describe('resolveCriteria: regions, departments, cities', () => {
  it('France: each level must exist inside the level above it', () => {
    expect(refusal({ country: 'France', region: 'Atlantide' })).toEqual({ field: 'region', messageKey: 'search.errors.location.unknownRegion' })
    expect(refusal({ country: 'France', region: 'Bretagne', department: 'Paris' })).toEqual({ field: 'department', messageKey: 'search.errors.location.unknownDepartment' })
    expect(refusal({ country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Lyon' })).toEqual({ field: 'city', messageKey: 'search.errors.location.unknownCity' })
    expect(refusal({ country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Nulle-Part-sur-Mer' })).toEqual({ field: 'city', messageKey: 'search.errors.location.unknownCity' })
    expect(refusal({ country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest' })).toBeNull()
  })

  it('elsewhere: ISO subdivisions and the cities the picker lists', () => {
    expect(refusal({ country: 'Germany', region: 'Atlantis' })).toEqual({ field: 'region', messageKey: 'search.errors.location.unknownRegion' })
    expect(refusal({ country: 'Germany', region: 'Bayern', department: 'Somewhere' })).toEqual({ field: 'department', messageKey: 'search.errors.location.unknownDepartment' })
    expect(refusal({ country: 'Germany', region: 'Berlin', city: 'Atlantis' })).toEqual({ field: 'city', messageKey: 'search.errors.location.unknownCity' })
    expect(refusal({ country: 'Germany', region: 'Berlin', city: 'Charlottenburg' })).toBeNull()
    expect(refusal({ country: 'Italie', region: 'Calabria', department: 'Cosenza' })).toBeNull()
  })

  it('gives the sources the resolved code and the levels the plan check needs', () => {
    const result = search({ country: ' Allemagne ', region: 'Berlin' })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.criteria.levels).toMatchObject({ region: true, department: false })
    expect(result.criteria.france).toBe(false)
    expect(searchParamsOf(result.criteria, 'fr')).toEqual({ sector: 'shop-bakery', country: 'Allemagne', countryCode: 'DE', region: 'Berlin', lang: 'fr' })
    // Germany has no departments: the free trial's department rule does not apply there.
    expect(checkPlan(result.criteria, 'free_trial')).toEqual({ ok: true })
  })
})
