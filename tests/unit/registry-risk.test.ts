import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  applyCorrections,
  type BodaccAnnouncement,
  fixMojibake,
  isClosingJudgment,
  isKnownJudgmentNature,
  judgmentStatus,
  parseBodaccDate,
  readBodaccRecord,
  type RegistryRiskOptions,
  riskStatus,
  yearsBefore,
} from '#app/domain/registry-risk.ts'

interface FixtureCase {
  description: string
  today: string
  entity: Omit<RegistryRiskOptions, 'today'>
  records: unknown[]
  expected: { status: string; announcementId: string | null; cleared?: string; radiationHidden?: string[] }
}

const FIXTURES = 'tests/fixtures/bodacc'
const cases = fs
  .readdirSync(FIXTURES)
  .filter((file) => file.endsWith('.json'))
  .map((file) => [file, JSON.parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8')) as FixtureCase] as const)

function announcement(overrides: Partial<BodaccAnnouncement> & Pick<BodaccAnnouncement, 'id'>): BodaccAnnouncement {
  return {
    sirens: ['833310592'],
    publishedOn: '2026-01-10',
    family: 'collective',
    kind: 'annonce',
    correctsId: null,
    judgment: null,
    radiation: null,
    createdOn: null,
    naturalPerson: false,
    tribunal: 'TRIBUNAL DE COMMERCE DE BORDEAUX',
    url: `https://www.bodacc.fr/pages/annonces-commerciales-detail/?q.id=id:${overrides.id}`,
    ...overrides,
  }
}

const opening = (id: string, nature: string, date: string) =>
  announcement({ id, publishedOn: date, judgment: { famille: "Jugement d'ouverture", nature, complement: '', date } })

describe('the golden BODACC fixture', () => {
  it('has the cases the rules need', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10)
  })

  it.each(cases)('%s', (_file, fixture) => {
    const announcements = fixture.records.map(readBodaccRecord)
    expect(announcements).not.toContain(null)
    const risk = riskStatus(announcements as BodaccAnnouncement[], { today: fixture.today, ...fixture.entity })
    expect(risk.status).toBe(fixture.expected.status)
    expect(risk.announcement?.id ?? null).toBe(fixture.expected.announcementId)
    if (fixture.expected.cleared) expect(risk.procedure.cleared).toBe(fixture.expected.cleared)
    if (fixture.expected.radiationHidden) expect(risk.radiation?.hiddenBecause).toEqual(fixture.expected.radiationHidden)
  })
})

describe('readBodaccRecord', () => {
  const [, liquidation] = cases.find(([file]) => file === 'liquidation.json')!

  it('reads the JSON-in-string fields of an export row', () => {
    expect(readBodaccRecord(liquidation.records[0])).toEqual({
      id: 'A202600811203',
      sirens: ['833310592'],
      publishedOn: '2026-04-28',
      family: 'collective',
      kind: 'annonce',
      correctsId: null,
      judgment: {
        famille: "Jugement d'ouverture",
        nature: "Jugement d'ouverture de liquidation judiciaire",
        complement: expect.stringContaining('liquidation judiciaire'),
        date: '2026-04-16',
      },
      radiation: null,
      createdOn: null,
      naturalPerson: false,
      tribunal: 'TRIBUNAL DE COMMERCE DE BORDEAUX',
      url: 'https://www.bodacc.fr/pages/annonces-commerciales-detail/?q.id=id:A202600811203',
    })
  })

  it('takes a v1 record (`fields`) and already-parsed objects alike', () => {
    const row = liquidation.records[0] as Record<string, string>
    const parsed = { ...row, jugement: JSON.parse(row.jugement!), listepersonnes: JSON.parse(row.listepersonnes!) }
    expect(readBodaccRecord({ fields: parsed })).toEqual(readBodaccRecord(row))
  })

  it('builds the corrected id from parutionavisprecedent', () => {
    const [, rectified] = cases.find(([file]) => file === 'rectificatif-nature.json')!
    expect(readBodaccRecord(rectified.records[1])).toMatchObject({ kind: 'rectificatif', correctsId: 'A202600901500' })
  })

  it('falls back on `registre` and the trades register, and rejects unusable records', () => {
    expect(readBodaccRecord({ id: 'B20260010001', dateparution: '2026-01-02', registre: '833 310 592,833310592' })?.sirens).toEqual(['833310592'])
    const rm = JSON.stringify({ personne: { typePersonne: 'pp', inscriptionRM: { numeroIdentificationRM: '424 557 189' } } })
    expect(readBodaccRecord({ id: 'A20260010002', dateparution: '2026-01-02', listepersonnes: rm })).toMatchObject({ sirens: ['424557189'], naturalPerson: true })
    expect(readBodaccRecord({ id: 'A20260010003', dateparution: '2026-01-02' })).toBeNull()
    expect(readBodaccRecord({ id: 'A20260010004', registre: '833310592' })).toBeNull()
    expect(readBodaccRecord('not a record')).toBeNull()
    expect(readBodaccRecord({ id: 'A20260010005', dateparution: '2026-01-02', registre: '833310592', jugement: '{not json' })?.judgment).toBeNull()
  })
})

describe('dates and text', () => {
  it.each([
    ['2022-01-27', '2022-01-27'],
    ['27/01/2022', '2022-01-27'],
    ['27 novembre 2008', '2008-11-27'],
    ['1er janvier 2020', '2020-01-01'],
    ['27\u00a0février\u00a02008', '2008-02-27'],
    ['5025-02-30', null],
    ['not a date', null],
    ['', null],
  ])('parses %j', (raw, expected) => {
    expect(parseBodaccDate(raw)).toBe(expected)
  })

  it('repairs UTF-8 read as Latin-1 and leaves good text alone', () => {
    expect(fixMojibake('Jugement de clÃ´ture')).toBe('Jugement de clôture')
    expect(fixMojibake('Jugement prononÃ§ant')).toBe('Jugement prononçant')
    expect(fixMojibake('Jugement de clôture')).toBe('Jugement de clôture')
    expect(fixMojibake('continuation de l’activité')).toBe('continuation de l’activité')
  })

  it('counts ten years back to the same day', () => {
    expect(yearsBefore('2026-08-20', 10)).toBe('2016-08-20')
    expect(yearsBefore('2028-02-29', 10)).toBe('2018-02-28')
  })
})

