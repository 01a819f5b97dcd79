/**
 * One row of a user's list to a business (app/domain/list-match.ts says in what order). The registry is asked through
 * the export's enrichers, so a list's lookups take the same deployment budget as every other (7/s for the public
 * registry) and the do-not-contact wrapper sees them; the map source is listed once per postcode (or town) and matched
 * with the registry-first search's rules (registry/map-match.ts), at most `maxMapPlaces` places per run.
 *
 * What comes out is a lead source's Business, so the export's gates (do-not-contact, only new businesses) judge it
 * before anything is spent, and the search phase records it like any other.
 */
import type { JsonObject } from '#app/.server/db.ts'
import { findCommune, franceData, type Commune } from '#app/.server/geo/france.ts'
import { indexMap, matchOnMap, registryPlaceId } from '#app/.server/registry/map-match.ts'
import { registryPlaceCriteria } from '#app/.server/registry/place.ts'
import { searchParamsOf } from '#app/.server/search/resolve-criteria.ts'
import { resolveCategory } from '#app/.server/search/preview.ts'
import { categoriesForNafCodes } from '#app/.server/exports/registry-criteria.ts'
import { blankBusiness, type Business, type LeadSource } from '#app/.server/sources/types.ts'
import { rowMatchKind, type ListMatchKind, type ListMatchRecord } from '#app/domain/list-match.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import type { ListRow } from './list-rows.ts'

/** A matched (or not found) row as the search phase records it: a business, the row's cells and how it was matched. */
export type ListCandidate = Business & {
  adminFrInfo?: JsonObject
  listMatch: ListMatchRecord
  listCells: string[]
}

/** The registry did not answer (rate limited beyond what it waits, down): the run is retried, the sample says so. */
export class ListMatchFailed extends Error {
  override name = 'ListMatchFailed'
}

export interface ListMatcherOptions {
  enrichers: Pick<Enrichers, 'lookupRegistry' | 'reachSite'>
  source: LeadSource
  listId: string
  /** The column of the website, for the address as the user wrote it (its path, its port). */
  websiteColumn: number
  lang: 'fr' | 'en'
  signal?: AbortSignal
  /** Distinct postcodes or towns listed on the map per run (default 200): beyond, rows are matched on the registry only. */
  maxMapPlaces?: number
  /** Businesses read from the map per place (default 2 000). */
  mapListingLimit?: number
}

/** A match in the listing of every category (no activity code to narrow it) needs this much, not the usual 0.5. */
const EVERY_CATEGORY_MIN_CONFIDENCE = 0.7

let townOfPostcode: Map<string, Commune> | undefined

/** The town of a French postcode (the first of the towns sharing it, as the registry's place does). */
function communeOfPostcode(postalCode: string): Commune | undefined {
  if (!townOfPostcode) {
    townOfPostcode = new Map()
    for (const commune of franceData().communes) {
      if (commune.isArrondissement) continue
      for (const code of commune.codesPostaux) if (!townOfPostcode.has(code)) townOfPostcode.set(code, commune)
    }
  }
  return townOfPostcode.get(postalCode)
}

/** A site that answers is the company's, but until its legal notice is read that is all we know. */
const SITE_CONFIDENCE = 0.9

interface RegistryResultJson {
  siren?: string
  siret?: string | null
  nom_complet?: string | null
  adresse?: string | null
  code_postal?: string | null
  commune?: string | null
  activite_principale?: string | null
  etat_administratif?: string | null
}

