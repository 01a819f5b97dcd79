import { describe, expect, test } from 'vitest'
import { exportFileName, fileNameStem, isoDay } from '#app/domain/file-names.ts'
import { foldToAscii } from '#app/domain/text.ts'

const DAY = new Date('2026-11-22T10:00:00Z')

describe('exportFileName (SPEC §5)', () => {
  test("the spec's example", () => {
    expect(exportFileName('Boulangeries Paris 11e!', DAY, 'csv')).toBe('boulangeries_paris_11e__2026-11-22.csv')
  })

  test('xlsx extension', () => {
    expect(exportFileName('Plombiers Lyon', DAY, 'xlsx')).toBe('plombiers_lyon_2026-11-22.xlsx')
  })

  test('every non-alphanumeric character becomes one underscore; runs are kept', () => {
    expect(exportFileName('a  b--c/d\\e.f', DAY, 'csv')).toBe('a__b__c_d_e_f_2026-11-22.csv')
    expect(exportFileName('../../etc/passwd', DAY, 'csv')).toBe('______etc_passwd_2026-11-22.csv')
    expect(exportFileName('"quoted"; name\r\n', DAY, 'csv')).toBe('_quoted___name___2026-11-22.csv')
  })

  test('accented Latin letters are folded to ASCII first', () => {
    expect(exportFileName('Café Crème', DAY, 'csv')).toBe('cafe_creme_2026-11-22.csv')
    expect(exportFileName('ÉCOLES Île-de-France', DAY, 'csv')).toBe('ecoles_ile_de_france_2026-11-22.csv')
    expect(exportFileName('Œuvres & Cie', DAY, 'csv')).toBe('oeuvres___cie_2026-11-22.csv')
    expect(exportFileName('Straße Łódź Ærø', DAY, 'csv')).toBe('strasse_lodz_aero_2026-11-22.csv')
    // Already decomposed input (NFD) gives the same result as precomposed.
    expect(exportFileName('Cafe\u0301', DAY, 'csv')).toBe('cafe_2026-11-22.csv')
  })

  test('a name with nothing alphanumeric left becomes "export"', () => {
    expect(exportFileName('', DAY, 'csv')).toBe('export_2026-11-22.csv')
    expect(exportFileName('   ', DAY, 'csv')).toBe('export_2026-11-22.csv')
    expect(exportFileName('!!!', DAY, 'xlsx')).toBe('export_2026-11-22.xlsx')
    expect(exportFileName('東京', DAY, 'csv')).toBe('export_2026-11-22.csv')
  })

  test('non-Latin characters and emoji are one underscore each', () => {
    expect(exportFileName('Кафе 2', DAY, 'csv')).toBe('_____2_2026-11-22.csv')
    expect(exportFileName('pizza🍕', DAY, 'csv')).toBe('pizza__2026-11-22.csv')
  })

  test('the output only ever holds [a-z0-9_.-] and stays short', () => {
    const name = exportFileName('Ünïcödé <script>alert(1)</script> '.repeat(20), DAY, 'xlsx')
    expect(name).toMatch(/^[a-z0-9_]+_\d{4}-\d{2}-\d{2}\.xlsx$/)
    expect(name.length).toBeLessThanOrEqual(150 + '_2026-11-22.xlsx'.length)
  })

  test('the date is the UTC day', () => {
    // 23:30 in New York on the 21st is already the 22nd in UTC.
    expect(exportFileName('x', new Date('2026-11-22T04:30:00Z'), 'csv')).toBe('x_2026-11-22.csv')
    expect(exportFileName('x', new Date('2026-11-21T23:59:59.999Z'), 'csv')).toBe('x_2026-11-21.csv')
    expect(isoDay(new Date(Date.UTC(2027, 0, 5)))).toBe('2027-01-05')
  })

  test('an invalid date throws', () => {
    expect(() => exportFileName('x', new Date('nope'), 'csv')).toThrow(RangeError)
  })
})

describe('helpers', () => {
  test('foldToAscii lowercases and strips accents, leaving other characters', () => {
    expect(foldToAscii('À la Française!')).toBe('a la francaise!')
  })

  test('fileNameStem', () => {
    expect(fileNameStem('Boulangeries Paris 11e!')).toBe('boulangeries_paris_11e_')
    expect(fileNameStem('-')).toBe('export')
  })
})
