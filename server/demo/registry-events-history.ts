/**
 * The demo registry universe's event history, for the fake INSEE Sirene flux and the fake BODACC exports
 * (registry-events-server.ts): what Sirene processed each day and what the BODACC published, over the last 18
 * months, in their real formats, coherent with the demo registry (registry.ts) and the demo map.
 *
 * - Creations: new companies across the demo's searchable communes (the 25 a department search covers), in the demo
 *   sectors' NAF codes, most not on the map yet (their SIREN starts with 2 and encodes the day: the demo registry
 *   finds them again), and 5 % of the map's businesses, under the SIREN the registry match gives them. About two in
 *   three are announced in the BODACC (créations, some immatriculations) 1–3 weeks later.
 * - Procédures collectives of the universe's companies (history-stories.ts): about 3 % a cycle, openings
 *   (liquidation, redressement, sauvegarde), conversions, plans, clôtures, a few rectificatifs and annulations.
 * - Closures (Sirene, etatAdministratifEtablissement F) and radiations (BODACC) of about 1 % a cycle.
 *
 * Every day's events are fixed (they repeat every 540-day cycle, history-slots.ts): asking twice, or on another day,
 * gives the same records for a day in the window. The flux is empty on the 1st of the month (as INSEE's); the
 * BODACC publishes Tuesday to Saturday.
 */
import { LRUCache } from 'lru-cache'
import type { Commune } from '#app/.server/geo/france.ts'
import { hashString, Rng, rngFor } from '#app/.server/sources/demo/prng.ts'
import { type HistoryCompany, newCompany, newCompanyOptions, type NewCompanyPlan, parseNewCompanySiren, slotCompany } from './history-companies.ts'
import { type BodaccContent, type BodaccFamily, type BodaccRecord, bodaccRecord, type Judgment, type Publication } from './history-bodacc.ts'
import { sireneEtablissement, type SireneEtablissement } from './history-sirene.ts'
import { dayNumber, dayOf, HISTORY_CYCLE_DAYS, historyPairs, historySectors, mapCreationsOn, modulo, slotOf, type HistorySector } from './history-slots.ts'
import { type Story, storiesOfPhase } from './history-stories.ts'
import { procedureSchedule, type ScheduledEvent } from './history-schedule.ts'
import type { MakeCompany } from './registry-universe.ts'

export type { BodaccRecord } from './history-bodacc.ts'
export type { SireneEtablissement } from './history-sirene.ts'

/** New companies created on a day, by weekday (Sunday first). */
const NEW_PER_DAY = [25, 300, 300, 300, 300, 300, 60]
/** Sector weights of new companies: restaurants and trades are created more often than pharmacies. */
const SECTOR_WEIGHTS: Record<string, number> = { restaurant: 3, plumber: 2, electrician: 2, beauty: 2, hairdresser: 1.5, estate_agent: 1.5, clothes: 1.5, pharmacy: 0.3, dentist: 0.5, veterinary: 0.4 }
/** Share of creations the BODACC announces (companies and traders on the RCS, not every artisan). */
const ANNOUNCED_SHARE = 0.65
/** The latest a story's event comes after its start (history-schedule.ts). */
const STORY_SPAN_DAYS = 500
const WINDOW_MONTHS = 18

function todayIso(): string {
  return new Date().toISOString().slice(0, 10)
}

/** Whether `day` is within the last 18 months up to `today` (both YYYY-MM-DD). */
function inWindow(day: string, today: string): boolean {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number]
  const start = new Date(Date.UTC(y, m - 1 - WINDOW_MONTHS, d)).toISOString().slice(0, 10)
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && day > start && day <= today
}

const weekday = (n: number) => new Date(n * 86_400_000).getUTCDay()
/** Sirene processes every day but the 1st of the month (its flux is empty then). */
const nextProcessingDay = (n: number): number => (dayOf(n).endsWith('-01') ? n + 1 : n)
/** The BODACC appears Tuesday to Saturday. */
const nextPublicationDay = (n: number): number => {
  let day = n
  while (weekday(day) === 0 || weekday(day) === 1) day++
  return day
}

// New companies ------------------------------------------------------------------------------------------------

let communeWeights: { communes: Commune[]; cumulative: number[] } | null = null

function searchableCommunes(): { communes: Commune[]; cumulative: number[] } {
  if (communeWeights) return communeWeights
  const seen = new Map<string, Commune>()
  for (const pair of historyPairs()) for (const { commune } of pair.communes) seen.set(commune.code, commune)
  const communes = [...seen.values()]
  let total = 0
  const cumulative = communes.map((c) => (total += Math.pow(Math.max(c.population, 1), 0.85)))
  communeWeights = { communes, cumulative }
  return communeWeights
}

