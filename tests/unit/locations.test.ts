import { describe, expect, it } from 'vitest'
import {
  CITY_LIMIT,
  LocationQueryError,
  locationLevelsAvailable,
  countryCodeFromName,
  resolveFrenchLocation,
  resolveSubdivisions,
  searchLevelsWithData,
  searchLocations,
  type LocationQuery,
} from '#app/.server/search/locations.ts'
import { resolveCriteria } from '#app/.server/search/resolve-criteria.ts'
import { filterLocations } from '#app/components/search/use-picker-options.ts'

const names = (request: LocationQuery) => searchLocations(request).map((option) => option.name)

function expectQueryError(request: LocationQuery, code: string, field: string) {
  try {
    searchLocations(request)
  } catch (error) {
    expect(error).toBeInstanceOf(LocationQueryError)
    expect(error).toMatchObject({ code, field })
    return
  }
  throw new Error('expected a LocationQueryError')
}

describe('countries', () => {
  it('lists countries in French and English with alpha-2 codes, sorted by localized name', () => {
    const fr = searchLocations({ type: 'country', lang: 'fr' })
    const en = searchLocations({ type: 'country', lang: 'en' })
    expect(fr.length).toBeGreaterThan(240)
    expect(fr).toContainEqual({ name: 'Allemagne', code: 'DE' })
    expect(en).toContainEqual({ name: 'Germany', code: 'DE' })
    const collator = new Intl.Collator('fr', { sensitivity: 'base' })
    for (let i = 1; i < fr.length; i++) expect(collator.compare(fr[i - 1]!.name, fr[i]!.name)).toBeLessThanOrEqual(0)
  })

  it('filters by query ignoring case and accents', () => {
    expect(names({ type: 'country', lang: 'fr', query: 'allem' })).toEqual(['Allemagne'])
    expect(names({ type: 'country', lang: 'fr', query: 'ETATS' })[0]).toBe("États-Unis d'Amérique")
    expect(names({ type: 'country', lang: 'en', query: 'germ' })).toEqual(['Germany'])
  })

  it('resolves a country given in French, English, as an alias or a code', () => {
    expect(countryCodeFromName('Allemagne')).toBe('DE')
    expect(countryCodeFromName('germany')).toBe('DE')
    expect(countryCodeFromName('DE')).toBe('DE')
    expect(countryCodeFromName('fr')).toBe('FR')
    expect(countryCodeFromName('USA')).toBe('US')
    expect(countryCodeFromName('Royaume-Uni')).toBe('GB')
    expect(countryCodeFromName('Narnia')).toBeNull()
  })
})