describe('judgmentStatus (the Annuaire rule table)', () => {
  it.each([
    ["Jugement d'ouverture de liquidation judiciaire", '', 'liquidation'],
    ['Jugement de conversion en liquidation judiciaire', '', 'liquidation'],
    ["Jugement d'ouverture d'une procédure de redressement judiciaire", '', 'redressement'],
    ['Jugement de conversion en redressement judiciaire de la procédure de sauvegarde', '', 'redressement'],
    ["Jugement d'ouverture d'une procédure de sauvegarde accélérée", '', 'sauvegarde'],
    ['Autre jugement prononçant', "l'ouverture d'une procédure de Liquidation Judiciaire", 'liquidation'],
    ["Autre jugement d'ouverture", 'une procédure de sauvegarde', 'sauvegarde'],
    ['Autre jugement prononçant', "la clôture de la procédure pour insuffisance d'actif", null],
    ["Jugement de clôture pour insuffisance d'actif", '', null],
    ['Jugement de plan de redressement', 'arrêtant le plan de continuation de l’activité', null],
    ['Nature inconnue', '', null],
    ['', '', null],
  ])('%s / %j → %s', (nature, complement, expected) => {
    expect(judgmentStatus(nature, complement)).toBe(expected)
  })

  it('knows every nature the fixture uses', () => {
    const natures = cases.flatMap(([, fixture]) => fixture.records.map((r) => readBodaccRecord(r)?.judgment?.nature)).filter((n): n is string => Boolean(n))
    expect(natures.filter((nature) => !isKnownJudgmentNature(nature))).toEqual([])
  })

  it('tells a clôture by its family', () => {
    expect(isClosingJudgment('Jugement de clôture')).toBe(true)
    expect(isClosingJudgment("Jugement d'ouverture")).toBe(false)
  })
})

describe('riskStatus rules', () => {
  const today = '2026-08-20'
  const options = { today, entityActive: true }

  it('annulations remove the cancelled announcement and themselves; rectificatifs replace', () => {
    const first = opening('A1', "Jugement d'ouverture de liquidation judiciaire", '2026-01-05')
    const cancel = announcement({ id: 'A2', kind: 'annulation', correctsId: 'A1', judgment: first.judgment })
    const fix = announcement({ id: 'A3', kind: 'rectificatif', correctsId: 'A1', judgment: { ...first.judgment!, nature: "Jugement d'ouverture d'une procédure de sauvegarde" } })
    expect(applyCorrections([first, cancel]).map((a) => a.id)).toEqual([])
    expect(applyCorrections([first, fix]).map((a) => a.id)).toEqual(['A3'])
    expect(riskStatus([first, fix], options).status).toBe('sauvegarde')
  })

  it('the latest judgment decides, by judgment date before publication date', () => {
    const older = opening('A1', "Jugement d'ouverture d'une procédure de sauvegarde", '2025-01-05')
    const newer = opening('A2', "Jugement d'ouverture de liquidation judiciaire", '2026-02-01')
    expect(riskStatus([newer, older], options)).toMatchObject({ status: 'liquidation', announcement: { id: 'A2' } })
  })

  it('a later administrative judgment clears the status, as in the Annuaire (only the latest judgment counts)', () => {
    const open = opening('A1', "Jugement d'ouverture d'une procédure de redressement judiciaire", '2025-01-05')
    const organs = announcement({ id: 'A2', judgment: { famille: 'Jugement', nature: 'Jugement de désignation des organes de la procédure', complement: '', date: '2025-03-01' } })
    expect(riskStatus([open, organs], options)).toMatchObject({ status: 'none', procedure: { cleared: null } })
  })

  it('a procedure ten years old or more expires; a judgment without a date never does', () => {
    const old = opening('A1', "Jugement d'ouverture de liquidation judiciaire", '2016-08-20')
    expect(riskStatus([old], options).procedure.cleared).toBe('expired')
    expect(riskStatus([opening('A2', old.judgment!.nature, '2016-08-21')], options).status).toBe('liquidation')
    const undated = announcement({ id: 'A3', judgment: { ...old.judgment!, date: null } })
    expect(riskStatus([undated], options).status).toBe('liquidation')
  })

  it("hides a sole trader's radiation when a new establishment started on or after it", () => {
    const radiation = announcement({ id: 'B1', family: 'radiation', naturalPerson: true, radiation: { date: '2024-04-30', comment: '' } })
    const closed = { today, entityActive: false }
    expect(riskStatus([radiation], { ...closed, restartedOn: '2024-04-30' }).radiation?.hiddenBecause).toEqual(['new_establishment_since'])
    expect(riskStatus([radiation], { ...closed, restartedOn: '2024-04-29' }).status).toBe('radiee')
    expect(riskStatus([radiation], { ...closed, soleTrader: false, restartedOn: '2025-01-01' }).status).toBe('radiee')
  })

  it('ignores the pre-2012 head-office transfers published as radiations', () => {
    const transfer = announcement({ id: 'B1', family: 'radiation', radiation: { date: null, comment: 'Transfert du siège hors ressort' } })
    expect(riskStatus([transfer], { today, entityActive: false })).toMatchObject({ status: 'none', radiation: null })
  })
})