function pickCommune(rng: Rng): Commune {
  const { communes, cumulative } = searchableCommunes()
  const target = rng.next() * (cumulative[cumulative.length - 1] as number)
  let low = 0
  let high = cumulative.length - 1
  while (low < high) {
    const middle = (low + high) >> 1
    if ((cumulative[middle] as number) > target) high = middle
    else low = middle + 1
  }
  return communes[low] as Commune
}

const newPlans = new LRUCache<number, NewCompanyPlan[]>({ max: 1_000 })

/** The new companies created on a day (absolute day number), in order. */
function newCompaniesOn(n: number): NewCompanyPlan[] {
  let plans = newPlans.get(n)
  if (plans) return plans
  const day = dayOf(n)
  const rng = new Rng(hashString(`new|${day}`))
  const count = Math.round((NEW_PER_DAY[weekday(n)] as number) * (0.85 + 0.3 * rng.next()))
  const sectors = historySectors().map((s): readonly [HistorySector, number] => [s, SECTOR_WEIGHTS[s.sector.key] ?? 1])
  plans = Array.from({ length: count }, (_, ordinal) => ({ day, dayNumber: n, ordinal, commune: pickCommune(rng), sector: rng.weighted(sectors), seed: hashString(`new|${day}|${ordinal}`) }))
  newPlans.set(n, plans)
  return plans
}

/** The demo registry's company for a SIREN of the history's new companies (created by `today`), else null. */
export function demoCreationOfSiren(siren: string, today = todayIso()): Parameters<MakeCompany>[0] | null {
  const parsed = parseNewCompanySiren(siren)
  if (!parsed || dayOf(parsed.day) > today) return null
  const plan = newCompaniesOn(parsed.day)[parsed.ordinal]
  return plan ? newCompanyOptions(plan) : null
}

// A day's events -----------------------------------------------------------------------------------------------

interface Creation {
  key: string
  company: () => HistoryCompany
  createdOn: number
  processedOn: number
  announced: { family: 'creation' | 'immatriculation'; on: number } | null
}

function creationTiming(seed: number, created: number): Pick<Creation, 'processedOn' | 'announced'> {
  const rng = rngFor(seed, 'timing')
  const processedOn = nextProcessingDay(created + rng.int(0, 3))
  const announced = rng.chance(ANNOUNCED_SHARE) ? { family: rng.chance(0.12) ? ('immatriculation' as const) : ('creation' as const), on: nextPublicationDay(created + rng.int(6, 20)) } : null
  return { processedOn, announced }
}

/** Every creation of a creation day: new companies, then the map's businesses created that day. */
function creationsOn(n: number): Creation[] {
  const fresh = newCompaniesOn(n).map((plan) => ({ key: `n|${n}|${String(plan.ordinal).padStart(4, '0')}`, company: () => newCompany(plan), createdOn: n, ...creationTiming(plan.seed, n) }))
  const day = dayOf(n)
  const mapped = mapCreationsOn(day).map((id) => ({ key: `m|${n}|${String(id).padStart(8, '0')}`, company: () => slotCompany(slotOf(id), day), createdOn: n, ...creationTiming(hashString(`map-created|${id}`), n) }))
  return [...fresh, ...mapped]
}

/** Each start day's stories with their schedules (computed once: consecutive days share all but one start). */
const startsScheduled = new Map<number, Array<{ story: Story; events: ScheduledEvent[] }>>()

function scheduledFrom(start: number): Array<{ story: Story; events: ScheduledEvent[] }> {
  let scheduled = startsScheduled.get(start)
  if (!scheduled) {
    scheduled = storiesOfPhase(modulo(start, HISTORY_CYCLE_DAYS)).map((story) => ({ story, events: procedureSchedule(story, start) }))
    startsScheduled.set(start, scheduled)
  }
  return scheduled
}

/** Events of the stories whose start falls within the span before `n` (history-schedule.ts). */
function storyEventsAround(n: number, touches: (event: ScheduledEvent) => boolean): Array<{ story: Story; start: number; event: ScheduledEvent }> {
  const out: Array<{ story: Story; start: number; event: ScheduledEvent }> = []
  for (let start = n - STORY_SPAN_DAYS; start <= n; start++) {
    for (const { story, events } of scheduledFrom(start)) for (const event of events) if (touches(event)) out.push({ story, start, event })
  }
  return out
}

// Sirene ---------------------------------------------------------------------------------------------------------

/**
 * The establishments INSEE Sirene 3.11 processed on `day` (YYYY-MM-DD), as `GET /siret?q=dateDernierTraitement
 * Etablissement:<day>` lists them: the day's creations and closures. Empty outside the last 18 months before
 * `today` (default: now) and on the 1st of the month.
 */
