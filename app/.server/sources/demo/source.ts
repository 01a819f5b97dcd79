/**
 * The offline default lead source: deterministic businesses over real French geography, with websites served by the
 * demo websites server (server/demo/websites.ts) so the enrichment pipeline runs for real without internet.
 *
 * Same search → same businesses in the same order. A business is identified by (commune, sector, rank in that
 * commune), so the bakeries a department search shows in Lyon are also the first bakeries of a Lyon search.
 */
import { allocate, type DemoArea, demoResultCount, resolveDemoArea } from './area.ts'
import { demoDetails, demoSlug, seedToken } from './identity.ts'
import { businessName, frenchLabel, sectorForCategory, sectorLabel } from './names.ts'
import { SECTORS, type SectorStyle, slugify } from './vocabulary.ts'
import { type Commune, normalizeName } from '#app/.server/geo/france.ts'
import { Rng, hashString, rngFor } from './prng.ts'
import type { Business, LeadSearchOptions, LeadSource, ResolvedCategory, SearchParams } from '../types.ts'

export interface DemoSourceConfig {
  /**
   * Base URL of the running demo websites server. Without it businesses get no website: a URL to a server that is
   * not running would make every website enrichment fail instead of showing the pipeline working.
   */
  websitesBaseUrl?: string | null
}

export function createDemoSource(config: DemoSourceConfig = {}): LeadSource {
  const websitesBaseUrl = config.websitesBaseUrl?.replace(/\/+$/, '') || null
  return {
    name: 'demo',
    scope: `demo ${websitesBaseUrl ?? ''}`,
    search: (params, category, options) => searchDemo(params, category, options, websitesBaseUrl),
  }
}

interface Slot {
  commune: Commune | null
  rank: number
}

/** What makes one demo search: where, which sector, and the identity key shared by overlapping searches. */
interface DemoSearch {
  params: SearchParams
  category: ResolvedCategory | null
  area: DemoArea
  /** The built-in sector the category stands for (undefined for free text and for "all sectors"). */
  sector: SectorStyle | undefined
  /** Same key for "shop/bakery" and a typed "boulangerie": both find the same bakeries. */
  sectorKey: string
}

async function* searchDemo(
  params: SearchParams,
  category: ResolvedCategory | null,
  options: LeadSearchOptions,
  websitesBaseUrl: string | null,
): AsyncGenerator<Business> {
  options.signal?.throwIfAborted()
  const limit = options.limit ?? Number.POSITIVE_INFINITY
  if (limit <= 0) return
  let yielded = 0
  for (const business of demoBusinesses(params, category, websitesBaseUrl)) {
    if (yielded >= limit) return
    options.signal?.throwIfAborted()
    yield business
    yielded++
  }
}

/**
 * Every business of a demo search, in its order, computed synchronously: the demo registry lists the same businesses
 * (server/demo/registry-universe.ts) from a request handler that cannot wait.
 */
export function* demoBusinesses(params: SearchParams, category: ResolvedCategory | null, websitesBaseUrl: string | null): Generator<Business> {
  const sector = category ? sectorForCategory(category) : undefined
  const search: DemoSearch = {
    params,
    category,
    area: resolveDemoArea(params),
    sector,
    sectorKey: category ? (sector?.key ?? (slugify(category.label || category.id) || 'custom')) : 'all',
  }
  const names = new NameBook(search)
  for (const slot of plan(search)) yield makeBusiness(search, slot, names, websitesBaseUrl)
}

/** Every (commune, rank) of the search, in a deterministic shuffled order so the first page mixes towns. */
function plan(search: DemoSearch): Slot[] {
  const { area, category, sector, sectorKey } = search
  const countKey = category ? sectorKey : null
  const freeText = !!category && !sector
  const total = demoResultCount(area.population, countKey, freeText)
  let slots: Slot[]
  if (area.kind === 'france') {
    const capacities = area.communes.map((c) => demoResultCount(c.population, countKey, freeText))
    const weights = area.communes.map((c) => Math.pow(Math.max(c.population, 1), 0.7))
    const counts = allocate(total, weights, capacities)
    slots = area.communes.flatMap((commune, i) => Array.from({ length: counts[i] as number }, (_, rank) => ({ commune, rank })))
  } else {
    slots = Array.from({ length: total }, (_, rank) => ({ commune: null, rank }))
  }
  const rng = new Rng(hashString(`order|${scopeKey(search, null)}|${area.kind === 'france' ? area.communes.map((c) => c.code).join(',') : ''}`))
  for (let i = slots.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1))
    ;[slots[i], slots[j]] = [slots[j] as Slot, slots[i] as Slot]
  }
  return slots
}

