/**
 * The companies the demo registry's event history happens to, as numbered slots: for every department and every
 * built-in demo sector, what a department search shows (the demo map's businesses of its communes, ranks
 * 0..allocated-1) plus the registry-only companies the universe adds there (registry-universe.ts, 3 per 7). A slot is
 * a number, so the history can pick thousands of them and name only those it needs (history-companies.ts).
 *
 * The allocation is the demo source's own (app/.server/sources/demo/source.ts `plan`, area.ts `allocate`), and the
 * map business of a slot is identified by the source's seed `fr|<commune>|<sector>|<rank>`: the unit tests check
 * both against the source's output, so a change there shows up.
 */
import { areaPopulation, type Commune, franceData, topCommunes } from '#app/.server/geo/france.ts'
import { allocate, demoResultCount } from '#app/.server/sources/demo/area.ts'
import { frenchLabel } from '#app/.server/sources/demo/names.ts'
import { hashString } from '#app/.server/sources/demo/prng.ts'
import { SECTORS, type SectorStyle } from '#app/.server/sources/demo/vocabulary.ts'
import type { ResolvedCategory } from '#app/.server/sources/types.ts'
import { allCategories, type Category } from '#app/.server/taxonomy/categories.ts'

/** Businesses the map does not know, per business it knows (registry-universe.ts). */
export const UNKNOWN_PER_KNOWN = 3 / 7
/** Communes a department search covers (area.ts). */
const DEPARTMENT_COMMUNES = 25

export function resolvedCategory(category: Category): ResolvedCategory {
  return { id: category.id, label: frenchLabel({ id: category.id, label: category.labels.fr }), osm: category.osm, googleType: category.googleType, naf: category.naf }
}

export interface HistorySector {
  sector: SectorStyle
  category: ResolvedCategory
  /** The activity the registry gives the sector's businesses: its category's first NAF code. */
  naf: string
}

let sectors: HistorySector[] | null = null

/** One category per built-in demo sector (its first with a NAF code), in the sectors' order. */
export function historySectors(): HistorySector[] {
  sectors ??= SECTORS.flatMap((sector) => {
    const category = allCategories().find((c) => c.osm.key === sector.osm.key && c.osm.value === sector.osm.value && c.naf.length > 0)
    return category ? [{ sector, category: resolvedCategory(category), naf: category.naf[0] as string }] : []
  })
  return sectors
}

interface CommuneSlots {
  commune: Commune
  /** Map businesses a department search shows there (ranks 0..known-1). */
  known: number
  /** Registry-only companies (ranks 0..unknown-1). */
  unknown: number
}

export interface HistoryPair {
  department: string
  sector: number
  communes: CommuneSlots[]
  /** Id of the pair's first slot; its slots are first..first+size-1, commune by commune, known then unknown. */
  first: number
  size: number
}

export interface Slot {
  id: number
  pair: HistoryPair
  commune: Commune
  kind: 'known' | 'unknown'
  rank: number
}

/** The demo source's seed of the map business at a rank of a commune (source.ts `seedOf`). */
export function placeSeed(communeCode: string, sectorKey: string, rank: number): number {
  return hashString(`fr|${communeCode}|${sectorKey}|${rank}`)
}

/** The registry's seed of a registry-only company (registry-universe.ts): by commune, sector and rank. */
export function unknownSeed(communeCode: string, sectorKey: string, rank: number): number {
  return hashString(`registry-only|${communeCode}|${sectorKey}|${rank}`)
}

function departmentCommunes(departmentCode: string, sector: SectorStyle, area: { communes: Commune[]; population: number }): CommuneSlots[] {
  const { communes } = area
  const total = demoResultCount(area.population, sector.key, false)
  const capacities = communes.map((c) => demoResultCount(c.population, sector.key, false))
  const weights = communes.map((c) => Math.pow(Math.max(c.population, 1), 0.7))
  const counts = allocate(total, weights, capacities)
  return communes.map((commune, i) => {
    const known = counts[i] as number
    return { commune, known, unknown: Math.round(known * UNKNOWN_PER_KNOWN) }
  })
}

let pairs: HistoryPair[] | null = null