/** The address of the row's site: the cell as written when it is a web address, else its domain. */
function siteUrl(row: ListRow, websiteColumn: number): string | null {
  if (!row.domain) return null
  const cell = (row.cells[websiteColumn] ?? '').trim()
  if (/^https?:\/\//i.test(cell) && URL.canParse(cell)) return cell
  return `https://${row.domain}`
}

/**
 * The map side of matching: each (place, category) listed once per run, at most `maxMapPlaces` of them, and each map
 * business given to one row at most.
 */
function createMapMatcher(options: ListMatcherOptions) {
  const { source, signal } = options
  const maxMapPlaces = options.maxMapPlaces ?? 200
  const mapLimit = options.mapListingLimit ?? 2000
  const maps = new Map<string, Promise<Map<string, Business[]> | null>>()
  // By source and id: one business appears in several listings (its category's, every category's).
  const taken = new Set<string>()
  const idOf = (business: Business) => `${business.source}\u0000${business.placeId}`
  // matchOnMap asks only whether a business is taken.
  const takenIds = { has: (business: Business) => taken.has(idOf(business)) } as ReadonlySet<Business>

  /**
   * The map's businesses of the row's postcode (else town) in the category of the registry's activity code (every
   * category without one), listed once per run; null beyond the cap or for a place our geography does not know.
   */
  function mapOf(postalCode: string | null, city: string | null, nafCode: string | null): Promise<Map<string, Business[]> | null> {
    // A postcode's listing is its town's (the map is searched by town): one listing per town, whatever its postcodes.
    const commune = postalCode ? communeOfPostcode(postalCode) : city ? findCommune(city) : undefined
    const categoryId = nafCode ? categoriesForNafCodes([nafCode])[0] : undefined
    if (!commune) return Promise.resolve(null)
    const key = `${commune.code}|${categoryId ?? '*'}`
    const known = maps.get(key)
    if (known) return known
    if (maps.size >= maxMapPlaces) return Promise.resolve(null)
    const criteria = registryPlaceCriteria({ kind: 'commune', code: commune.code })
    const listing = (async () => {
      if (!criteria) return null
      const found: Business[] = []
      try {
        const category = categoryId ? resolveCategory(categoryId, options.lang) : null
        for await (const business of source.search(searchParamsOf(criteria, options.lang), category, { limit: mapLimit, signal })) found.push(business)
      } catch (error) {
        if (signal?.aborted) throw error
        // The map down or slow: the rows of this place are matched on the registry alone.
        return null
      }
      return indexMap(found)
    })()
    maps.set(key, listing)
    return listing
  }

  /** The map business of this name at this place (registry-first rules), taken so no second row gets it. */
  async function onMap(name: string, postalCode: string | null, city: string | null, nafCode: string | null = null) {
    const establishment = { name, postalCode, latitude: null, longitude: null } as Parameters<typeof matchOnMap>[0]
    // The activity's category first; a business the map files under another one (its registered code is not what it
    // does) is found in the place's listing of every category.
    for (const code of nafCode ? [nafCode, null] : [null]) {
      const index = await mapOf(postalCode, city, code)
      if (!index) continue
      const match = matchOnMap(establishment, index, takenIds)
      // Across every category a name alone must be closer: "Coiffure Fontaine" is not "Les Fleurs de la Fontaine".
      if (match && (code !== null || match.confidence >= EVERY_CATEGORY_MIN_CONFIDENCE)) {
        taken.add(idOf(match.business))
        return match
      }
    }
    return null
  }

  return { onMap }
}

function candidate(business: Business, row: ListRow, kind: ListMatchKind, status: ListMatchRecord['status'], confidence: number | null, extra: Partial<ListCandidate> = {}): ListCandidate {
  const givenWebsite = Boolean(business.website && row.domain)
  return { ...business, ...extra, listMatch: { kind, status, confidence, line: row.line, ...(givenWebsite ? { givenWebsite } : {}) }, listCells: row.cells }
}

/** A row whose business an earlier row already brought: its own lead, with nothing to enrich, naming that row. */
function sameCompany(listId: string, row: ListRow, sameAs: number): ListCandidate {
  const found = notFound(listId, row)
  return { ...found, listMatch: { ...found.listMatch, status: 'same_company', sameAs } }
}

function notFound(listId: string, row: ListRow): ListCandidate {
  const name = row.name ?? row.domain ?? row.siret ?? row.siren ?? ''
  const business: Business = { ...blankBusiness('list', `row:${listId}:${row.line}`, name), city: row.city, postalCode: row.postalCode, countryCode: row.countryCode }
  return candidate(business, row, rowMatchKind(row), 'not_found', null)
}

/** Each row to its business on its own (createListMatcher adds the one-row-per-business rule). */
function createRowMatcher(options: ListMatcherOptions) {
  const { enrichers, source, listId, signal } = options
  const { onMap } = createMapMatcher(options)

  /** The row's company in the registry, with its map business when the map knows it. */
  async function fromRegistry(row: ListRow, kind: ListMatchKind, info: JsonObject): Promise<ListCandidate> {
    const result = ((info.results as unknown[] | undefined)?.[0] ?? {}) as RegistryResultJson
    const siren = result.siren ?? row.siren ?? ''
    const siret = result.siret ?? row.siret ?? null
    const name = result.nom_complet || row.name || siren
    const confidence = typeof info.confidence === 'number' ? info.confidence : null
    const map = await onMap(name, result.code_postal ?? row.postalCode, result.commune ?? row.city, result.activite_principale ?? null)
    if (map) {
      const business = { ...map.business, siret: siret ?? map.business.siret ?? null, website: map.business.website ?? siteUrl(row, options.websiteColumn) }
      return candidate(business, row, kind, 'matched', confidence, { adminFrInfo: info })
    }
    const business: Business = {
      ...blankBusiness(source.name, registryPlaceId({ siren, siret }), name),
      address: result.adresse ?? row.address,
      fullAddressArray: result.adresse ? [result.adresse] : [],
      city: result.commune ?? row.city,
      postalCode: result.code_postal ?? row.postalCode,
      countryCode: 'FR',
      businessTypes: result.activite_principale ? [result.activite_principale] : [],
      operationalState: result.etat_administratif && result.etat_administratif !== 'A' ? 'CLOSED_PERMANENTLY' : null,
      website: siteUrl(row, options.websiteColumn),
      siret,
    }
    return candidate(business, row, kind, 'matched', confidence, { adminFrInfo: info })
  }

  async function lookup(row: ListRow, ids: boolean) {
    const query = { name: row.name ?? '', postalCode: row.postalCode, city: row.city, siret: ids ? row.siret : null, siren: ids ? row.siren : null }
    const result = await enrichers.lookupRegistry(query, { signal })
    if (result.status === 'failed') throw new ListMatchFailed(result.error)
    return result.status === 'success' ? result.info : null
  }

  async function bySite(row: ListRow): Promise<ListCandidate | null> {
    const url = siteUrl(row, options.websiteColumn)
    if (!url || !row.domain) return null
    const reached = enrichers.reachSite ? await enrichers.reachSite(url, { signal }) : url
    if (!reached) return null
    const business: Business = {
      ...blankBusiness('list', `site:${row.domain}`, row.name ?? row.domain),
      address: row.address,
      fullAddressArray: row.address ? [row.address] : [],
      city: row.city,
      postalCode: row.postalCode,
      countryCode: row.countryCode ?? 'FR',
      website: reached,
      siret: row.siret,
    }
    return candidate(business, row, 'domain', 'matched', enrichers.reachSite ? SITE_CONFIDENCE : null)
  }

  /** `registryAsked`: the identifiers' lookup already searched the registry by this name. */
  async function byName(row: ListRow, registryAsked: boolean): Promise<ListCandidate | null> {
    if (!row.name || !(row.postalCode || row.city)) return null
    const info = registryAsked ? null : await lookup(row, false)
    if (info) return fromRegistry(row, 'name', info)
    const map = await onMap(row.name, row.postalCode, row.city)
    return map ? candidate(map.business, row, 'name', 'matched', map.confidence) : null
  }

  return matchRow

  async function matchRow(row: ListRow): Promise<ListCandidate> {
    signal?.throwIfAborted()
    const ids = Boolean(row.siret || row.siren)
    if (ids) {
      const info = await lookup(row, true)
      const by = info?.matched_by
      if (info && (by === 'siret' || by === 'siren')) return fromRegistry(row, row.siret ? 'siret' : 'siren', info)
      // The registry client searched by the name when the identifier found nothing: a name match is one.
      if (info) return fromRegistry(row, 'name', info)
    }
    return (await bySite(row)) ?? (await byName(row, ids)) ?? notFound(listId, row)
  }
}

export function createListMatcher(options: ListMatcherOptions) {
  const matchRow = createRowMatcher(options)
  // The first row matched to each business, by its id: a later row matched to it too keeps its own line in the file.
  const firstRowOf = new Map<string, number>()
  return {
    /** Throws ListMatchFailed when the registry cannot answer now (nothing is decided for the row). */
    async match(row: ListRow): Promise<ListCandidate> {
      const found = await matchRow(row)
      if (found.listMatch.status !== 'matched') return found
      const id = `${found.source}\u0000${found.placeId}`
      const first = firstRowOf.get(id)
      if (first !== undefined && first !== row.line) return sameCompany(options.listId, row, first)
      firstRowOf.set(id, row.line)
      return found
    },
  }
}
