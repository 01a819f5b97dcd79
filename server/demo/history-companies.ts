/**
 * The registry companies the event history names: a slot's (the map business the demo source puts at that rank, or
 * a registry-only company, made exactly as the registry universe makes them) and the history's new companies
 * (not on the map yet), whose SIREN says when they were created so the demo registry finds them again.
 */
import { LRUCache } from 'lru-cache'
import type { Commune } from '#app/.server/geo/france.ts'
import { completeLuhn, demoDetails, demoSlug, seedToken } from '#app/.server/sources/demo/identity.ts'
import { businessName } from '#app/.server/sources/demo/names.ts'
import { rngFor } from '#app/.server/sources/demo/prng.ts'
import { type HistorySector, historySectors, placeSeed, type Slot } from './history-slots.ts'
import { makeCompany, normalize } from './registry-company.ts'
import { type DemoCompany, knownCompany, type MakeCompany, unknownCompany } from './registry-universe.ts'

/** The base URL the registry universe gives the map's websites (never called): the printed SIRETs come from it. */
const DEMO_WEBSITES = 'http://demo-websites.invalid'

export interface HistoryCompany {
  company: DemoCompany
  /** The name the business trades under (the map's, or the new company's sign). */
  sign: string
  commune: Commune
  naf: string
  /** On the demo map (a department search shows it). */
  onMap: boolean
}

/** Names of a commune's map businesses of a sector, by rank, as the demo source's NameBook gives them. */
const nameBooks = new LRUCache<string, { names: string[]; taken: Set<string> }>({ max: 4_000 })

function mapName(commune: Commune, sector: HistorySector, rank: number): string {
  const key = `${commune.code}|${sector.sector.key}`
  let book = nameBooks.get(key)
  if (!book) nameBooks.set(key, (book = { names: [], taken: new Set() }))
  while (book.names.length <= rank) {
    const seed = placeSeed(commune.code, sector.sector.key, book.names.length)
    let name = ''
    for (let attempt = 0; attempt < 8; attempt++) {
      name = businessName(rngFor(seed, `name:${attempt}`), { sector: sector.sector, label: sector.category.label, french: true })
      if (!book.taken.has(name)) break
    }
    book.names.push(name)
    book.taken.add(name)
  }
  return book.names[rank] as string
}

/** The company of a slot, as the registry shows it on `day` (a created map business is dated from it). */
export function slotCompany(slot: Slot, day: string): HistoryCompany {
  const sector = historySectors()[slot.pair.sector] as HistorySector
  if (slot.kind === 'unknown') {
    const company = unknownCompany(slot.commune, sector.category, slot.rank, sector.naf, makeCompany as MakeCompany)
    return { company, sign: signOf(company), commune: slot.commune, naf: sector.naf, onMap: false }
  }
  const seed = placeSeed(slot.commune.code, sector.sector.key, slot.rank)
  const name = mapName(slot.commune, sector, slot.rank)
  const details = demoDetails(seed, slot.commune)
  const business = {
    name,
    postalCode: details.postalCode,
    placeId: `fr-${slot.commune.code.toLowerCase()}-${seedToken(seed)}`,
    website: details.hasWebsite ? `${DEMO_WEBSITES}/sites/${demoSlug(name, slot.commune, seed)}/` : null,
    latitude: details.latitude,
    longitude: details.longitude,
  }
  const company = knownCompany(business, sector.naf, makeCompany as MakeCompany, normalize, day)
  return { company, sign: name, commune: slot.commune, naf: sector.naf, onMap: true }
}

function signOf(company: DemoCompany): string {
  return String(company.nom_raison_sociale ?? company.nom_complet)
}

// New companies ------------------------------------------------------------------------------------------------

/** Days are counted from here in a new company's SIREN. */
const SIREN_EPOCH = Date.UTC(2020, 0, 1) / 86_400_000

/** A new company is numbered by its creation day and its rank that day: SIREN = 2 + 4-digit day + 3-digit rank + key. */
function newCompanySiren(day: number, ordinal: number): string {
  return completeLuhn(`2${String(day - SIREN_EPOCH).padStart(4, '0')}${String(ordinal).padStart(3, '0')}`)
}

/** The creation day and rank a new company's SIREN holds; null for any other SIREN. */
export function parseNewCompanySiren(siren: string): { day: number; ordinal: number } | null {
  const match = /^2(\d{4})(\d{3})\d$/.exec(siren)
  return match && completeLuhn(siren.slice(0, 8)) === siren ? { day: SIREN_EPOCH + Number(match[1]), ordinal: Number(match[2]) } : null
}

export interface NewCompanyPlan {
  day: string
  dayNumber: number
  ordinal: number
  commune: Commune
  sector: HistorySector
  seed: number
}

/** What the demo registry's makeCompany needs to make a new company (the same for a lookup and for the flux). */
export function newCompanyOptions(plan: NewCompanyPlan): Parameters<MakeCompany>[0] {
  const name = businessName(rngFor(plan.seed, 'name'), { sector: plan.sector.sector, label: plan.sector.category.label, french: true })
  const postalCode = rngFor(plan.seed, 'postcode').pick(plan.commune.codesPostaux)
  const siren = newCompanySiren(plan.dayNumber, plan.ordinal)
  return { name, postalCode, naf: plan.sector.naf, seed: plan.seed, siret: completeLuhn(`${siren}0001`), createdOn: plan.day }
}

export function newCompany(plan: NewCompanyPlan): HistoryCompany {
  const options = newCompanyOptions(plan)
  return { company: makeCompany(options), sign: options.name, commune: plan.commune, naf: plan.sector.naf, onMap: false }
}
