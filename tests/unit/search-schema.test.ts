import { describe, expect, it } from 'vitest'
import { firstBadField, PreviewBodySchema, SearchCriteriaSchema } from '#app/domain/search-schema.ts'
import { EMPTY_CRITERIA } from '#app/domain/search.ts'

describe('search criteria schema', () => {
  it('trims, caps at 200 characters and reads absent or null as empty', () => {
    expect(SearchCriteriaSchema.parse({ sector: '  cafe ', country: null, city: 'x'.repeat(250) })).toEqual({ ...EMPTY_CRITERIA, sector: 'cafe', city: 'x'.repeat(200) })
  })
  it('keeps an explicit country code, leaves an empty one out', () => {
    expect(SearchCriteriaSchema.parse({ country: 'France', countryCode: ' FR ' })).toEqual({ ...EMPTY_CRITERIA, country: 'France', countryCode: 'FR' })
    expect(SearchCriteriaSchema.parse({ countryCode: '' })).not.toHaveProperty('countryCode')
  })
})

describe('preview body (POST /api/search/preview)', () => {
  it('splits the criteria from the language', () => {
    expect(PreviewBodySchema.parse({ sector: 'shop-bakery', country: 'France', lang: 'fr' })).toEqual({ lang: 'fr', criteria: { ...EMPTY_CRITERIA, sector: 'shop-bakery', country: 'France' } })
  })
  it('every field may be left out', () => {
    expect(PreviewBodySchema.parse({})).toEqual({ lang: undefined, criteria: EMPTY_CRITERIA })
    expect(PreviewBodySchema.parse({ country: 'France' }).criteria).toEqual({ ...EMPTY_CRITERIA, country: 'France' })
  })
  it('an unknown language falls back (undefined), it is not an error', () => {
    expect(PreviewBodySchema.parse({ country: 'France', lang: 'de' }).lang).toBeUndefined()
    expect(PreviewBodySchema.parse({ country: 'France', lang: 3 }).lang).toBeUndefined()
  })
  it('names the first field that is not a string, in field order', () => {
    const result = PreviewBodySchema.safeParse({ sector: 42, country: null, city: {} })
    expect(result.success).toBe(false)
    if (!result.success) expect(firstBadField(result.error)).toBe('sector')
    const city = PreviewBodySchema.safeParse({ city: ['Paris'] })
    if (!city.success) expect(firstBadField(city.error)).toBe('city')
  })
})
