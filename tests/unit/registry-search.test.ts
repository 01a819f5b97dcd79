import { describe, expect, it } from 'vitest'
import {
  HEADCOUNT_BANDS,
  HEADCOUNT_RANGES,
  legalFormCodes,
  legalFormFamilyOf,
  pagesFor,
  registryFiltersSchema,
  registryParams,
  registryTotal,
  splitPlan,
  toRegistryEstablishment,
} from '#app/domain/registry-search.ts'

const CATALOGUE = ['1000', '5410', '5485', '5499', '5505', '5599', '5610', '5699', '5710', '5785', '9210', '9220', '9230', '6540']
const filters = (input: Parameters<typeof registryFiltersSchema.parse>[0] = {}) => registryFiltersSchema.parse(input)

describe('registry filters → /search parameters', () => {
  it('sends every filter as the registry names it, lists sorted and deduplicated, active only by default', () => {
    const params = registryParams(
      filters({
        nafCodes: ['56.10A', '10.71c', '56.10A'],
        place: { kind: 'department', code: '2a' },
        headcountBands: ['11', '03'],
        legalForms: ['sas', 'soleTrader'],
        labels: ['rge', 'qualiopi'],
      }),
      { page: 3, legalFormCatalogue: CATALOGUE },
    )
    expect(params).toEqual({
      activite_principale: '10.71C,56.10A',
      departement: '2A',
      est_qualiopi: 'true',
      est_rge: 'true',
      etat_administratif: 'A',
      nature_juridique: '1000,5710,5720,5785',
      page: '3',
      per_page: '25',
      tranche_effectif_salarie: '03,11',
    })
    // Same filters in another order: the same query (the cache key).
    const again = registryParams(
      filters({ labels: ['qualiopi', 'rge'], legalForms: ['soleTrader', 'sas'], headcountBands: ['03', '11'], place: { kind: 'department', code: '2A' }, nafCodes: ['10.71C', '56.10A'] }),
      { page: 3, legalFormCatalogue: CATALOGUE },
    )
    expect(JSON.stringify(again)).toBe(JSON.stringify(params))
  })

  it('names each place level as the registry does, and caps a page at 25', () => {
    const place = (p: Parameters<typeof registryFiltersSchema.parse>[0]) => registryParams(filters(p), { page: 1, perPage: 100, legalFormCatalogue: [] })
    expect(place({ place: { kind: 'region', code: '53' } })).toMatchObject({ region: '53', per_page: '25' })
    expect(place({ place: { kind: 'commune', code: '29019' } })).toMatchObject({ code_commune: '29019' })
    expect(place({ place: { kind: 'postcode', code: '29200' } })).toMatchObject({ code_postal: '29200' })
    expect(place({})).toEqual({ etat_administratif: 'A', page: '1', per_page: '25' })
    expect(place({ activeOnly: false })).toEqual({ page: '1', per_page: '25' })
  })

  it('refuses what the registry would not understand', () => {
    for (const bad of [
      { nafCodes: ['5610A'] },
      { place: { kind: 'department', code: '999' } },
      { place: { kind: 'postcode', code: '2920' } },
      { headcountBands: ['99'] },
      { legalForms: ['gmbh'] },
      { labels: ['famous'] },
    ]) {
      expect(registryFiltersSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
    }
  })
})

describe('legal-form families', () => {
  it('expand to every INSEE code of the family', () => {
    expect(legalFormCodes(['sarl'], CATALOGUE)).toEqual(['5410', '5485', '5498', '5499'])
    expect(legalFormCodes(['sa'], CATALOGUE)).toEqual(['5505', '5599', '5610', '5699'])
    expect(legalFormCodes(['association'], CATALOGUE)).toEqual(['9210', '9220', '9230'])
    expect(legalFormCodes([], CATALOGUE)).toEqual([])
  })

  it('tell the family of a code', () => {
    expect(legalFormFamilyOf('5498')).toBe('sarl')
    expect(legalFormFamilyOf('5720')).toBe('sas')
    expect(legalFormFamilyOf('1000')).toBe('soleTrader')
    expect(legalFormFamilyOf('6540')).toBeNull()
    expect(legalFormFamilyOf(null)).toBeNull()
  })
})

describe('headcount bands', () => {
  it('cover the INSEE bands in order, without gaps', () => {
    const ranges = HEADCOUNT_BANDS.map((band) => HEADCOUNT_RANGES[band]).filter((range) => range !== null)
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]!.min).toBe((ranges[i - 1]!.max as number) + 1)
    expect(ranges.at(-1)).toEqual({ min: 10_000, max: null })
  })
})

describe('totals, pages and splits', () => {
  it('shows the cap as "10 000+"', () => {
    expect(registryTotal(1234)).toEqual({ total: 1234, capped: false })
    expect(registryTotal(10_000)).toEqual({ total: 10_000, capped: true })
    expect(registryTotal(undefined)).toEqual({ total: 0, capped: false })
    expect(pagesFor(1234, 100)).toBe(4)
    expect(pagesFor(60, 1000)).toBe(3)
    expect(pagesFor(50_000, 50_000)).toBe(400)
  })

  it('splits France and regions by department, departments by commune, and stops at communes', () => {
    expect(splitPlan(filters({ place: { kind: 'region', code: '94' }, nafCodes: ['10.71C'] }), ['2A', '2B'])).toEqual([
      filters({ place: { kind: 'department', code: '2A' }, nafCodes: ['10.71C'] }),
      filters({ place: { kind: 'department', code: '2B' }, nafCodes: ['10.71C'] }),
    ])
    expect(splitPlan(filters({ place: { kind: 'department', code: '29' } }), ['29019'])?.[0]?.place).toEqual({ kind: 'commune', code: '29019' })
    expect(splitPlan(filters({}), ['01'])?.[0]?.place).toEqual({ kind: 'department', code: '01' })
    expect(splitPlan(filters({ place: { kind: 'commune', code: '29019' } }), ['x'])).toBeNull()
    expect(splitPlan(filters({ place: { kind: 'postcode', code: '29200' } }), ['x'])).toBeNull()
  })
})

