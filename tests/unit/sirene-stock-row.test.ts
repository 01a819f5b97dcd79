// One StockEtablissement row → the store's record (app/domain/sirene-stock-row.ts): columns by name, "[ND]" and "NN"
// as absent, NAF rév. 2 only, partial diffusion without a street address, processing times read as UTC.
import { describe, expect, it } from 'vitest'
import { legalUnitColumnIndex, legalUnitFacts, stockColumnIndex, stockRecord, type LegalUnitColumnIndex, type StockColumnIndex } from '#app/domain/sirene-stock-row.ts'

const HEADER = ['etatAdministratifEtablissement', 'siret', 'dateCreationEtablissement', 'statutDiffusionEtablissement', 'trancheEffectifsEtablissement',
  'numeroVoieEtablissement', 'typeVoieEtablissement', 'libelleVoieEtablissement', 'codeCommuneEtablissement', 'codePostalEtablissement',
  'enseigne1Etablissement', 'denominationUsuelleEtablissement', 'activitePrincipaleEtablissement', 'nomenclatureActivitePrincipaleEtablissement',
  'dateDernierTraitementEtablissement', 'etablissementSiege']
const index = (stockColumnIndex(HEADER) as { ok: true; index: StockColumnIndex }).index
const row = (values: Partial<Record<string, string>>) => HEADER.map((column) => values[column] ?? '')
const base = { siret: '12345678900011', etatAdministratifEtablissement: 'A', dateCreationEtablissement: '2026-11-20', statutDiffusionEtablissement: 'O', trancheEffectifsEtablissement: '03',
  numeroVoieEtablissement: '4', typeVoieEtablissement: 'RUE', libelleVoieEtablissement: 'MERCIERE', codeCommuneEtablissement: '69123', codePostalEtablissement: '69002',
  enseigne1Etablissement: '', denominationUsuelleEtablissement: 'BOULANGERIE DU PONT', activitePrincipaleEtablissement: '10.71C', nomenclatureActivitePrincipaleEtablissement: 'NAFRev2',
  dateDernierTraitementEtablissement: '2026-11-21T09:15:02', etablissementSiege: 'true' }

describe('the stock header', () => {
  it('is read by name, in any order, and names the required columns it lacks', () => {
    expect(index.siret).toBe(1)
    expect(index.enseigne2Etablissement).toBe(-1)
    expect(stockColumnIndex(['siren', 'siret'])).toEqual({ ok: false, missing: ['dateCreationEtablissement', 'etatAdministratifEtablissement'] })
  })
})

describe('a stock row', () => {
  it('maps to the store record', () => {
    expect(stockRecord(row(base), index)).toEqual({
      siret: '12345678900011', siren: '123456789', name: 'BOULANGERIE DU PONT', naf: '10.71C', legalForm: null, headcount: '03', postcode: '69002', commune: '69123',
      city: null, address: '4 RUE MERCIERE', state: 'A', createdOn: '2026-11-20', headOffice: true, processedAt: '2026-11-21T09:15:02.000Z',
    })
  })

  it('reads "NN", "[ND]" and older nomenclatures as absent', () => {
    expect(stockRecord(row({ ...base, trancheEffectifsEtablissement: 'NN' }), index)?.headcount).toBeNull()
    expect(stockRecord(row({ ...base, denominationUsuelleEtablissement: '[ND]' }), index)?.name).toBe('')
    expect(stockRecord(row({ ...base, activitePrincipaleEtablissement: '52.4C', nomenclatureActivitePrincipaleEtablissement: 'NAFRev1' }), index)?.naf).toBeNull()
    expect(stockRecord(row({ ...base, activitePrincipaleEtablissement: '10.71C', nomenclatureActivitePrincipaleEtablissement: 'NAFRev1' }), index)?.naf).toBeNull()
  })

  it('keeps a partially diffused establishment without its street address', () => {
    expect(stockRecord(row({ ...base, statutDiffusionEtablissement: 'P', numeroVoieEtablissement: '[ND]', libelleVoieEtablissement: 'MERCIERE' }), index)).toMatchObject({ address: null, commune: '69123', state: 'A' })
  })

  it('gives a row without a processing time the oldest one, so it never replaces the flux', () => {
    expect(stockRecord(row({ ...base, dateDernierTraitementEtablissement: '' }), index)?.processedAt).toBe('1970-01-01T00:00:00Z')
    expect(stockRecord(row({ ...base, dateDernierTraitementEtablissement: '2026-11-21' }), index)?.processedAt).toBe('2026-11-21T00:00:00.000Z')
  })

  it('is refused without a valid SIRET or a known state', () => {
    expect(stockRecord(row({ ...base, siret: '1234' }), index)).toBeNull()
    expect(stockRecord(row({ ...base, etatAdministratifEtablissement: 'C' }), index)).toBeNull()
  })
})

describe('a StockUniteLegale row', () => {
  const header = ['siren', 'categorieJuridiqueUniteLegale', 'denominationUniteLegale', 'prenom1UniteLegale', 'prenomUsuelUniteLegale', 'nomUniteLegale', 'nomUsageUniteLegale']
  const units = (legalUnitColumnIndex(header) as { ok: true; index: LegalUnitColumnIndex }).index

  it('names a company by its denomination, a sole trader by first and last name, "[ND]" as not public', () => {
    expect(legalUnitFacts(['123456789', '5710', 'BOULANGERIE SAS', '', '', '', ''], units)).toEqual({ siren: '123456789', legalForm: '5710', name: 'BOULANGERIE SAS' })
    expect(legalUnitFacts(['123456789', '1000', '', 'JEANNE', 'JEANNOT', 'MARTIN', 'DURAND'], units)).toEqual({ siren: '123456789', legalForm: '1000', name: 'JEANNOT DURAND' })
    expect(legalUnitFacts(['123456789', '1000', '[ND]', '[ND]', '', '[ND]', ''], units)).toEqual({ siren: '123456789', legalForm: '1000', name: '' })
  })

  it('needs a SIREN, and a header with the legal form', () => {
    expect(legalUnitFacts(['12345', '5710', 'X', '', '', '', ''], units)).toBeNull()
    expect(legalUnitColumnIndex(['siren', 'denominationUniteLegale'])).toEqual({ ok: false, missing: ['categorieJuridiqueUniteLegale'] })
  })
})
