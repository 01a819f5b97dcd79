import { describe, expect, it } from 'vitest'
import { allowedEmails, companyListing, type DncCandidate, dncExclusionReason, indexDncList, parseDncEntry, parseDncList, registryMatchIds } from '#app/domain/do-not-contact.ts'

describe('parseDncEntry', () => {
  it.each([
    ['Contact@Boulangerie-Martin.FR', { kind: 'email', value: 'contact@boulangerie-martin.fr' }],
    ['mailto:jean@exemple.fr', { kind: 'email', value: 'jean@exemple.fr' }],
    ['https://www.Boulangerie-Martin.fr/contact', { kind: 'domain', value: 'boulangerie-martin.fr' }],
    ['boulangerie-martin.fr', { kind: 'domain', value: 'boulangerie-martin.fr' }],
    ['@boulangerie-martin.fr', { kind: 'domain', value: 'boulangerie-martin.fr' }],
    ['04 78 12 34 56', { kind: 'phone', value: '+33478123456' }],
    ['+33 4 78 12 34 56', { kind: 'phone', value: '+33478123456' }],
    ['0033478123456', { kind: 'phone', value: '+33478123456' }],
    ['552 100 554', { kind: 'siren', value: '552100554' }],
    ['552 100 554 00013', { kind: 'siret', value: '55210055400013' }],
    ['osm:node/42', { kind: 'business', value: 'osm:node/42' }],
  ])('reads %s', (raw, expected) => {
    expect(parseDncEntry(raw)).toEqual(expected)
  })

  it.each(['', '   ', 'hello', 'javascript:alert(1)', 'a@b@example.fr', 'user:pw@example.fr', 'a'.repeat(400), '12'])('rejects %j', (raw) => {
    expect(parseDncEntry(raw)).toBeNull()
  })
})

describe('parseDncList', () => {
  it('splits lines, commas, semicolons and tabs, unquotes CSV cells, drops duplicates and returns what it could not read', () => {
    const { entries, rejected } = parseDncList('a@b.fr; "b.fr"\nA@B.FR\tnot an entry\r\n\n04 78 12 34 56,')
    expect(entries).toEqual([
      { kind: 'email', value: 'a@b.fr' },
      { kind: 'domain', value: 'b.fr' },
      { kind: 'phone', value: '+33478123456' },
    ])
    expect(rejected).toEqual(['not an entry'])
  })
})

describe('exclusion', () => {
  const business: DncCandidate = {
    source: 'demo',
    placeId: 'p1',
    website: 'https://shop.boulangerie-martin.fr/',
    phones: ['04 78 12 34 56'],
    emails: ['contact@boulangerie-martin.fr'],
    companies: [{ siret: '55210055400013', siren: null }],
    countryCode: 'FR',
  }
  const reasonWith = (text: string, candidate = business) => dncExclusionReason(indexDncList(parseDncList(text).entries), candidate)

  it('leaves out a business by its id, SIRET, SIREN, domain (subdomains included) or phone, and says why', () => {
    expect(reasonWith('demo:p1')).toBe('business')
    expect(reasonWith('55210055400013')).toBe('siret')
    expect(reasonWith('552100554')).toBe('siren')
    expect(reasonWith('boulangerie-martin.fr')).toBe('domain')
    expect(reasonWith('+33478123456')).toBe('phone')
  })

  it('keeps a business that matches nothing, and one whose only match is a listed email', () => {
    expect(reasonWith('demo:p2\nother.fr\n0478000000\n552100555')).toBeNull()
    expect(reasonWith('contact@boulangerie-martin.fr')).toBeNull()
    expect(reasonWith('martin.fr')).toBeNull()
  })

  it('catches an establishment whose SIRET is unknown by its SIREN entry, never by another establishment\'s SIRET entry', () => {
    const sirenOnly = { ...business, companies: [{ siret: null, siren: '552100554' }] }
    expect(reasonWith('552100554', sirenOnly)).toBe('siren')
    expect(reasonWith('55210055400013', sirenOnly)).toBeNull()
    expect(reasonWith('552100555', sirenOnly)).toBeNull()
  })

  it('catches a business by any identity known for it (the source\'s SIRET, a registry match), the SIRET entry first', () => {
    const matched = { ...business, companies: [{ siret: null, siren: null }, { siret: '73282932000074', siren: '732829320' }] }
    expect(reasonWith('73282932000074', matched)).toBe('siret')
    expect(reasonWith('732829320', matched)).toBe('siren')
    expect(reasonWith('732829320\n73282932000074', matched)).toBe('siret')
    expect(reasonWith('73282932000075', matched)).toBeNull()
    expect(reasonWith('73282932000074', { ...business, companies: [] })).toBeNull()
  })

  it('removes listed addresses and addresses at listed domains from the delivered emails', () => {
    const index = indexDncList(parseDncList('jean@exemple.fr\nlisted.fr').entries)
    expect(allowedEmails(index, ['Jean@Exemple.fr', 'marie@exemple.fr', 'x@sub.listed.fr', 'y@notlisted.fr'])).toEqual(['marie@exemple.fr', 'y@notlisted.fr'])
  })
})

describe('companyListing', () => {
  const index = indexDncList(parseDncList('552100554\n73282932000074').entries)

  it('names the SIRET entry of one establishment, the SIREN entry of every establishment of the company', () => {
    expect(companyListing(index, { siret: '73282932000074', siren: '732829320' })).toBe('siret')
    expect(companyListing(index, { siret: '55210055400099', siren: null })).toBe('siren')
    expect(companyListing(index, { siret: null, siren: '552100554' })).toBe('siren')
    expect(companyListing(index, { siret: '73282932000082', siren: '732829320' })).toBeNull()
    expect(companyListing(index, { siret: null, siren: null })).toBeNull()
  })
})

describe('registryMatchIds', () => {
  it('reads the best result of a stored registry match, or of an older flat shape', () => {
    expect(registryMatchIds({ results: [{ siren: '552100554', siret: '55210055400013' }, { siren: '732829320', siret: null }], confidence: 0.9 })).toEqual({
      siren: '552100554',
      siret: '55210055400013',
    })
    expect(registryMatchIds({ results: [{ siren: '552100554', siret: null }], matched_by: 'registry_map' })).toEqual({ siren: '552100554', siret: null })
    expect(registryMatchIds({ siren: '552100554' })).toEqual({ siren: '552100554', siret: null })
  })

  it('is null for what names no company', () => {
    for (const info of [null, undefined, 'x', {}, { results: [] }, { results: [null] }, { results: [{ siren: '', siret: 'n/a' }] }]) expect(registryMatchIds(info)).toBeNull()
  })
})
