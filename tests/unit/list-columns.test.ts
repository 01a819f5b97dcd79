// "Enrich your own list": the pure rules of app/domain/list-columns.ts on headers and rows shaped like the files users
// bring (a French Excel sheet, a CRM export in English, a registry extract, a sheet of people).
import { describe, expect, it } from 'vitest'
import { dedupeKeyOfRow, guessColumnKinds, LIST_COLUMN_KINDS, ListMappingSchema, type ListColumnKind, rowToListInput } from '#app/domain/list-columns.ts'

const guess = (header: string, delimiter = ';', sample: string[][] = []) => guessColumnKinds(header.split(delimiter), sample)

describe('guessColumnKinds from headers', () => {
  it.each<[string, string, ListColumnKind[]]>([
    ['Raison sociale;SIRET;Code postal;Ville;Site web;Tél.;E-mail', ';', ['name', 'siret', 'postal_code', 'city', 'website', 'phone', 'email']],
    ['Company,Website,Zip,City,Phone', ',', ['name', 'website', 'postal_code', 'city', 'phone']],
    ["Nom de l'entreprise;Adresse;CP;Commune;Pays", ';', ['name', 'address', 'postal_code', 'city', 'country']],
    ['Domaine;N° SIREN;Courriel;Téléphone', ';', ['website', 'siren', 'email', 'phone']],
    ['ENTREPRISE;ADRESSE E-MAIL;NOM DE DOMAINE;CODE POSTAL;VILLE', ';', ['name', 'email', 'website', 'postal_code', 'city']],
    ['Company Name,Company Domain Name,Street Address,Postal Code,City,Country/Region,Phone Number', ',', ['name', 'website', 'address', 'postal_code', 'city', 'country', 'phone']],
    ['companyName,companyDomain,postalCode', ',', ['name', 'website', 'postal_code']],
    ['Dénomination;Siret du siège;Numéro SIREN;Localité', ';', ['name', 'siret', 'siren', 'city']],
  ])('%j', (header, delimiter, kinds) => {
    expect(guess(header, delimiter)).toEqual(kinds)
  })

  it('reads "Nom" as the company, except beside a first name (a sheet of people)', () => {
    expect(guess('Nom;Ville;Code postal')).toEqual(['name', 'city', 'postal_code'])
    expect(guess('Prénom;Nom;Entreprise;Email')).toEqual(['ignore', 'ignore', 'name', 'email'])
    expect(guess('Nom du contact;Société;Fax;Téléphone')).toEqual(['ignore', 'name', 'ignore', 'phone'])
  })

  it('gives each kind to one column, the surest guess first', () => {
    // "Raison sociale" names the company more surely than "Nom"; the second phone column stays ignored.
    expect(guess('Nom;Raison sociale;Téléphone;Tél. portable')).toEqual(['ignore', 'name', 'phone', 'ignore'])
    expect(guess('Adresse;Adresse 2;Code postal')).toEqual(['address', 'ignore', 'postal_code'])
  })

  it('falls back to the values when headers say nothing', () => {
    const headers = ['col1', 'col2', 'col3', 'col4', 'col5', 'col6', 'col7']
    const rows = [
      ['Boulangerie Martin', '55210055400013', '29200', 'www.martin.fr', 'contact@martin.fr', '02 98 00 00 00', '12 rue de Siam'],
      ['Fournil Durand', '732 829 320 00017', '35000', 'https://durand.bzh/', 'info@durand.bzh', '+33 2 99 00 00 00', '3 place Hoche'],
      ['Chez Léa', '', '75011', 'lea-paris.com', '', '0143000000', '40 boulevard Voltaire'],
    ]
    expect(guessColumnKinds(headers, rows)).toEqual(['ignore', 'siret', 'postal_code', 'website', 'email', 'phone', 'address'])
    expect(guessColumnKinds(['A', 'B'], [['552100554', 'France'], ['732829320', 'FR']])).toEqual(['siren', 'country'])
    // Mobile numbers a spreadsheet stored without their 0 are 9 digits too, but fail the SIREN check digit.
    expect(guessColumnKinds(['x'], [['612345678'], ['698765432'], ['611223344']])).toEqual(['ignore'])
  })

  it('lets a header win over values, and values fill what headers leave', () => {
    // "Ville" holding postal codes is still the city column; the unnamed column of 5 digits is then the postal code.
    expect(guessColumnKinds(['Ville', 'x'], [['29200', '29200'], ['35000', '35000']])).toEqual(['city', 'postal_code'])
    // A known non-company header (Fax) is not second-guessed by its phone-looking values.
    expect(guessColumnKinds(['Fax'], [['02 98 00 00 00']])).toEqual(['ignore'])
    // Too few values of one kind: no guess.
    expect(guessColumnKinds(['x'], [['29200'], ['Brest'], ['Quimper']])).toEqual(['ignore'])
  })
})