/** Identity scope of a business: its commune in France, else the named place and country. */
function scopeKey(search: DemoSearch, commune: Commune | null): string {
  if (commune) return `fr|${commune.code}|${search.sectorKey}`
  const { area } = search
  if (area.kind === 'place') return `place|${area.countryCode ?? ''}|${normalizeName(area.town ?? '')}|${search.sectorKey}`
  return `area|${search.sectorKey}`
}

function seedOf(search: DemoSearch, slot: Slot): number {
  return hashString(`${scopeKey(search, slot.commune)}|${slot.rank}`)
}

/** The sector of one business: the searched one, or for "all sectors" one drawn from the built-in list. */
function sectorOf(search: DemoSearch, seed: number): SectorStyle | undefined {
  if (search.category) return search.sector
  return rngFor(seed, 'sector').pick(SECTORS)
}

/**
 * Names per commune without duplicates: rank n avoids the names of ranks 0..n-1 of the same commune and sector, which
 * depends only on that commune, so a business keeps its name whichever search finds it.
 */
class NameBook {
  private readonly books = new Map<string, { names: string[]; taken: Set<string> }>()

  constructor(private readonly search: DemoSearch) {}

  nameOf(slot: Slot): string {
    const key = scopeKey(this.search, slot.commune)
    let book = this.books.get(key)
    if (!book) this.books.set(key, (book = { names: [], taken: new Set() }))
    while (book.names.length <= slot.rank) {
      const seed = seedOf(this.search, { commune: slot.commune, rank: book.names.length })
      let name = ''
      for (let attempt = 0; attempt < 8; attempt++) {
        name = this.draw(seed, attempt)
        if (!book.taken.has(name)) break
      }
      book.names.push(name)
      book.taken.add(name)
    }
    return book.names[slot.rank] as string
  }

  private draw(seed: number, attempt: number): string {
    const { search } = this
    const sector = sectorOf(search, seed)
    const french = search.area.kind === 'france' || search.area.french
    const { category } = search
    const label = category ? (french ? frenchLabel(category) : category.label) : sector ? sectorLabel(sector, french ? 'fr' : search.params.lang) : ''
    const town = search.area.kind === 'place' ? (search.area.town ?? undefined) : undefined
    return businessName(rngFor(seed, `name:${attempt}`), { sector, label, french, town })
  }
}

function makeBusiness(search: DemoSearch, slot: Slot, names: NameBook, websitesBaseUrl: string | null): Business {
  const { area, params, category } = search
  const seed = seedOf(search, slot)
  const sector = sectorOf(search, seed)
  const name = names.nameOf(slot)
  const details = demoDetails(seed, slot.commune)
  const slug = demoSlug(name, slot.commune, seed)
  const hoursRng = rngFor(seed, 'hours')
  const openingHours = sector && hoursRng.chance(0.85) ? hoursRng.pick(sector.hours) : null
  const businessTypes = [category?.label ?? (sector && sectorLabel(sector, params.lang))].filter((t): t is string => !!t)
  const base = {
    source: 'demo' as const,
    name,
    businessTypes,
    website: details.hasWebsite && websitesBaseUrl ? `${websitesBaseUrl}/sites/${slug}/` : null,
    email: [],
    rating: details.rating,
    reviewCount: details.reviewCount,
    googleMapsUrl: null,
    openingHours,
    operationalState: details.operationalState,
    socialMedia: {},
    // The SIRET is left for the French registry enrichment to find (it is printed on some demo sites' legal notice).
    siret: null,
  }
  if (slot.commune) {
    const postalLine = `${details.postalCode} ${details.city}`
    return {
      ...base,
      placeId: `fr-${slot.commune.code.toLowerCase()}-${seedToken(seed)}`,
      address: `${details.streetAddress}, ${postalLine}`,
      fullAddressArray: [details.streetAddress as string, postalLine, 'France'],
      city: details.city,
      postalCode: details.postalCode,
      countryCode: 'FR',
      latitude: details.latitude,
      longitude: details.longitude,
      phone: details.phoneListed ? details.phone : null,
    }
  }
  // Outside our French data: a plausible business in the named place, with no address, phone or coordinates.
  const town = area.kind === 'place' ? area.town : null
  const countryName = params.country && params.country.trim().length > 2 ? params.country.trim() : null
  return {
    ...base,
    placeId: `xx-${seedToken(seed)}`,
    address: null,
    fullAddressArray: [town, countryName].filter((part): part is string => !!part),
    city: town,
    postalCode: null,
    countryCode: area.kind === 'place' ? area.countryCode : null,
    latitude: null,
    longitude: null,
    phone: null,
  }
}
