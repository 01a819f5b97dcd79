import { describe, expect, it } from 'vitest'
import { parseDecimal } from '#app/domain/decimal.ts'
import { readSearchFilters } from '#app/domain/search-filters.ts'

describe('decimal input (both languages write both ways)', () => {
  it.each([
    ['4,2', 4.2],
    ['4.2', 4.2],
    [' 4 ', 4],
    [',5', 0.5],
    ['3,', 3],
    ['0', 0],
  ])('%j → %d', (typed, value) => expect(parseDecimal(typed)).toBe(value))

  it('empty is no value; anything else is not a number', () => {
    expect(parseDecimal('')).toBeNull()
    expect(parseDecimal('   ')).toBeNull()
    expect(parseDecimal(null)).toBeNull()
    for (const typed of ['4,2,1', '4.2.1', '1 000', 'abc', '1e3', '4,2 étoiles', '--1', 'Infinity']) expect(parseDecimal(typed), typed).toBeNaN()
  })

  it('the rating filter reads a French decimal, and names the field when it is not one', () => {
    expect(readSearchFilters(new URLSearchParams('minRating=4,2'))).toMatchObject({ ok: true, filters: { minRating: 4.2 } })
    expect(readSearchFilters(new URLSearchParams('minRating=4.2'))).toMatchObject({ ok: true, filters: { minRating: 4.2 } })
    expect(readSearchFilters(new URLSearchParams('minRating=4,2,1'))).toEqual({ ok: false, field: 'minRating' })
    expect(readSearchFilters(new URLSearchParams('minReviews=1e3'))).toEqual({ ok: false, field: 'minReviews' })
  })
})