describe('results → establishments', () => {
  const company = {
    siren: '812345676',
    nom_complet: 'BOULANGERIE MARTIN',
    nature_juridique: '5499',
    activite_principale: '10.71C',
    tranche_effectif_salarie: '03',
    date_creation: '2015-06-01',
    etat_administratif: 'A',
    statut_diffusion: 'O',
    siege: { siret: '81234567600017', adresse: '12 RUE DE SIAM 29200 BREST', code_postal: '29200', commune: '29019', etat_administratif: 'A', est_siege: true },
    matching_etablissements: [
      { siret: '81234567600025', adresse: '4 RUE KERAVEL 29000 QUIMPER', code_postal: '29000', commune: '29232', libelle_commune: 'QUIMPER', etat_administratif: 'F', activite_principale: '47.24Z' },
      { siret: '81234567600033', adresse: '9 QUAI 29000 QUIMPER', code_postal: '29000', commune: '29232', libelle_commune: 'QUIMPER', etat_administratif: 'A', activite_principale: '10.71C', date_creation: '2020-01-01', latitude: '47.995312', longitude: '-4.102874' },
    ],
    dirigeants: [
      { nom: 'MARTIN', prenoms: 'JEAN', qualite: 'Gérant', type_dirigeant: 'personne physique' },
      { denomination: 'CABINET AUDIT OUEST', qualite: 'Commissaire aux comptes', type_dirigeant: 'personne morale' },
    ],
  }

  it('picks the active establishment in the place searched, with the unit’s details and directors', () => {
    const establishment = toRegistryEstablishment(company, { place: { kind: 'commune', code: '29232' }, activeOnly: true })
    expect(establishment).toEqual({
      siren: '812345676',
      siret: '81234567600033',
      name: 'BOULANGERIE MARTIN',
      address: '9 QUAI 29000 QUIMPER',
      postalCode: '29000',
      communeCode: '29232',
      city: 'QUIMPER',
      latitude: 47.995312,
      longitude: -4.102874,
      activityCode: '10.71C',
      activityCodeNaf25: null,
      headcountBand: '03',
      legalFormCode: '5499',
      legalFormFamily: 'sarl',
      creationDate: '2020-01-01',
      active: true,
      headOffice: false,
      directors: [
        { name: 'MARTIN', firstNames: 'JEAN', role: 'Gérant', kind: 'person' },
        { name: 'CABINET AUDIT OUEST', firstNames: null, role: 'Commissaire aux comptes', kind: 'company' },
      ],
      personalDataWithheld: false,
      demo: false,
    })
    // The head office carries no coordinates here: the position is unknown, not the other establishment's.
    expect(toRegistryEstablishment(company, { place: { kind: 'postcode', code: '29200' }, activeOnly: true })).toMatchObject({ siret: '81234567600017', headOffice: true, latitude: null, longitude: null })
  })

  it('reads the temporary NAF 2025 field when sent, and does without it', () => {
    const withNaf25 = { ...company, activite_principale_naf25: '10.71A', matching_etablissements: [] }
    expect(toRegistryEstablishment(withNaf25, { place: { kind: 'france' }, activeOnly: true })).toMatchObject({ activityCode: '10.71C', activityCodeNaf25: '10.71A' })
    expect(toRegistryEstablishment({ ...company, matching_etablissements: [] }, { place: { kind: 'france' }, activeOnly: true })).toMatchObject({ activityCode: '10.71C', activityCodeNaf25: null })
  })

  it('keeps no personal data of a sole trader under diffusion partielle, and no directors of any sole trader', () => {
    const soleTrader = {
      siren: '903456788',
      nom_complet: 'CLAIRE LE GALL',
      nature_juridique: '1000',
      statut_diffusion: 'P',
      siege: { siret: '90345678800012', adresse: '[NON-DIFFUSIBLE]', code_postal: '29200', commune: '29019', libelle_commune: 'BREST', etat_administratif: 'A' },
      dirigeants: [{ nom: 'LE GALL', prenoms: 'CLAIRE', type_dirigeant: 'personne physique' }],
      complements: { est_entrepreneur_individuel: true },
    }
    const withheld = toRegistryEstablishment(soleTrader, { place: { kind: 'france' }, activeOnly: true })
    expect(withheld).toMatchObject({ name: null, address: null, directors: [], personalDataWithheld: true, postalCode: '29200', city: 'BREST' })
    expect(JSON.stringify(withheld)).not.toMatch(/LE GALL|CLAIRE|NON-DIFFUSIBLE/)
    const listed = toRegistryEstablishment({ ...soleTrader, statut_diffusion: 'O', siege: { ...soleTrader.siege, adresse: '1 RUE X 29200 BREST' } }, { place: { kind: 'france' }, activeOnly: true })
    expect(listed).toMatchObject({ name: 'CLAIRE LE GALL', address: '1 RUE X 29200 BREST', directors: [], personalDataWithheld: false })
  })

  it('ignores what is not a result', () => {
    expect(toRegistryEstablishment(null, { place: { kind: 'france' }, activeOnly: true })).toBeNull()
    expect(toRegistryEstablishment({ nom_complet: 'X' }, { place: { kind: 'france' }, activeOnly: true })).toBeNull()
  })
})
