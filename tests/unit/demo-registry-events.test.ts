// The demo registry universe's event history (server/demo/registry-events-history.ts): Sirene flux items and BODACC
// records in their real shapes, deterministic, within the last 18 months, coherent with the demo registry and map.
import { describe, expect, it } from 'vitest'
import { resolveCategory } from '#app/.server/search/preview.ts'
import { resolveCriteria, searchParamsOf } from '#app/.server/search/resolve-criteria.ts'
import { demoBusinesses } from '#app/.server/sources/demo/source.ts'
import { type BodaccAnnouncement, readBodaccRecord, riskStatus } from '#app/domain/registry-risk.ts'
import { historyPairs, historySectors, placeSeed, slotOf } from '#server/demo/history-slots.ts'
import { routeRegistryRequest } from '#server/demo/registry.ts'
import { normalize } from '#server/demo/registry-company.ts'
import { demoRegistryUniverse } from '#server/demo/registry-universe.ts'
import { makeCompany } from '#server/demo/registry-company.ts'
import { type BodaccRecord, demoAnnouncementsOn, demoEstablishmentsOn } from '#server/demo/registry-events-history.ts'

const TODAY = '2026-12-03'
const FAMILIES = ['collective', 'radiation', 'creation', 'immatriculation'] as const
const DAY_MS = 86_400_000

function daysBefore(today: string, count: number): string[] {
  const end = Date.parse(`${today}T00:00:00Z`)
  return Array.from({ length: count }, (_, i) => new Date(end - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10))
}

/** Every BODACC record of the window, read once (the risk checks need each company's whole history). */
const everything = (() => {
  const records: BodaccRecord[] = []
  for (const day of daysBefore(TODAY, 548)) for (const family of FAMILIES) records.push(...demoAnnouncementsOn(day, family, TODAY))
  return records
})()

function announcementsBySiren(): Map<string, BodaccAnnouncement[]> {
  const out = new Map<string, BodaccAnnouncement[]>()
  for (const record of everything) {
    const announcement = readBodaccRecord(record)!
    for (const siren of announcement.sirens) out.set(siren, [...(out.get(siren) ?? []), announcement])
  }
  return out
}

