import { describe, expect, test } from 'vitest'
import { ariaSort, DEFAULT_EXPORT_SORT, nextSort, parseExportSort, SORT_CHOICES, sortSearch, sortValue } from '#app/domain/export-list.ts'

const parse = (query: string) => parseExportSort(new URLSearchParams(query))

describe('exports list ordering', () => {
  test('newest first by default, and for anything unknown', () => {
    expect(parse('')).toEqual({ key: 'date', direction: 'desc' })
    expect(parse('sort=credits-asc')).toEqual(DEFAULT_EXPORT_SORT)
    expect(parse('sort=')).toEqual(DEFAULT_EXPORT_SORT)
  })

  test('each column has its natural first direction; an explicit order wins', () => {
    expect(parse('sort=name')).toEqual({ key: 'name', direction: 'asc' })
    expect(parse('sort=status')).toEqual({ key: 'status', direction: 'asc' })
    expect(parse('sort=date')).toEqual({ key: 'date', direction: 'desc' })
    expect(parse('sort=name-desc')).toEqual({ key: 'name', direction: 'desc' })
    expect(parse('sort=date-asc')).toEqual({ key: 'date', direction: 'asc' })
    expect(parse('sort=date-sideways')).toEqual({ key: 'date', direction: 'desc' })
  })

  test('clicking the sorted column flips it; another column starts in its own direction', () => {
    expect(nextSort({ key: 'name', direction: 'asc' }, 'name')).toEqual({ key: 'name', direction: 'desc' })
    expect(nextSort({ key: 'name', direction: 'desc' }, 'name')).toEqual({ key: 'name', direction: 'asc' })
    expect(nextSort({ key: 'name', direction: 'desc' }, 'date')).toEqual({ key: 'date', direction: 'desc' })
    expect(nextSort(DEFAULT_EXPORT_SORT, 'status')).toEqual({ key: 'status', direction: 'asc' })
  })

  test('links keep the status filter and drop the one-off notice', () => {
    expect(sortSearch(new URLSearchParams('status=completed&deleted=1&sort=date'), { key: 'name', direction: 'asc' })).toBe(
      '?status=completed&sort=name-asc',
    )
  })

  test('the select offers every order once, each read back as itself', () => {
    expect(SORT_CHOICES.map(sortValue)).toEqual(['date-desc', 'date-asc', 'name-asc', 'name-desc', 'status-asc', 'status-desc'])
    for (const choice of SORT_CHOICES) expect(parse(`sort=${sortValue(choice)}`)).toEqual(choice)
  })

  test('aria-sort names the sorted column only', () => {
    expect(ariaSort({ key: 'name', direction: 'asc' }, 'name')).toBe('ascending')
    expect(ariaSort({ key: 'date', direction: 'desc' }, 'date')).toBe('descending')
    expect(ariaSort({ key: 'date', direction: 'desc' }, 'name')).toBe('none')
  })
})