describe('France', () => {
  it('has the 18 current regions: 13 metropolitan and 5 overseas', () => {
    const regions = names({ type: 'region', lang: 'fr', countryName: 'France' })
    expect(regions).toHaveLength(18)
    for (const region of ['Île-de-France', 'Bretagne', 'Corse', 'Hauts-de-France', 'Guadeloupe', 'Martinique', 'Guyane', 'La Réunion', 'Mayotte']) {
      expect(regions).toContain(region)
    }
    // Same official names whatever the interface language, and the country may come in English.
    expect(names({ type: 'region', lang: 'en', countryName: 'France' })).toEqual(regions)
  })

  it('filters regions ignoring accents', () => {
    expect(names({ type: 'region', lang: 'fr', countryName: 'France', query: 'ile' })).toEqual(['Île-de-France'])
    expect(names({ type: 'region', lang: 'fr', countryName: 'France', query: 'REUNION' })).toEqual(['La Réunion'])
  })

  it('lists the 8 departments of Île-de-France', () => {
    const departments = searchLocations({ type: 'department', lang: 'fr', countryName: 'France', regionName: 'Île-de-France' })
    expect(departments).toHaveLength(8)
    expect(departments).toContainEqual({ name: 'Paris', code: '75' })
    expect(departments).toContainEqual({ name: 'Hauts-de-Seine', code: '92' })
  })

  it('lists the communes of a department, most populous first', () => {
    const paris = searchLocations({ type: 'city', lang: 'fr', countryName: 'France', regionName: 'Île-de-France', departmentName: 'Paris' })
    expect(paris).toEqual([{ name: 'Paris', code: '75056' }])
    const nord = names({ type: 'city', lang: 'en', countryName: 'France', regionName: 'Hauts-de-France', departmentName: 'Nord' })
    expect(nord).toHaveLength(CITY_LIMIT)
    expect(nord[0]).toBe('Lille')
    const aix = names({ type: 'city', lang: 'fr', countryName: 'France', regionName: "Provence-Alpes-Côte d'Azur", departmentName: 'Bouches-du-Rhône', query: 'aix' })
    expect(aix[0]).toBe('Aix-en-Provence')
  })

  it('refuses a department outside the chosen region', () => {
    expectQueryError({ type: 'city', lang: 'fr', countryName: 'France', regionName: 'Bretagne', departmentName: 'Paris' }, 'unknown_parent', 'departmentName')
  })

  it('resolves codes for the lead sources', () => {
    expect(resolveFrenchLocation({ region: 'Île-de-France', department: 'Hauts-de-Seine', city: 'Nanterre' })).toEqual({
      regionCode: '11',
      regionName: 'Île-de-France',
      departmentCode: '92',
      departmentName: 'Hauts-de-Seine',
      inseeCode: '92050',
      cityName: 'Nanterre',
      postcodes: ['92000'],
      population: expect.any(Number),
    })
    expect(resolveFrenchLocation({ department: 'paris' })).toMatchObject({ regionCode: '11', departmentCode: '75', inseeCode: null })
    expect(resolveFrenchLocation({ city: 'Lyon' })).toMatchObject({ inseeCode: '69123', departmentCode: '69', regionCode: '84' })
    expect(resolveFrenchLocation({ region: 'Bretagne', department: 'Paris' })).toBeNull()
    expect(resolveFrenchLocation({ region: 'Atlantis' })).toBeNull()
  })
})

describe('other countries', () => {
  it('lists ISO 3166-2 regions, the country given in either language', () => {
    const regions = names({ type: 'region', lang: 'en', countryName: 'Germany' })
    expect(regions).toHaveLength(16)
    expect(regions).toContain('Bayern')
    expect(names({ type: 'region', lang: 'fr', countryName: 'Allemagne' })).toEqual(regions)
    expect(names({ type: 'region', lang: 'en', countryName: 'Germany', query: 'bay' })).toEqual(['Bayern'])
  })

  it('lists second-level subdivisions of a region', () => {
    const provinces = searchLocations({ type: 'department', lang: 'en', countryName: 'Italy', regionName: 'Calabria' })
    expect(provinces).toContainEqual({ name: 'Cosenza', code: 'IT-CS' })
    expect(searchLocations({ type: 'department', lang: 'en', countryName: 'Germany', regionName: 'Bayern' })).toEqual([])
  })

  it('lists GeoNames cities narrowed to the region when it can be tied to GeoNames', () => {
    const bavaria = names({ type: 'city', lang: 'en', countryName: 'Germany', regionName: 'Bayern', query: 'munich' })
    expect(bavaria).toContain('Munich')
    const thuringia = names({ type: 'city', lang: 'en', countryName: 'Germany', regionName: 'Thüringen', query: 'munich' })
    expect(thuringia).not.toContain('Munich')
    const cosenza = names({ type: 'city', lang: 'en', countryName: 'Italy', regionName: 'Calabria', departmentName: 'Cosenza' })
    expect(cosenza.length).toBeGreaterThan(0)
    expect(cosenza.length).toBeLessThanOrEqual(CITY_LIMIT)
    expect(names({ type: 'city', lang: 'en', countryName: 'USA', regionName: 'California', query: 'san francisco' })).toContain('San Francisco')
  })

  it('resolves ISO codes of picked subdivisions', () => {
    expect(resolveSubdivisions({ country: 'Italie', region: 'Calabria', department: 'Cosenza' })).toEqual({
      countryCode: 'IT',
      regionCode: 'IT-78',
      departmentCode: 'IT-CS',
    })
    expect(resolveSubdivisions({ country: 'Germany', region: 'Atlantis' })).toBeNull()
  })
})