/** Every (department, sector) pair, in a fixed order, with its slot ids. */
export function historyPairs(): HistoryPair[] {
  if (pairs) return pairs
  const out: HistoryPair[] = []
  let next = 0
  for (const department of franceData().departments) {
    const area = { communes: topCommunes({ departmentCode: department.code }, DEPARTMENT_COMMUNES), population: areaPopulation({ departmentCode: department.code }) }
    historySectors().forEach(({ sector }, index) => {
      const communes = departmentCommunes(department.code, sector, area)
      const size = communes.reduce((sum, c) => sum + c.known + c.unknown, 0)
      out.push({ department: department.code, sector: index, communes, first: next, size })
      next += size
    })
  }
  pairs = out
  return out
}

export function slotOf(id: number): Slot {
  const all = historyPairs()
  let low = 0
  let high = all.length - 1
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if ((all[middle] as HistoryPair).first <= id) low = middle
    else high = middle - 1
  }
  const pair = all[low] as HistoryPair
  let offset = id - pair.first
  for (const entry of pair.communes) {
    if (offset < entry.known) return { id, pair, commune: entry.commune, kind: 'known', rank: offset }
    offset -= entry.known
    if (offset < entry.unknown) return { id, pair, commune: entry.commune, kind: 'unknown', rank: offset }
    offset -= entry.unknown
  }
  throw new Error(`slot ${id} is out of range`)
}

// Map businesses created recently -----------------------------------------------------------------------------

/** The history repeats every this many days (about 18 months), so any day's events are the same whenever asked. */
export const HISTORY_CYCLE_DAYS = 540
/** Share of the map's businesses (department views) that the history creates within each cycle. */
const MAP_CREATION_SHARE = 0.05

const DAY_MS = 86_400_000

export function dayNumber(day: string): number {
  return Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS)
}

const days = new Map<number, string>()

export function dayOf(number: number): string {
  let day = days.get(number)
  if (day === undefined) days.set(number, (day = new Date(number * DAY_MS).toISOString().slice(0, 10)))
  return day
}

export function modulo(value: number, divisor: number): number {
  return ((value % divisor) + divisor) % divisor
}

let mapCreations: Map<number, number> | null = null

/** Map businesses the history creates: their source seed → their slot id. Built once (half a million hashes). */
function mapCreationSlots(): Map<number, number> {
  if (mapCreations) return mapCreations
  const out = new Map<number, number>()
  for (const pair of historyPairs()) {
    const key = (historySectors()[pair.sector] as HistorySector).sector.key
    let id = pair.first
    for (const entry of pair.communes) {
      for (let rank = 0; rank < entry.known; rank++) {
        const seed = placeSeed(entry.commune.code, key, rank)
        if (hashString(`created|${seed}`) / 4294967296 < MAP_CREATION_SHARE) out.set(seed, id + rank)
      }
      id += entry.known + entry.unknown
    }
  }
  mapCreations = out
  return out
}

/** The day of the cycle a created map business was created on (its creation repeats every cycle). */
function creationPhase(seed: number): number {
  return hashString(`created-day|${seed}`) % HISTORY_CYCLE_DAYS
}

/**
 * When the demo map business with this source seed was created, if the history created it: the latest day on or
 * before `today` of its cycle phase (so it is always within the last 18 months). Null for the others.
 */
export function demoMapCreationDay(seed: number, today: string): string | null {
  if (!mapCreationSlots().has(seed)) return null
  const now = dayNumber(today)
  return dayOf(now - modulo(now - creationPhase(seed), HISTORY_CYCLE_DAYS))
}

/** The slot ids of the map businesses created on `day` (whatever the cycle). */
export function mapCreationsOn(day: string): number[] {
  const phase = modulo(dayNumber(day), HISTORY_CYCLE_DAYS)
  let byPhase = mapCreationsByPhase
  if (!byPhase) {
    byPhase = Array.from({ length: HISTORY_CYCLE_DAYS }, () => [] as number[])
    for (const [seed, id] of mapCreationSlots()) (byPhase[creationPhase(seed)] as number[]).push(id)
    for (const ids of byPhase) ids.sort((a, b) => a - b)
    mapCreationsByPhase = byPhase
  }
  return byPhase[phase] as number[]
}
let mapCreationsByPhase: number[][] | null = null

/** Whether the slot is a map business the history creates (it then has no other story). */
export function isCreatedSlot(slot: Slot): boolean {
  if (slot.kind !== 'known') return false
  const key = (historySectors()[slot.pair.sector] as HistorySector).sector.key
  return mapCreationSlots().has(placeSeed(slot.commune.code, key, slot.rank))
}

