import { describe, expect, it } from 'vitest'
import { type ExtractionPage, extractFindings } from '#app/.server/enrichment/findings.ts'
import { parsePage } from '#app/.server/enrichment/html.ts'
import { normalizePhone, phonesFromText } from '#app/.server/enrichment/phones.ts'
import { companyIdsFromText } from '#app/.server/enrichment/siret.ts'

function findings(html: string, { country = 'FR', url = 'https://www.boulangerie.fr/', kind = 'home' as ExtractionPage['kind'] } = {}) {
  const page: ExtractionPage = { kind, url, html, parsed: parsePage(html, url), headers: {} }
  return extractFindings([page], { country, robotsText: '' })
}

describe('"SIREN / SIRET" on one line, both numbers on the next (issue 19, item 11)', () => {
  it.each([
    ['SIREN / SIRET :\n440 312 791 / 440 312 791 00088'],
    ['SIREN / SIRET : 440312791 / 44031279100088'],
    ['SIRET / SIREN :\n440 312 791 00088 – 440 312 791'],
    ['Siren et Siret\n440 312 791\n440 312 791 00088'],
  ])('reads both from %j', (text) => {
    expect(companyIdsFromText(text)).toEqual({ siret: '44031279100088', siren: '440312791' })
  })

  it('from a legal notice laid out with a <br> between the label and the numbers', () => {
    const found = findings('<p><strong>SIREN / SIRET :</strong><br>440 312 791 / 440 312 791 00088</p>', { kind: 'legal' })
    expect(found).toMatchObject({ siret: '44031279100088', siren: '440312791' })
  })

  it('still Luhn-checks each number: a wrong SIRET leaves the valid SIREN alone', () => {
    expect(companyIdsFromText('SIREN / SIRET :\n440 312 791 / 440 312 791 00089')).toEqual({ siret: null, siren: '440312791' })
    expect(companyIdsFromText('SIREN / SIRET :\n440 312 792 / 440 312 792 00088')).toEqual({ siret: null, siren: null })
  })
})

describe('Italian mobiles written without 0 or + (issue 19, item 16)', () => {
  const italian = (text: string) => phonesFromText(text, 'IT').map((raw) => normalizePhone(raw, 'IT'))

  it.each([
    ['Cell. 347 123 4567', '+39 347 123 4567'],
    ['Cellulare: 347.123.4567', '+39 347 123 4567'],
    ['Cell. 3471234567', '+39 347 123 4567'],
    ['Tel. 0541 123456 – Cell. 347-123-4567', '+39 347 123 4567'],
    ['Prenotazioni 338 1234567', '+39 338 123 4567'],
  ])('reads %j on an Italian site', (text, number) => {
    expect(italian(text)).toContain(number)
  })

  it('reads them where the lead is Italian or the site is .it, and nowhere else', () => {
    const html = '<html><body><p>Cell. 347 123 4567</p></body></html>'
    expect(findings(html, { country: 'IT', url: 'https://www.trattoria.it/' }).phones).toEqual(['+39 347 123 4567'])
    expect(findings(html, { country: 'FR', url: 'https://www.boulangerie.fr/' }).phones).toEqual([])
    expect(phonesFromText('Cell. 347 123 4567')).toEqual([])
    expect(phonesFromText('Cell. 347 123 4567', 'FR')).toEqual([])
  })

  it('does not take bare digit runs for phones, even in Italy: VAT, codes, prices, a run without a phone label', () => {
    expect(italian('P.IVA 03471234567')).toEqual([])
    expect(italian('Partita IVA: 347 123 4567')).toEqual([])
    expect(italian('Ordine n. 3471234567')).toEqual([])
    expect(italian('Prezzo 347.123,45 €')).toEqual([])
    expect(italian('CAP 47921 Rimini, REA RN-347123')).toEqual([])
    expect(phonesFromText('SIREN 347 123 456', 'FR')).toEqual([])
  })
})
