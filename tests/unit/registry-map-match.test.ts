import { describe, expect, it } from 'vitest'
import { readableRegistryInfo } from '#app/.server/enrichment/registry-labels.ts'
import { categoryForNafCodes } from '#app/.server/exports/registry-criteria.ts'
import { indexMap, matchOnMap, registryAdminInfo, registryCandidate, registryPlaceId, REGISTRY_NOT_ONLINE } from '#app/.server/registry/map-match.ts'
import type { Business } from '#app/.server/sources/types.ts'
import { adminFrFields } from '#app/domain/lead-file-values.ts'
import type { RegistryEstablishment } from '#app/domain/registry-search.ts'

function business(name: string, postalCode: string, extra: Partial<Business> = {}): Business {
  return {
    source: 'demo',
    placeId: `fr-29019-${name}`,
    name,
    address: null,
    fullAddressArray: [],
    city: 'Brest',
    postalCode,
    countryCode: 'FR',
    latitude: 48.39,
    longitude: -4.49,
    businessTypes: [],
    website: 'https://example.test/',
    phone: '+33 2 98 00 00 00',
    email: [],
    rating: 4.5,
    reviewCount: 12,
    googleMapsUrl: null,
    openingHours: null,
    operationalState: null,
    socialMedia: {},
    ...extra,
  }
}

function establishment(name: string | null, postalCode: string, extra: Partial<RegistryEstablishment> = {}): RegistryEstablishment {
  return {
    siren: '552100554',
    siret: '55210055400013',
    name,
    address: '12 RUE DE SIAM 29200 BREST',
    postalCode,
    communeCode: '29019',
    city: 'Brest',
    latitude: null,
    longitude: null,
    activityCode: '10.71C',
    activityCodeNaf25: null,
    headcountBand: '02',
    legalFormCode: '5499',
    legalFormFamily: 'sarl',
    creationDate: '2004-05-01',
    active: true,
    headOffice: true,
    directors: [{ name: 'MARTIN', firstNames: 'Jean', role: 'Gérant', kind: 'person' }],
    personalDataWithheld: false,
    demo: true,
    ...extra,
  }
}

describe('matching a registry establishment to the map', () => {
  const map = [business('Boulangerie Le Goff', '29200'), business('Au Pain de Siam', '29200'), business('Boulangerie Le Goff', '29000')]
  const index = indexMap(map)

  it('takes the same name at the same postcode, with the enrichment’s confidence (name × (0.75 + 0.25 × postcode))', () => {
    const match = matchOnMap(establishment('BOULANGERIE LE GOFF', '29200'), index)
    expect(match?.business).toBe(map[0])
    expect(match?.confidence).toBe(1)
  })

  it('falls back to another postcode at a lower confidence; a taken business stands for one establishment only', () => {
    const match = matchOnMap(establishment('Boulangerie Le Goff', '29200'), index, new Set([map[0]!]))
    expect(match?.business).toBe(map[2])
    expect(match?.confidence).toBe(0.75)
    expect(matchOnMap(establishment('Boulangerie Le Goff', '29200'), index, new Set(map))).toBeNull()
  })

  it('takes a shop geocoded within 150 m across a postcode boundary as the same place, and rules out one kilometres away', () => {
    const here = { latitude: 48.39, longitude: -4.49 }
    // map[2] (29000) is at the same position as the establishment: the same place, full confidence.
    expect(matchOnMap(establishment('Boulangerie Le Goff', '29000', here), index, new Set([map[0]!]))?.confidence).toBe(1)
    // Same name, same postcode, but 5 km away (a namesake): not this establishment; nor is the one in 29000.
    const far = { latitude: 48.39 + 5_000 / 111_195, longitude: -4.49 }
    expect(matchOnMap(establishment('Boulangerie Le Goff', '29200', far), index)).toBeNull()
    // 500 m: position undecided, postcode and name decide as before.
    const near = { latitude: 48.39 + 500 / 111_195, longitude: -4.49 }
    expect(matchOnMap(establishment('Boulangerie Le Goff', '29200', near), index)?.business).toBe(map[0])
  })

  it('finds nothing for an unknown name or a withheld one', () => {
    expect(matchOnMap(establishment('Garage Kerhuel', '29200'), index)).toBeNull()
    expect(matchOnMap(establishment(null, '29200'), index)).toBeNull()
  })
})

describe('a registry-first lead', () => {
  it('found on the map keeps the map’s contact data and gains the SIRET and the registry data', () => {
    const lead = registryCandidate(establishment('Au Pain de Siam', '29200'), { business: business('Au Pain de Siam', '29200'), confidence: 0.9 }, 'demo')
    expect(lead).toMatchObject({ placeId: 'fr-29019-Au Pain de Siam', phone: '+33 2 98 00 00 00', rating: 4.5, siret: '55210055400013' })
    expect(adminFrFields(lead.adminFrInfo)).toMatchObject({ siren: '552100554', siret: '55210055400013', naf_code: '10.71C', match_confidence: 0.9, directors: 'Jean MARTIN (Gérant)' })
  })

  it('not found online is delivered with its registry data, labelled "Not found online" in the file', () => {
    const lead = registryCandidate(establishment('Garage Kerhuel', '29200'), null, 'osm')
    expect(lead).toMatchObject({ source: 'osm', placeId: 'registry-55210055400013', name: 'Garage Kerhuel', phone: null, website: null, postalCode: '29200', countryCode: 'FR' })
    // Placed where the registry geocoded it (none here).
    expect(registryCandidate(establishment('Garage Kerhuel', '29200', { latitude: 48.4, longitude: -4.5 }), null, 'osm')).toMatchObject({ latitude: 48.4, longitude: -4.5 })
    expect(lead.adminFrInfo.matched_by).toBe(REGISTRY_NOT_ONLINE)
    expect(adminFrFields(readableRegistryInfo(lead.adminFrInfo, 'en'))).toMatchObject({ matched_by: 'Not found online', match_confidence: null })
    expect(adminFrFields(readableRegistryInfo(lead.adminFrInfo, 'fr')).matched_by).toBe('Non trouvé en ligne')
  })

  it('keeps a sole trader’s withheld data withheld and names a unit without SIRET by its SIREN', () => {
    const info = registryAdminInfo(establishment(null, '29200', { legalFormCode: '1000', personalDataWithheld: true, directors: [], address: null }), null)
    expect(adminFrFields(info)).toMatchObject({ legal_name: null, directors: null, head_office_address: null })
    expect(registryPlaceId({ siren: '552100554', siret: null })).toBe('registry-552100554')
  })
})

describe('the map category of registry filters', () => {
  it('is the first category (by id) listing one of the NAF codes, none for every activity', () => {
    const category = categoryForNafCodes(['10.71C'])
    expect(category).not.toBe('')
    expect(categoryForNafCodes(['10.71C', '99.99Z'])).toBe(category)
    expect(categoryForNafCodes([])).toBe('')
    expect(categoryForNafCodes(['99.99Z'])).toBe('')
  })
})
