/**
 * The contract every lead source implements (ARCHITECTURE §5). A source turns search parameters into a lazy stream of
 * businesses; the export pipeline pages through it, the preview takes the first 20.
 */

declare const resolvedBrand: unique symbol

/**
 * A location app/.server/search/resolve-criteria.ts checked (names known and inside each other, countryCode the
 * country's own ISO alpha-2): names as sent, trimmed, empty ones left out. The brand is given there only.
 */
export type ResolvedLocation = {
  readonly country?: string
  readonly countryCode?: string
  readonly region?: string
  readonly department?: string
  readonly city?: string
} & { readonly [resolvedBrand]: true }

/** A search as sources read it: a resolved location, never the request's raw fields. */
export type SearchParams = ResolvedLocation & {
  /** Category id (from the category picker) or free text typed by the user. */
  sector?: string
  lang: 'fr' | 'en'
}

/**
 * What the category picker's id resolved to. `null` (passed instead of a category) means "all sectors"; free text
 * resolves to `{ id: text, label: text }` with no tag/type mapping.
 */
export interface ResolvedCategory {
  id: string
  label: string
  osm?: { key: string; value: string }
  googleType?: string | null
  naf?: string[]
}

export type LeadSourceName = 'demo' | 'osm' | 'google'

/** One business as a source found it, before enrichment. Unknown values are null, never invented. */
export interface Business {
  source: LeadSourceName
  /** Stable id within the source: leads are deduplicated by (source, placeId). */
  placeId: string
  name: string
  address: string | null
  fullAddressArray: string[]
  city: string | null
  postalCode: string | null
  countryCode: string | null
  latitude: number | null
  longitude: number | null
  /** The source's own vocabulary: Google place types, OSM tag values, or the category label. */
  businessTypes: string[]
  website: string | null
  phone: string | null
  email: string[]
  rating: number | null
  reviewCount: number | null
  googleMapsUrl: string | null
  /** Source-native: an OSM `opening_hours` string (osm, demo) or Places `regularOpeningHours` (google). */
  openingHours: unknown | null
  /** Places `businessStatus` values (OPERATIONAL, CLOSED_TEMPORARILY, CLOSED_PERMANENTLY) when known. */
  operationalState: string | null
  /** network → URL (facebook, instagram, linkedin, twitter, tiktok, youtube). */
  socialMedia: Record<string, string>
  siret?: string | null
}

export interface LeadSearchOptions {
  /** Stop after this many businesses (undefined: everything the source has). */
  limit?: number
  signal?: AbortSignal
}

export interface LeadSource {
  name: LeadSourceName
  /**
   * What makes two instances give the same answers (the name and the upstream they ask): previews are cached per
   * scope (app/.server/search/preview.ts). Default: the name.
   */
  scope?: string
  search(params: SearchParams, category: ResolvedCategory | null, options: LeadSearchOptions): AsyncIterable<Business>
}

export type LeadSourceErrorCode = 'rate_limited' | 'upstream_error' | 'timeout' | 'bad_request'

/** A failure the caller can act on: retry later (rate_limited, timeout), report (upstream_error), or fix input. */
export class LeadSourceError extends Error {
  override name = 'LeadSourceError'
  readonly code: LeadSourceErrorCode
  /** Seconds the upstream asked us to wait (HTTP Retry-After), when it said so. */
  readonly retryAfterSeconds: number | undefined

  constructor(code: LeadSourceErrorCode, message: string, retryAfterSeconds?: number) {
    super(message)
    this.code = code
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** A business known by its id and name only: every other field empty, for the caller to fill (a registry or list lead). */
export function blankBusiness(source: string, placeId: string, name: string): Business {
  return {
    source: source as LeadSourceName,
    placeId,
    name,
    address: null,
    fullAddressArray: [],
    city: null,
    postalCode: null,
    countryCode: null,
    latitude: null,
    longitude: null,
    businessTypes: [],
    website: null,
    phone: null,
    email: [],
    rating: null,
    reviewCount: null,
    googleMapsUrl: null,
    openingHours: null,
    operationalState: null,
    socialMedia: {},
    siret: null,
  }
}