describe('errors', () => {
  it('reports an unknown type', () => {
    expectQueryError({ type: 'planet', lang: 'en' }, 'unknown_type', 'type')
  })

  it('reports missing parents', () => {
    expectQueryError({ type: 'region', lang: 'en' }, 'missing_parent', 'countryName')
    expectQueryError({ type: 'department', lang: 'fr', countryName: 'France' }, 'missing_parent', 'regionName')
    expectQueryError({ type: 'city', lang: 'fr', countryName: 'France', regionName: 'Île-de-France' }, 'missing_parent', 'departmentName')
    expectQueryError({ type: 'city', lang: 'en', countryName: 'Germany', regionName: '  ' }, 'missing_parent', 'regionName')
  })

  it('reports unknown parents', () => {
    expectQueryError({ type: 'region', lang: 'en', countryName: 'Narnia' }, 'unknown_parent', 'countryName')
    expectQueryError({ type: 'department', lang: 'fr', countryName: 'France', regionName: 'Atlantide' }, 'unknown_parent', 'regionName')
  })
})

describe('locationLevelsAvailable', () => {
  it('says which levels have data', () => {
    expect(locationLevelsAvailable('France')).toEqual({ region: true, department: true, city: true })
    // Germany has Länder but no ISO level below them.
    expect(locationLevelsAvailable('Allemagne')).toEqual({ region: true, department: false, city: true })
    expect(locationLevelsAvailable('Italy')).toEqual({ region: true, department: true, city: true })
    expect(locationLevelsAvailable('Narnia')).toEqual({ region: false, department: false, city: false })
  })

  it('answers per region when one is given', () => {
    expect(locationLevelsAvailable('Italy', 'Calabria').department).toBe(true)
    expect(locationLevelsAvailable('Spain', 'Ceuta').department).toBe(false)
  })

  it('lets a country without second level list cities from its region', () => {
    expect(searchLocations({ type: 'city', lang: 'en', countryName: 'Germany', regionName: 'Bayern' }).length).toBe(CITY_LIMIT)
    // The pickers send no departmentName, or an empty one: the same list of Berlin's places.
    const berlin = names({ type: 'city', lang: 'en', countryName: 'Germany', regionName: 'Berlin' })
    expect(berlin).toContain('Charlottenburg')
    expect(berlin).not.toContain('Munich')
    expect(names({ type: 'city', lang: 'en', countryName: 'Germany', regionName: 'Berlin', departmentName: '' })).toEqual(berlin)
  })

  it('gives the levels of a search for the domain rule (nothing known without a country)', () => {
    expect(searchLevelsWithData({ country: '', region: '' })).toEqual({})
    expect(searchLevelsWithData({ country: 'Germany', region: 'Berlin' })).toMatchObject({ region: true, department: false })
    expect(searchLevelsWithData({ country: 'France', region: 'Bretagne' })).toMatchObject({ region: true, department: true })
  })
})

describe('typed names fold the same in the picker and on the server (issue 19)', () => {
  it('finds "ile de france" typed with spaces, and "st etienne" for Saint-Étienne, as the browser filter does', () => {
    const typed = ['ile de france', 'Ile-de-france', 'ÎLE DE', 'iledefrance']
    for (const query of typed) expect(names({ type: 'region', countryName: 'France', query, lang: 'fr' })[0]).toBe('Île-de-France')
    const regions = searchLocations({ type: 'region', countryName: 'France', lang: 'fr' })
    for (const query of typed) expect(filterLocations(regions, query)[0]?.name).toBe('Île-de-France')

    const loire = { type: 'city', countryName: 'France', regionName: 'Auvergne-Rhône-Alpes', departmentName: 'Loire', lang: 'fr' } as const
    expect(names({ ...loire, query: 'st etienne' })[0]).toBe('Saint-Étienne')
    expect(filterLocations(searchLocations(loire), 'st etienne')[0]?.name).toBe('Saint-Étienne')
    expect(names({ type: 'city', countryName: 'France', regionName: 'Île-de-France', departmentName: 'Val-de-Marne', query: "l hay les", lang: 'fr' })).toContain("L'Haÿ-les-Roses")
  })

  it('the resolver accepts what the picker found, however it was typed', () => {
    const result = resolveCriteria({ sector: '', country: 'france', region: 'ile de france', department: 'val de marne', city: 'L’Haÿ les roses' })
    expect(result.ok).toBe(true)
    expect(resolveCriteria({ sector: '', country: 'France', region: 'Auvergne-Rhône-Alpes', department: 'Loire', city: 'St Etienne' }).ok).toBe(true)
  })
})
