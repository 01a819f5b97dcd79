/**
 * A registry-first export's leads (issue 22 item 4): each establishment the registry lists is matched to the map
 * source of the same place and category, which alone knows its phone, website, rating and reviews. The score is the
 * enrichment's registry match read the other way (enrichment/registry.ts): name similarity × (0.75 + 0.25 × same
 * place), so a confidence means the same in both directions. The same place is the same postcode, or both positions
 * within a shopfront's geocoding error; positions far apart rule the pair out (app/domain/geo-distance.ts). Below 0.5 the establishment is "not found online"
 * and is delivered with its registry data only.
 */
import type { JsonObject } from '#app/.server/db.ts'
import { nameSimilarity } from '#app/.server/enrichment/registry-names.ts'
import { blankBusiness, type Business, type LeadSourceName } from '#app/.server/sources/types.ts'
import { positionEvidence } from '#app/domain/geo-distance.ts'
import type { RegistryEstablishment } from '#app/domain/registry-search.ts'

/** As the enrichment's registry match: below this a name is not the same business. */
const MIN_CONFIDENCE = 0.5

/** admin_fr_info.matched_by of a registry-first lead: found on the map, or not found online. */
export const REGISTRY_MATCHED_ON_MAP = 'registry_map'
export const REGISTRY_NOT_ONLINE = 'registry_not_online'

/** Whether a stored leads.admin_fr_info is a registry-first lead the map did not know. */
export function isNotFoundOnline(info: unknown): boolean {
  return typeof info === 'object' && info !== null && (info as { matched_by?: unknown }).matched_by === REGISTRY_NOT_ONLINE
}

/** A business with the registry data its lead is recorded with (no second registry lookup). */
export type RegistryCandidate = Business & { adminFrInfo: JsonObject }

export interface MapMatch {
  business: Business
  confidence: number
}

function postcodeKey(value: string | null): string {
  return value?.trim() ?? ''
}

/** The map's businesses by postcode, for the postcode-first lookup (a registry place lists thousands). */
export function indexMap(businesses: readonly Business[]): Map<string, Business[]> {
  const index = new Map<string, Business[]>()
  for (const business of businesses) {
    const key = postcodeKey(business.postalCode)
    const list = index.get(key)
    if (list) list.push(business)
    else index.set(key, [business])
  }
  return index
}

function score(establishment: RegistryEstablishment, business: Business): number {
  if (!establishment.name) return 0
  const position = positionEvidence(establishment, business)
  if (position === 'other_place') return 0
  const samePlace = position === 'same_place' || (establishment.postalCode !== null && establishment.postalCode === business.postalCode)
  return Math.round(nameSimilarity(business.name, establishment.name) * (0.75 + 0.25 * (samePlace ? 1 : 0)) * 1000) / 1000
}

/**
 * The map business that is this establishment, or null. Same postcode first (the usual case); the whole map only when
 * nothing there passes, since a business may list another postcode than its registered one. `taken` keeps one map
 * business from standing for two establishments.
 */
export function matchOnMap(establishment: RegistryEstablishment, index: ReadonlyMap<string, readonly Business[]>, taken: ReadonlySet<Business> = new Set()): MapMatch | null {
  const best = (candidates: Iterable<Business>): MapMatch | null => {
    let found: MapMatch | null = null
    for (const business of candidates) {
      if (taken.has(business)) continue
      const confidence = score(establishment, business)
      if (confidence >= MIN_CONFIDENCE && (!found || confidence > found.confidence)) found = { business, confidence }
    }
    return found
  }
  const local = best(index.get(postcodeKey(establishment.postalCode)) ?? [])
  if (local) return local
  return best([...index.values()].flat().filter((business) => business.postalCode !== establishment.postalCode))
}

/**
 * The registry result as leads.admin_fr_info keeps a registry match (enrichment/registry.ts toAdminResult), so every
 * reader (file columns, API, closed-business filter) reads it unchanged. `confidence` is the map match's (null: not
 * found online). A sole trader's withheld data stays withheld (the establishment already left it out).
 */
export function registryAdminInfo(establishment: RegistryEstablishment, confidence: number | null): JsonObject {
  const result: JsonObject = {
    siren: establishment.siren,
    siret: establishment.siret,
    nom_complet: establishment.name,
    nom_raison_sociale: establishment.name,
    activite_principale: establishment.activityCode,
    nature_juridique: establishment.legalFormCode,
    tranche_effectif_salarie: establishment.headcountBand,
    date_creation: establishment.creationDate,
    etat_administratif: establishment.active ? 'A' : 'F',
    statut_diffusion: establishment.personalDataWithheld ? 'P' : 'O',
    adresse: establishment.address,
    siege_adresse: establishment.headOffice ? establishment.address : null,
    code_postal: establishment.postalCode,
    commune: establishment.city ?? establishment.communeCode,
    dirigeants: establishment.directors.map((d) =>
      d.kind === 'company' ? { denomination: d.name, ...(d.role ? { qualite: d.role } : {}) } : { nom: d.name, ...(d.firstNames ? { prenoms: d.firstNames } : {}), ...(d.role ? { qualite: d.role } : {}) },
    ),
    confidence,
  }
  return { results: [result], confidence, matched_by: confidence === null ? REGISTRY_NOT_ONLINE : REGISTRY_MATCHED_ON_MAP }
}

/** Place id of an establishment the map does not know: stable, so a second export finds the same lead. */
export function registryPlaceId(establishment: Pick<RegistryEstablishment, 'siren' | 'siret'>): string {
  return `registry-${establishment.siret ?? establishment.siren}`
}

/** The lead of one establishment: its map business with the registry data, or its registry data alone. */
export function registryCandidate(establishment: RegistryEstablishment, match: MapMatch | null, source: LeadSourceName): RegistryCandidate {
  if (match) {
    return { ...match.business, siret: establishment.siret ?? match.business.siret ?? null, adminFrInfo: registryAdminInfo(establishment, match.confidence) }
  }
  return {
    ...blankBusiness(source, registryPlaceId(establishment), establishment.name ?? ''),
    address: establishment.address,
    fullAddressArray: establishment.address ? [establishment.address] : [],
    city: establishment.city,
    postalCode: establishment.postalCode,
    countryCode: 'FR',
    latitude: establishment.latitude,
    longitude: establishment.longitude,
    businessTypes: establishment.activityCode ? [establishment.activityCode] : [],
    operationalState: establishment.active ? null : 'CLOSED_PERMANENTLY',
    siret: establishment.siret,
    adminFrInfo: registryAdminInfo(establishment, null),
  }
}
