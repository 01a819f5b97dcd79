import { describe, expect, test } from 'vitest'
import { csvDialect, defaultCsvSeparator, formatCsvNumber } from '#app/domain/csv-format.ts'

describe('CSV dialect', () => {
  test('the interface language picks the default: French Excel wants ";" and decimal commas', () => {
    expect(defaultCsvSeparator('fr')).toBe('semicolon')
    expect(defaultCsvSeparator('fr-FR')).toBe('semicolon')
    expect(defaultCsvSeparator('FR_be')).toBe('semicolon')
    expect(defaultCsvSeparator('en')).toBe('comma')
    expect(defaultCsvSeparator('en-GB')).toBe('comma')
    expect(defaultCsvSeparator('frisian')).toBe('comma')
    expect(defaultCsvSeparator(undefined)).toBe('comma')
    expect(csvDialect(null, 'fr')).toEqual({ separator: 'semicolon', delimiter: ';', decimalMark: ',' })
    expect(csvDialect('', 'en')).toEqual({ separator: 'comma', delimiter: ',', decimalMark: '.' })
  })

  test('an explicit choice wins over the language', () => {
    expect(csvDialect('comma', 'fr')).toEqual({ separator: 'comma', delimiter: ',', decimalMark: '.' })
    expect(csvDialect('semicolon', 'en')).toEqual({ separator: 'semicolon', delimiter: ';', decimalMark: ',' })
  })

  test('anything else names no dialect', () => {
    for (const value of ['tab', ';', ',', 'Semicolon', 'comma ', 'constructor', '__proto__']) expect(csvDialect(value, 'fr'), value).toBeNull()
  })

  test('the decimal mark never equals the delimiter', () => {
    for (const separator of ['comma', 'semicolon']) {
      const dialect = csvDialect(separator, 'en')!
      expect(dialect.decimalMark).not.toBe(dialect.delimiter)
    }
  })
})

describe('formatCsvNumber', () => {
  const fr = { decimalMark: ',' } as const
  const en = { decimalMark: '.' } as const

  test('decimal mark of the dialect, sign kept, no thousands separator', () => {
    expect(formatCsvNumber(4.5, fr)).toBe('4,5')
    expect(formatCsvNumber(-1.5536, fr)).toBe('-1,5536')
    expect(formatCsvNumber(48.8686, en)).toBe('48.8686')
    expect(formatCsvNumber(128, fr)).toBe('128')
    expect(formatCsvNumber(1234567.25, fr)).toBe('1234567,25')
    expect(formatCsvNumber(0, fr)).toBe('0')
  })

  test('never an exponent, which a spreadsheet would read as text', () => {
    expect(formatCsvNumber(1e-7, fr)).toBe('0,0000001')
    expect(formatCsvNumber(-2.5e-7, en)).toBe('-0.00000025')
    expect(formatCsvNumber(1e21, fr)).toBe('1000000000000000000000')
  })

  test('not a number: empty cell', () => {
    expect(formatCsvNumber(Number.NaN, fr)).toBe('')
    expect(formatCsvNumber(Number.POSITIVE_INFINITY, en)).toBe('')
  })
})
