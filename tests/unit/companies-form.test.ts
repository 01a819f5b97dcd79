import { describe, expect, it } from 'vitest'
import { EMPTY_COMPANIES_QUERY, nafCodeIn, nafOptionParts, nafOptionText, readCompaniesQuery, withCompaniesPlace } from '#app/domain/companies-form.ts'

const read = (query: string) => readCompaniesQuery(new URLSearchParams(query))

describe('readCompaniesQuery', () => {
  it('starts with "active only" on and nothing else chosen', () => {
    expect(read('')).toEqual({ ok: true, run: false, query: EMPTY_COMPANIES_QUERY })
  })

  it('reads repeated filters, and a submitted form without the checkbox as "active only" off', () => {
    const { ok, run, query } = read('run=1&sector=bakery&naf=10.71c&naf=10.71C&naf=47.24Z&department=Rh%C3%B4ne&headcount=02&headcount=03&legalForm=sarl&label=rge')
    expect({ ok, run }).toEqual({ ok: true, run: true })
    expect(query).toMatchObject({ sector: 'bakery', naf: ['10.71C', '47.24Z'], department: 'Rhône', headcount: ['02', '03'], legalForm: ['sarl'], label: ['rge'], activeOnly: false })
    expect(read('run=1&active=1').query.activeOnly).toBe(true)
  })

  it('refuses an unknown value but keeps every valid one, so nothing typed is lost', () => {
    const refused = read('run=1&active=1&city=Lyon&naf=bakery&naf=10.71C&headcount=99&headcount=03&legalForm=gmbh&label=rge')
    expect(refused.ok).toBe(false)
    expect(refused.query).toMatchObject({ city: 'Lyon', naf: ['10.71C'], headcount: ['03'], legalForm: [], label: ['rge'], activeOnly: true })
    // The registry's "NN" band is not a size to choose.
    expect(read('headcount=NN').ok).toBe(false)
  })
})

describe('nafCodeIn', () => {
  it('reads the code of a picked option or a code typed in any usual spelling', () => {
    expect(nafCodeIn('10.71C — Boulangerie et boulangerie-pâtisserie')).toBe('10.71C')
    expect(nafCodeIn('1071c')).toBe('10.71C')
    expect(nafCodeIn('10.71 C')).toBe('10.71C')
    expect(nafCodeIn('Boulangerie')).toBeNull()
  })
})

describe('nafOptionParts', () => {
  it('reads back the code and label of a picker option, and a code alone', () => {
    expect(nafOptionParts(nafOptionText('10.71C', 'Boulangerie et boulangerie-pâtisserie'))).toEqual({ code: '10.71C', label: 'Boulangerie et boulangerie-pâtisserie' })
    expect(nafOptionParts('1071c')).toEqual({ code: '10.71C', label: null })
    expect(nafOptionParts('Boulangerie')).toBeNull()
  })
})

describe('withCompaniesPlace', () => {
  const lyon = { region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon' }
  it('clears the levels below the one picked, as on the search page', () => {
    expect(withCompaniesPlace(lyon, 'region', 'Bretagne')).toEqual({ region: 'Bretagne', department: '', city: '' })
    expect(withCompaniesPlace(lyon, 'department', 'Isère')).toEqual({ region: 'Auvergne-Rhône-Alpes', department: 'Isère', city: '' })
    expect(withCompaniesPlace(lyon, 'city', '69003')).toEqual({ ...lyon, city: '69003' })
  })
})
