import { describe, expect, it } from 'vitest'
import { filtersToParams, hasFilters, matchesFilters, NO_FILTERS, readSearchFilters, storedFilters } from '#app/domain/search-filters.ts'

const business = { website: 'https://example.fr', phone: '+33 1 23 45 67 89', rating: 4.2, reviewCount: 37, operationalState: 'OPERATIONAL' }

describe('readSearchFilters', () => {
  it('reads an empty URL as no filter', () => {
    expect(readSearchFilters(new URLSearchParams())).toEqual({ ok: true, filters: NO_FILTERS })
  })

  it('reads ticked boxes and minimums (a decimal comma too)', () => {
    const read = readSearchFilters(new URLSearchParams('hasWebsite=1&hasPhone=on&excludeClosed=1&minRating=4,5&minReviews=10&excludeInsolvent=1'))
    expect(read).toEqual({ ok: true, filters: { hasWebsite: true, hasPhone: true, excludeClosed: true, minRating: 4.5, minReviews: 10, excludeInsolvent: true, excludeRadiated: false } })
  })

  it.each([
    ['minRating=6', 'minRating'],
    ['minRating=-1', 'minRating'],
    ['minRating=abc', 'minRating'],
    ['minReviews=2.5', 'minReviews'],
    ['minReviews=-3', 'minReviews'],
  ])('names the bad field of %s', (query, field) => {
    expect(readSearchFilters(new URLSearchParams(query))).toEqual({ ok: false, field })
  })

  it('round-trips through the URL parameters the form sends', () => {
    const filters = { hasWebsite: true, hasPhone: false, minRating: 3.5, minReviews: null, excludeClosed: true, excludeInsolvent: false, excludeRadiated: true }
    expect(readSearchFilters(new URLSearchParams(filtersToParams(filters)))).toEqual({ ok: true, filters })
    expect(hasFilters(filters)).toBe(true)
    expect(hasFilters(NO_FILTERS)).toBe(false)
  })
})

describe('storedFilters', () => {
  it('reads what createExport stored, and anything else as no filter', () => {
    expect(storedFilters({ hasWebsite: true, minRating: 4 })).toMatchObject({ hasWebsite: true, minRating: 4, hasPhone: false })
    expect(storedFilters(undefined)).toEqual(NO_FILTERS)
    expect(storedFilters({ minRating: 'lots' })).toEqual(NO_FILTERS)
  })
})

describe('matchesFilters', () => {
  it('keeps everything without filters', () => {
    expect(matchesFilters({ website: null, phone: null, rating: null, reviewCount: null, operationalState: null }, NO_FILTERS)).toBe(true)
  })

  it('requires a website and a phone when asked', () => {
    expect(matchesFilters({ ...business, website: null }, { ...NO_FILTERS, hasWebsite: true })).toBe(false)
    expect(matchesFilters({ ...business, website: '  ' }, { ...NO_FILTERS, hasWebsite: true })).toBe(false)
    expect(matchesFilters({ ...business, phone: null }, { ...NO_FILTERS, hasPhone: true })).toBe(false)
    expect(matchesFilters(business, { ...NO_FILTERS, hasWebsite: true, hasPhone: true })).toBe(true)
  })

  it('applies minimums inclusively and leaves out unknown values', () => {
    expect(matchesFilters(business, { ...NO_FILTERS, minRating: 4.2 })).toBe(true)
    expect(matchesFilters(business, { ...NO_FILTERS, minRating: 4.3 })).toBe(false)
    expect(matchesFilters({ ...business, rating: null }, { ...NO_FILTERS, minRating: 0 })).toBe(false)
    expect(matchesFilters(business, { ...NO_FILTERS, minReviews: 37 })).toBe(true)
    expect(matchesFilters(business, { ...NO_FILTERS, minReviews: 38 })).toBe(false)
    expect(matchesFilters({ ...business, reviewCount: null }, { ...NO_FILTERS, minReviews: 1 })).toBe(false)
  })

  it('leaves out businesses closed for good, not those closed for a while', () => {
    const filters = { ...NO_FILTERS, excludeClosed: true }
    expect(matchesFilters({ ...business, operationalState: 'CLOSED_PERMANENTLY' }, filters)).toBe(false)
    expect(matchesFilters({ ...business, operationalState: 'CLOSED_TEMPORARILY' }, filters)).toBe(true)
    expect(matchesFilters({ ...business, operationalState: null }, filters)).toBe(true)
  })
})