describe('demo registry event history', () => {
  it('is deterministic and answers nothing outside the last 18 months', () => {
    expect(demoEstablishmentsOn('2026-10-06', TODAY)).toEqual(demoEstablishmentsOn('2026-10-06', TODAY))
    expect(demoAnnouncementsOn('2026-10-06', 'collective', TODAY)).toEqual(demoAnnouncementsOn('2026-10-06', 'collective', '2027-01-15'))
    expect(demoEstablishmentsOn('2026-12-04', TODAY)).toEqual([])
    expect(demoEstablishmentsOn('2025-05-01', TODAY)).toEqual([])
    expect(demoAnnouncementsOn('2025-05-20', 'collective', TODAY)).toEqual([])
    // INSEE's flux is empty on the 1st of the month; the BODACC does not appear on Sundays and Mondays.
    expect(demoEstablishmentsOn('2026-11-01', TODAY)).toEqual([])
    expect(demoAnnouncementsOn('2026-11-30', 'creation', TODAY)).toEqual([])
  })

  // Measured (TODAY 2026-12-03, week of 2026-11-23): about 1 900 flux items a week (300 a weekday), per BODACC day
  // about 150 collective, 30 radiation, 250 creation, 35 immatriculation records.
  it('keeps daily volumes bounded: a week of France is a few thousand flux items', () => {
    const week = daysBefore('2026-11-29', 7)
    const flux = week.reduce((sum, day) => sum + demoEstablishmentsOn(day, TODAY).length, 0)
    expect(flux).toBeGreaterThan(1_000)
    expect(flux).toBeLessThan(4_000)
    for (const family of FAMILIES) {
      const perDay = week.map((day) => demoAnnouncementsOn(day, family, TODAY).length)
      expect(Math.max(...perDay), family).toBeLessThan(800)
      expect(perDay.filter((n) => n > 0).length, family).toBe(5)
    }
  })

  it('gives Sirene items their real fields and BODACC records that read, all dated within the window', () => {
    const start = '2025-06-03'
    for (const day of ['2026-03-10', '2026-07-22', '2026-11-24']) {
      for (const item of demoEstablishmentsOn(day, TODAY)) {
        expect(item.siret).toMatch(/^\d{14}$/)
        expect(item.siret.startsWith(item.siren)).toBe(true)
        expect(item.dateDernierTraitementEtablissement.slice(0, 10)).toBe(day)
        expect(item.uniteLegale.categorieJuridiqueUniteLegale).toMatch(/^\d{4}$/)
        expect(item.adresseEtablissement.codeCommuneEtablissement).toMatch(/^(\d{5}|2[AB]\d{3})$/)
        expect(item.periodesEtablissement[0]).toMatchObject({ dateFin: null })
      }
    }
    expect(everything.length).toBeGreaterThan(10_000)
    const ids = new Set<string>()
    for (const record of everything) {
      const announcement = readBodaccRecord(record)
      expect(announcement, record.id).not.toBeNull()
      expect(announcement!.publishedOn > start && announcement!.publishedOn <= TODAY).toBe(true)
      ids.add(record.id)
    }
    expect(ids.size).toBe(everything.length)
  })

  it('announces creations the flux carries, and the demo registry finds the new companies again', () => {
    const creations = demoAnnouncementsOn('2026-11-24', 'creation', TODAY).map((r) => readBodaccRecord(r)!)
    const flux = new Map(daysBefore('2026-11-24', 30).flatMap((day) => demoEstablishmentsOn(day, TODAY)).map((e) => [e.siren, e]))
    const matched = creations.filter((a) => flux.has(a.sirens[0]!))
    expect(matched.length).toBe(creations.length)
    for (const announcement of matched) expect(flux.get(announcement.sirens[0]!)!.dateCreationEtablissement).toBe(announcement.createdOn)

    const fresh = [...flux.values()].filter((e) => e.siren.startsWith('2')).slice(0, 20)
    expect(fresh.length).toBe(20)
    for (const establishment of fresh) {
      const reply = routeRegistryRequest('GET', `/search?q=${establishment.siret}`)
      const company = (reply.body as { results: Array<Record<string, unknown>> }).results[0]!
      expect(company.siren).toBe(establishment.siren)
      expect(company.date_creation).toBe(establishment.dateCreationEtablissement)
      expect(company.activite_principale).toBe(establishment.periodesEtablissement[0]!.activitePrincipaleEtablissement)
      expect((company.siege as { code_postal: string }).code_postal).toBe(establishment.adresseEtablissement.codePostalEtablissement)
    }
  })

  it('makes the slots of a department exactly what the demo registry universe holds there', () => {
    const plumber = historySectors().findIndex((s) => s.naf === '43.22A')
    const pair = historyPairs().find((p) => p.department === '33' && p.sector === plumber)!
    const universe = demoRegistryUniverse(['43.22A'], { kind: 'department', code: '33' }, makeCompany, normalize)
    expect(pair.size).toBe(universe.length)
    const bakery = resolveCategory('plumber', 'fr')!
    const resolution = resolveCriteria({ sector: 'plumber', country: 'France', countryCode: 'FR', region: 'Nouvelle-Aquitaine', department: 'Gironde', city: '' })
    if (!resolution.ok) throw new Error(resolution.messageKey)
    const seeds = new Set([...demoBusinesses(searchParamsOf(resolution.criteria, 'fr'), bakery, null)].map((b) => parseInt(b.placeId.slice(-7), 36)))
    const slotSeeds = new Set<number>()
    for (let id = pair.first; id < pair.first + pair.size; id++) {
      const slot = slotOf(id)
      if (slot.kind === 'known') slotSeeds.add(placeSeed(slot.commune.code, 'plumber', slot.rank))
    }
    expect(slotSeeds).toEqual(seeds)
  })

  it('puts a few of the plumbers the demo map shows in Gironde in liquidation or redressement, 2–4 % of all in a procedure', () => {
    const bySiren = announcementsBySiren()
    const universe = demoRegistryUniverse(['43.22A'], { kind: 'department', code: '33' }, makeCompany, normalize)
    const onMap = universe.filter((c) => (c.siege as { latitude: string | null }).latitude !== null)
    const status = (siren: string) => riskStatus(bySiren.get(siren) ?? [], { today: TODAY, entityActive: true }).status
    const troubled = onMap.filter((c) => ['liquidation', 'redressement'].includes(status(String(c.siren))))
    console.info('Gironde plumbers on the map in liquidation:', onMap.filter((c) => status(String(c.siren)) === 'liquidation').map((c) => `${String(c.siren)} ${String(c.nom_complet)}`))
    expect(troubled.length).toBeGreaterThanOrEqual(2)
    expect(troubled.length).toBeLessThanOrEqual(8)

    // Over every department's universe of three sectors: the share with an open procedure.
    let companies = 0
    let open = 0
    let radiated = 0
    for (const naf of ['43.22A', '10.71C', '56.10A']) {
      for (const department of ['33', '69', '29', '75', '13']) {
        for (const company of demoRegistryUniverse([naf], { kind: 'department', code: department }, makeCompany, normalize)) {
          companies++
          const s = riskStatus(bySiren.get(String(company.siren)) ?? [], { today: TODAY, entityActive: company.etat_administratif === 'A' }).status
          if (s === 'liquidation' || s === 'redressement' || s === 'sauvegarde') open++
          if (s === 'radiee') radiated++
        }
      }
    }
    console.info(`universe sample ${companies}: open procedure ${((100 * open) / companies).toFixed(2)} %, radiated ${((100 * radiated) / companies).toFixed(2)} %`)
    expect(open / companies).toBeGreaterThan(0.015)
    expect(open / companies).toBeLessThan(0.045)
    expect(radiated / companies).toBeGreaterThan(0.004)
    expect(radiated / companies).toBeLessThan(0.02)
  })

  it('includes rectificatifs and annulations that point at earlier announcements', () => {
    const byId = new Set(everything.map((r) => r.id))
    const corrections = everything.filter((r) => r.typeavis !== 'annonce')
    expect(corrections.some((r) => r.typeavis === 'annulation')).toBe(true)
    expect(corrections.some((r) => r.typeavis === 'rectificatif')).toBe(true)
    const targets = corrections.map((r) => readBodaccRecord(r)!.correctsId!)
    expect(targets.filter((id) => byId.has(id)).length).toBeGreaterThan(targets.length * 0.8)
  })
})