describe('ListMappingSchema', () => {
  const errorsOf = (columns: unknown) => {
    const result = ListMappingSchema.safeParse({ columns })
    return result.success ? [] : result.error.issues.map((issue) => issue.message)
  }

  it('accepts a mapping with an identifier', () => {
    expect(errorsOf(['siret', 'ignore', 'ignore'])).toEqual([])
    expect(errorsOf(['website'])).toEqual([])
    expect(errorsOf(['name', 'postal_code'])).toEqual([])
    expect(errorsOf(['name', 'city', 'phone'])).toEqual([])
    // A name beside an exact identifier needs no place.
    expect(errorsOf(['name', 'siren'])).toEqual([])
  })

  it('accepts every kind once, and ignore as often as needed', () => {
    expect(errorsOf([...LIST_COLUMN_KINDS, 'ignore', 'ignore'])).toEqual([])
  })

  it('refuses, with i18n keys', () => {
    expect(errorsOf(['phone', 'email', 'city'])).toEqual(['lists.errors.mappingNeedsKey'])
    expect(errorsOf(['name', 'phone'])).toEqual(['lists.errors.mappingNeedsPlace'])
    expect(errorsOf(['siret', 'siret'])).toEqual(['lists.errors.mappingDuplicateKind'])
    expect(errorsOf(['siret', 'sirett'])).toEqual(['lists.errors.mappingKindInvalid'])
    expect(errorsOf([])).toEqual(['lists.errors.mappingRequired'])
    expect(errorsOf(undefined)).toEqual(['lists.errors.mappingRequired'])
  })
})