export function demoEstablishmentsOn(day: string, today = todayIso()): SireneEtablissement[] {
  if (!inWindow(day, today)) return []
  const n = dayNumber(day)
  const out: SireneEtablissement[] = []
  for (let created = n - 6; created <= n; created++) {
    for (const creation of creationsOn(created)) {
      if (creation.processedOn === n) out.push(sireneEtablissement(creation.company(), { processedOn: day }))
    }
  }
  for (const { story, event } of storyEventsAround(n, (e) => e.kind === 'closure' && e.on === n)) {
    out.push(sireneEtablissement(slotCompany(slotOf(story.slot), day), { processedOn: day, closedOn: dayOf(event.closedOn ?? n) }))
  }
  return out.sort((a, b) => (a.siret < b.siret ? -1 : 1))
}

// BODACC ---------------------------------------------------------------------------------------------------------

interface Listed {
  key: string
  edition: 'A' | 'B'
  company: () => HistoryCompany
  content: (publicationOf: (key: string, on: number) => Publication | null) => BodaccContent
}

/** The day's issue number: publication days since 1 January, as "2026" + "0081". */
const parutions = new Map<number, string>()

function parutionOf(n: number): string {
  const known = parutions.get(n)
  if (known) return known
  const year = dayOf(n).slice(0, 4)
  let issue = 0
  for (let day = dayNumber(`${year}-01-01`); day <= n; day++) if (nextPublicationDay(day) === day) issue++
  const parution = `${year}${String(issue).padStart(4, '0')}`
  parutions.set(n, parution)
  return parution
}

const listings = new LRUCache<number, Listed[]>({ max: 128 })

/** Everything the BODACC published on a day, in its numbering order. */
function listedOn(n: number): Listed[] {
  let listed = listings.get(n)
  if (listed) return listed
  listed = []
  if (nextPublicationDay(n) === n) {
    for (let created = n - 21; created <= n - 6; created++) {
      for (const creation of creationsOn(created)) {
        const announced = creation.announced
        if (announced?.on !== n) continue
        listed.push({ key: creation.key, edition: 'A', company: creation.company, content: () => ({ family: announced.family, createdOn: dayOf(creation.createdOn) }) })
      }
    }
    for (const { story, start, event } of storyEventsAround(n, (e) => e.kind !== 'closure' && e.on === n)) {
      const key = `s|${start}|${String(story.slot).padStart(8, '0')}|${event.index}`
      const company = () => slotCompany(slotOf(story.slot), dayOf(n))
      listed.push({ key, edition: event.kind === 'radiation' ? 'B' : 'A', company, content: (publicationOf) => storyContent(event, start, story, publicationOf) })
    }
    listed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  }
  listings.set(n, listed)
  return listed
}

function storyContent(event: ScheduledEvent, start: number, story: Story, publicationOf: (key: string, on: number) => Publication | null): BodaccContent {
  if (event.kind === 'radiation') return { family: 'radiation', ceasedOn: dayOf(event.closedOn ?? event.on) }
  const judgment = event.judgment as Judgment
  const target = event.corrects === undefined ? null : publicationOf(`s|${start}|${String(story.slot).padStart(8, '0')}|${event.corrects.index}`, event.corrects.on)
  if (event.kind === 'annonce' || !target) return { family: 'collective', kind: 'annonce', judgment }
  const complement = event.kind === 'annulation' ? `Annulation de l'annonce n° ${target.number} parue au BODACC ${target.edition} n° ${target.parution} du ${target.day}.` : judgment.complementJugement
  return { family: 'collective', kind: event.kind as 'rectificatif' | 'annulation', judgment: { ...judgment, complementJugement: complement }, corrects: target }
}

/** Where the announcement of that key was published on day `on`, by its number in that day's edition. */
function publicationOf(key: string, on: number): Publication | null {
  const listed = listedOn(on)
  const target = listed.find((entry) => entry.key === key)
  if (!target) return null
  const number = listed.filter((entry) => entry.edition === target.edition).indexOf(target) + 1
  return { edition: target.edition, parution: parutionOf(on), day: dayOf(on), number }
}

/**
 * The BODACC records of one family (collective, radiation, creation, immatriculation) published on `day`, as the
 * DILA `annonces-commerciales` export gives them. Empty outside the last 18 months before `today` (default: now)
 * and on days without a BODACC (Sunday, Monday).
 */
export function demoAnnouncementsOn(day: string, family: string, today = todayIso()): BodaccRecord[] {
  if (!inWindow(day, today)) return []
  const n = dayNumber(day)
  const listed = listedOn(n)
  const numbers = { A: 0, B: 0 }
  const out: BodaccRecord[] = []
  for (const entry of listed) {
    const number = ++numbers[entry.edition]
    const content = entry.content(publicationOf)
    if (content.family !== (family as BodaccFamily)) continue
    out.push(bodaccRecord(entry.company(), { edition: entry.edition, parution: parutionOf(n), day, number }, content))
  }
  return out
}
