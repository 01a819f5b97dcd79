import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { RegistryEstablishmentRecord } from '#app/domain/registry-establishment.ts'
import { readSireneEtablissement, type SireneEtablissement, sireneProcessedAt } from '#app/domain/sirene-record.ts'

interface Fixture {
  description: string
  answer: { header: Record<string, unknown>; etablissements: SireneEtablissement[] }
  expected: Record<string, RegistryEstablishmentRecord | null>
}

const fixture = JSON.parse(fs.readFileSync('tests/fixtures/sirene/flux-day.json', 'utf8')) as Fixture
const bySiret = (siret: string) => fixture.answer.etablissements.find((e) => e.siret === siret)!

describe('readSireneEtablissement (recorded-shape page of the Sirene 3.11 flux)', () => {
  it('covers every record of the page', () => {
    expect(Object.keys(fixture.expected).sort()).toEqual(fixture.answer.etablissements.map((e) => e.siret).sort())
  })

  for (const [siret, expected] of Object.entries(fixture.expected)) {
    it(`${siret} → ${expected ? expected.name || '(no public name)' : 'unusable'}`, () => {
      expect(readSireneEtablissement(bySiret(siret))).toEqual(expected)
    })
  }
})

describe('readSireneEtablissement rules', () => {
  const base = fixture.answer.etablissements[0]!
  const withPeriod = (changes: Record<string, unknown>) => ({ ...base, periodesEtablissement: [{ ...base.periodesEtablissement![0]!, ...changes }] })

  it('names by the sign, then the usual name, then the company, then the sole trader', () => {
    expect(readSireneEtablissement(withPeriod({ enseigne1Etablissement: null, denominationUsuelleEtablissement: 'LA MIE DU PLATEAU' }))?.name).toBe('LA MIE DU PLATEAU')
    expect(readSireneEtablissement(withPeriod({ enseigne1Etablissement: '  ', denominationUsuelleEtablissement: null }))?.name).toBe('LES FOURNILS DE LA CROIX-ROUSSE')
    const soleTrader = { ...withPeriod({ enseigne1Etablissement: null }), uniteLegale: { nomUniteLegale: 'DURAND', prenom1UniteLegale: 'ANNE', categorieJuridiqueUniteLegale: '1000' } }
    expect(readSireneEtablissement(soleTrader)?.name).toBe('ANNE DURAND')
    const usage = { ...soleTrader, uniteLegale: { ...soleTrader.uniteLegale, nomUsageUniteLegale: 'MARTIN', prenomUsuelUniteLegale: 'ANNIE' } }
    expect(readSireneEtablissement(usage)?.name).toBe('ANNIE MARTIN')
  })

  it('reads the open period wherever it is, else the first', () => {
    const closedFirst = { ...base, periodesEtablissement: [{ dateFin: '2023-12-31', etatAdministratifEtablissement: 'F' }, { dateFin: null, etatAdministratifEtablissement: 'A' }] }
    expect(readSireneEtablissement(closedFirst)?.state).toBe('A')
    expect(readSireneEtablissement({ ...base, periodesEtablissement: [{ dateFin: '2023-12-31', etatAdministratifEtablissement: 'F' }] })?.state).toBe('F')
  })

  it('refuses what the store cannot hold', () => {
    expect(readSireneEtablissement(null)).toBeNull()
    expect(readSireneEtablissement('x')).toBeNull()
    expect(readSireneEtablissement({ ...base, siret: '1234' })).toBeNull()
    expect(readSireneEtablissement(withPeriod({ etatAdministratifEtablissement: 'C' }))).toBeNull()
    expect(readSireneEtablissement({ ...base, dateDernierTraitementEtablissement: null })).toBeNull()
    expect(readSireneEtablissement({ ...base, dateDernierTraitementEtablissement: '2024-02-30T10:00:00.000' })).toBeNull()
  })

  it('derives the SIREN from the SIRET when absent, and drops values that are not codes', () => {
    const record = readSireneEtablissement({
      ...withPeriod({ activitePrincipaleEtablissement: '1071C' }),
      siren: undefined,
      trancheEffectifsEtablissement: 'NN',
      dateCreationEtablissement: '2024-13-01',
      adresseEtablissement: { codePostalEtablissement: '9999', codeCommuneEtablissement: '99134', libelleCommuneEtablissement: null },
      uniteLegale: { categorieJuridiqueUniteLegale: '57' },
    })
    expect(record).toMatchObject({ siren: base.siret.slice(0, 9), naf: null, headcount: null, createdOn: null, postcode: null, commune: null, city: null, address: null, legalForm: null })
  })
})

describe('sireneProcessedAt', () => {
  it('reads the API timestamp as UTC, with or without its milliseconds', () => {
    expect(sireneProcessedAt('2024-09-05T09:31:12.000')).toBe('2024-09-05T09:31:12.000Z')
    expect(sireneProcessedAt('2024-09-05T09:31:12')).toBe('2024-09-05T09:31:12.000Z')
    expect(sireneProcessedAt('2024-09-05')).toBe('2024-09-05T00:00:00.000Z')
    expect(sireneProcessedAt('05/09/2024')).toBeNull()
    expect(sireneProcessedAt(undefined)).toBeNull()
  })
})