describe('rowToListInput', () => {
  const columns: ListColumnKind[] = ['name', 'siret', 'siren', 'website', 'postal_code', 'city', 'phone', 'email', 'country', 'address', 'ignore']
  const mapping = { columns }
  const row = (cells: Partial<Record<ListColumnKind, string>>) => columns.map((kind) => cells[kind] ?? '')
  const input = (cells: Partial<Record<ListColumnKind, string>>) => {
    const read = rowToListInput(row(cells), mapping)
    if (!('input' in read)) throw new Error(`unusable: ${read.unusable.code}`)
    return read.input
  }
  const problem = (cells: Partial<Record<ListColumnKind, string>>) => {
    const read = rowToListInput(row(cells), mapping)
    if (!('unusable' in read)) throw new Error('usable')
    return read.unusable
  }

  it('writes identifiers in their canonical form and keeps the cells', () => {
    const cells = row({ name: '  Boulangerie   Martin ', siret: '552 100 554 00013', website: 'https://www.Martin-Pain.fr/contact', postal_code: '29 200', city: ' Brest ', phone: '02 98  00 00 00', email: 'Mailto:Contact@Martin-Pain.FR', country: 'France', address: '12 rue de Siam', ignore: 'note' })
    const read = rowToListInput(cells, mapping)
    expect(read).toEqual({
      input: {
        name: 'Boulangerie Martin', siret: '55210055400013', siren: '552100554', domain: 'martin-pain.fr', postalCode: '29200', city: 'Brest',
        phone: '02 98 00 00 00', email: 'contact@martin-pain.fr', country: 'France', address: '12 rue de Siam', cells, notes: [],
      },
    })
  })

  it('reads a SIRET or SIREN by its length, whatever its column', () => {
    expect(input({ siret: '552100554' })).toMatchObject({ siret: null, siren: '552100554' })
    expect(input({ siren: '55210055400013' })).toMatchObject({ siret: '55210055400013', siren: '552100554' })
    expect(input({ siret: '55210055400013', siren: '552 100 554' })).toMatchObject({ siret: '55210055400013', siren: '552100554' })
    // La Poste's establishments fail Luhn and follow their own rule.
    expect(input({ siret: '35600000000001' })).toMatchObject({ siret: '35600000000001', siren: '356000000' })
  })

  it('refuses wrong check digits and disagreeing identifiers', () => {
    expect(problem({ siret: '55210055400014', website: 'martin.fr' })).toMatchObject({ code: 'invalid_siret', column: 1, value: '55210055400014' })
    expect(problem({ siren: '552100555' })).toMatchObject({ code: 'invalid_siren', column: 2 })
    expect(problem({ siret: '1,23457E+13' })).toMatchObject({ code: 'invalid_siret' })
    expect(problem({ siren: '12345' })).toMatchObject({ code: 'invalid_siren' })
    expect(problem({ siret: '35600000000048' })).toMatchObject({ code: 'invalid_siret' })
    expect(problem({ siret: '55210055400013', siren: '732829320' })).toMatchObject({ code: 'ids_disagree', column: 2 })
  })

  it('says why a row gives nothing to match by', () => {
    expect(problem({})).toMatchObject({ code: 'empty' })
    expect(problem({ ignore: 'only a note' })).toMatchObject({ code: 'empty' })
    expect(problem({ siret: 'NC', city: '-' , email: 'n/a' })).toMatchObject({ code: 'empty' })
    expect(problem({ phone: '02 98 00 00 00', email: 'a@b.fr' })).toMatchObject({ code: 'no_identifier' })
    expect(problem({ name: 'Martin', phone: '02 98 00 00 00' })).toMatchObject({ code: 'name_without_place', column: 0, value: 'Martin' })
    expect(problem({ website: 'pas de site' })).toMatchObject({ code: 'invalid_website', column: 3 })
    expect(problem({ website: 'https://www.facebook.com/boulangerie.martin' })).toMatchObject({ code: 'shared_website' })
    expect(problem({ website: 'contact@martin.fr' })).toMatchObject({ code: 'invalid_website' })
  })

  it('notes what it does not read in a row that is matched', () => {
    expect(input({ siret: '55210055400013', website: 'facebook.com/martin', email: 'contact at martin' })).toMatchObject({
      domain: null,
      email: null,
      notes: [{ code: 'shared_website', column: 3 }, { code: 'invalid_email', column: 7 }],
    })
  })

  it('gives a French postal code stored as a number its zero back', () => {
    expect(input({ name: 'Fromagerie', postal_code: '1500' })).toMatchObject({ postalCode: '01500' })
    expect(input({ name: 'Bakkerij', postal_code: '1000', country: 'Belgique' })).toMatchObject({ postalCode: '1000' })
    expect(input({ name: 'Bakery', postal_code: 'sw1a 1aa', country: 'UK' })).toMatchObject({ postalCode: 'SW1A 1AA' })
  })

  it('keeps formula-looking cells verbatim, as text, and notes them', () => {
    const read = input({ name: '=HYPERLINK("http://evil.example","Martin")', city: '@SUM(A1)', siret: '55210055400013', phone: '+33 2 98 00 00 00', address: '-12 rue' })
    expect(read.name).toBe('=HYPERLINK("http://evil.example","Martin")')
    expect(read.city).toBe('@SUM(A1)')
    expect(read.cells[0]).toBe('=HYPERLINK("http://evil.example","Martin")')
    // "+33 …" (a phone) and "-12 …" (a number) are data, not formulas.
    expect(read.notes).toEqual([{ code: 'formula_text', column: 0 }, { code: 'formula_text', column: 5 }])
    const tabbed = rowToListInput(['\t=cmd|calc', '29200'], { columns: ['name', 'postal_code'] })
    expect(tabbed).toMatchObject({ input: { name: '=cmd|calc', notes: [{ code: 'formula_text', column: 0 }] } })
  })
})

describe('dedupeKeyOfRow', () => {
  const key = (cells: string[], columns: ListColumnKind[]) => {
    const read = rowToListInput(cells, { columns })
    return 'input' in read ? dedupeKeyOfRow(read.input) : 'unusable'
  }

  it('names the company by its most precise identifier', () => {
    expect(key(['55210055400013', 'martin.fr'], ['siret', 'website'])).toBe('siret:55210055400013')
    expect(key(['552100554', 'martin.fr'], ['siren', 'website'])).toBe('siren:552100554')
    expect(key(['Martin', 'https://www.martin.fr/'], ['name', 'website'])).toBe('domain:martin.fr')
    expect(key(['Boulangerie  Martin', '29200', 'Brest'], ['name', 'postal_code', 'city'])).toBe('name:boulangerie martin|cp:29200')
    expect(key(['Boulangerie Mârtin', 'Saint-Malo'], ['name', 'city'])).toBe(key(['BOULANGERIE MARTIN', 'st malo'], ['name', 'city']))
  })
})
