// The do-not-contact import's pure rules (app/domain/csv-text.ts, dnc-import.ts) on files shaped like the ones users
// bring: a French Excel sheet (Windows-1252, ";"), lemlist's unsubscribes, a HubSpot contact export, one value per
// line, a registry extract without a header (tests/fixtures/dnc/).
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { decodeCsvBytes, detectDelimiter, parseCsvRecords } from '#app/domain/csv-text.ts'
import { headerKind, pickColumns, readDncImport } from '#app/domain/dnc-import.ts'

const fixture = (name: string) => {
  const text = decodeCsvBytes(new Uint8Array(fs.readFileSync(`tests/fixtures/dnc/${name}`)))
  if (text === null) throw new Error(`${name} did not decode`)
  return text
}

describe('decodeCsvBytes', () => {
  it('reads UTF-8 (dropping its BOM) and falls back to Windows-1252 for what is not UTF-8', () => {
    const utf8 = new TextEncoder().encode('\uFEFFemail;société\n')
    expect(decodeCsvBytes(utf8)).toBe('email;société\n')
    // "société" as a French Excel saves it: é is the single byte 0xE9, invalid in UTF-8.
    expect(decodeCsvBytes(new Uint8Array([0x73, 0x6f, 0x63, 0x69, 0xe9, 0x74, 0xe9, 0x80]))).toBe('société€')
    expect(fixture('excel-fr-semicolon.csv').split('\r\n')[0]).toBe('email;société')
  })

  it('refuses binary files (control characters)', () => {
    expect(decodeCsvBytes(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBeNull()
    expect(decodeCsvBytes(new Uint8Array([0x50, 0x4b, 0x03, 0x04]))).toBeNull()
    expect(decodeCsvBytes(new TextEncoder().encode('a@b.fr\tc.fr\r\n'))).toBe('a@b.fr\tc.fr\r\n')
  })
})

describe('detectDelimiter', () => {
  it.each([
    ['email;société\na@b.fr;Martin, Fils & Cie\nc@d.fr;Durand\n', ';'],
    ['"Email","Company"\n"a@b.fr","Le Fournil; Pains"\n', ','],
    ['email\tname\na@b.fr\tMartin\n', '\t'],
    ['Martin|552100554|Brest\nDurand|732829320|Quimper\n', '|'],
    ['a@b.fr\nc.fr\n', ','],
  ])('%j → %j', (text, delimiter) => {
    expect(detectDelimiter(text)).toBe(delimiter)
  })
})

describe('parseCsvRecords', () => {
  it('keeps quoted delimiters, quotes and line breaks, numbers records by the line they start on, skips empty lines', () => {
    const text = 'a;"b;c"\r\n\r\n"x ""y""";"multi\r\nline"\r\n;;\r\nlast;"unclosed\nrest'
    expect(parseCsvRecords(text, ';')).toEqual([
      { line: 1, cells: ['a', 'b;c'] },
      { line: 3, cells: ['x "y"', 'multi\r\nline'] },
      { line: 6, cells: ['last', 'unclosed\nrest'] },
    ])
  })

  it('takes a quote inside an unquoted field as text, and the last record without a line break', () => {
    expect(parseCsvRecords('5" pipe,a@b.fr\nc@d.fr', ',')).toEqual([
      { line: 1, cells: ['5" pipe', 'a@b.fr'] },
      { line: 2, cells: ['c@d.fr'] },
    ])
  })
})

describe('headerKind', () => {
  it.each([
    ['Email', 'email'],
    ['E-mail', 'email'],
    ['Adresse e-mail', 'email'],
    ['Courriel', 'email'],
    ['Email Address', 'email'],
    ['Domaine', 'domain'],
    ['Website URL', 'domain'],
    ['Site web', 'domain'],
    ['companyDomain', 'domain'],
    ['Numéro SIREN', 'company'],
    ['N° SIRET', 'company'],
    ['SIRET', 'company'],
    ['Téléphone', 'phone'],
    ['Phone Number', 'phone'],
    ['value', 'any'],
  ])('%s → %s', (name, kind) => {
    expect(headerKind(name)).toBe(kind)
  })

  it.each(['Unsubscribed from all email', 'société', 'Company Name', 'First Name', 'kind', 'Record ID'])('%s names no entry column', (name) => {
    expect(headerKind(name)).toBeNull()
  })
})

describe('pickColumns', () => {
  it('by content without a header: the column where most values are entries (a SIREN only with its check digit)', () => {
    const records = parseCsvRecords(fixture('registry-pipes.csv'), '|')
    expect(pickColumns(records)).toEqual({ header: null, columns: [{ index: 1, name: null, kind: 'any' }] })
  })

  it('by content under an unknown header, and every column when none holds mostly entries', () => {
    const named = parseCsvRecords('Nom;Contact\nMartin;a@b.fr\nDurand;c@d.fr\n', ';')
    expect(pickColumns(named).columns).toEqual([{ index: 1, name: 'Contact', kind: 'any' }])
    const junk = parseCsvRecords('hello;world\nfoo;a@b.fr\nbar;baz\n', ';')
    expect(pickColumns(junk).columns.map((column) => column.index)).toEqual([0, 1])
  })
})

describe('readDncImport', () => {
  it('a French Excel sheet `email;société`: the email column only, each rejected line with its number and why', () => {
    const reading = readDncImport(fixture('excel-fr-semicolon.csv'))
    expect(reading.columns).toEqual(['email'])
    expect(reading.entries).toEqual([
      { kind: 'email', value: 'jean.dupont@boulangerie-martin.fr' },
      { kind: 'email', value: 'contact@le-fournil.fr' },
      { kind: 'email', value: 'accueil@creperie-ty-breizh.fr' },
    ])
    expect(reading).toMatchObject({ duplicates: 1, rejected: 2 })
    expect(reading.issues).toEqual([
      { line: 4, reason: 'empty', partial: false },
      { line: 5, reason: 'notEmail', value: 'jean.dupont@', column: 'email', partial: false },
    ])
  })

  it("lemlist's unsubscribes: addresses and domain-wide unsubscribes from the email column, names and dates ignored", () => {
    const reading = readDncImport(fixture('lemlist-unsubscribes.csv'))
    expect(reading.columns).toEqual(['email'])
    expect(reading.entries).toEqual([
      { kind: 'email', value: 'sophie.martin@atelier-bois.fr' },
      { kind: 'domain', value: 'concurrent.fr' },
      { kind: 'domain', value: 'agence-voisine.fr' },
      { kind: 'email', value: 'pierre.durand@plomberie-durand.fr' },
    ])
    expect(reading.issues).toEqual([{ line: 5, reason: 'notEmail', value: 'bounce@nowhere', column: 'email', partial: false }])
  })

  it('a HubSpot export: email, phone and website columns (a row gives several entries), a multi-line field, partly read lines', () => {
    const reading = readDncImport(fixture('hubspot-contacts.csv'))
    expect(reading.columns).toEqual(['Email', 'Phone Number', 'Website URL'])
    expect(reading.entries).toEqual([
      { kind: 'email', value: 'jean.dupont@boulangerie-martin.fr' },
      { kind: 'phone', value: '+33298000001' },
      { kind: 'domain', value: 'boulangerie-martin.fr' },
      { kind: 'email', value: 'marie.legall@example.org' },
      { kind: 'phone', value: '+33298000002' },
      { kind: 'domain', value: 'kerbrat.bzh' },
      { kind: 'email', value: 'yann@le-bihan.fr' },
      { kind: 'domain', value: 'le-bihan.fr' },
      { kind: 'email', value: 'gwen@atelier-breton.fr' },
    ])
    expect(reading).toMatchObject({ duplicates: 2, rejected: 2 })
    expect(reading.issues).toEqual([
      { line: 4, reason: 'empty', partial: false },
      { line: 5, reason: 'notEmail', value: 'anne.kerbrat@', column: 'Email', partial: true },
      // Record 57 starts on line 9: record 56's company name holds a line break.
      { line: 10, reason: 'notEmail', value: 'n/a', column: 'Email', partial: false },
    ])
  })

  it('one value per line still reads every kind; a SIREN with a wrong check digit is refused', () => {
    const reading = readDncImport(fixture('one-per-line.txt'))
    expect(reading.columns).toEqual(['1'])
    expect(reading.entries.map((entry) => entry.kind)).toEqual(['email', 'domain', 'phone', 'siren', 'business'])
    expect(reading.issues).toEqual([
      { line: 5, reason: 'checkDigit', value: '552 100 555', column: '1', partial: false },
      { line: 6, reason: 'unreadable', value: 'hello world', column: '1', partial: false },
    ])
  })

  it('a column named by its header reads only its kind; a registry extract gives its SIRENs; our download reads back its value column', () => {
    const named = readDncImport('Téléphone;SIRET;Email\na@b.fr;55210055400013;04 78 12 34 56\n')
    expect(named.entries).toEqual([{ kind: 'siret', value: '55210055400013' }])
    expect(named.issues).toEqual([{ line: 2, reason: 'notPhone', value: 'a@b.fr', column: 'Téléphone', partial: true }])
    expect(readDncImport(fixture('registry-pipes.csv')).entries).toEqual([
      { kind: 'siren', value: '552100554' },
      { kind: 'siren', value: '732829320' },
      { kind: 'siren', value: '443061841' },
    ])
    const ours = readDncImport("\uFEFFkind,value,name,city,added\nbusiness,demo:p1,boulangerie.fr,Brest,2026-11-30\nemail,'=1+1@evil.fr,,,2026-11-30\n", (value) => value.replace(/^'/, ''))
    expect(ours.entries).toEqual([
      { kind: 'business', value: 'demo:p1' },
      { kind: 'email', value: '=1+1@evil.fr' },
    ])
  })
})
