// Filters before export (SPEC §4 Search form): part of the search's GET form, so they live in the URL and work
// without JavaScript. One schema reads them (the search page, the export command) and one predicate applies them
// (the preview, its count and the export's `filtered` lead gate). Pure: shared by client and server.
import { z } from 'zod'
import { readMinimum } from './decimal.ts'

export interface SearchFilters {
  hasWebsite: boolean
  hasPhone: boolean
  /** 0..5, or null for no minimum. */
  minRating: number | null
  /** A whole number ≥ 0, or null for no minimum. */
  minReviews: number | null
  excludeClosed: boolean
  /**
   * The risk shield (issue 32): companies in a collective procedure (sauvegarde, redressement, liquidation), or
   * struck off, per their BODACC announcements. Judged by SIREN during the export, before anything is charged
   * (exports/risk-gate.ts); the map does not know SIRENs, so the preview does not count them.
   */
  excludeInsolvent: boolean
  excludeRadiated: boolean
}

export const NO_FILTERS: SearchFilters = { hasWebsite: false, hasPhone: false, minRating: null, minReviews: null, excludeClosed: false, excludeInsolvent: false, excludeRadiated: false }

export const FILTER_FIELDS = ['hasWebsite', 'hasPhone', 'minRating', 'minReviews', 'excludeClosed', 'excludeInsolvent', 'excludeRadiated'] as const
export type FilterField = (typeof FILTER_FIELDS)[number]

/** A checkbox sends its value when ticked and nothing otherwise; a stored filter is a boolean. */
const Checkbox = z
  .union([z.string(), z.boolean()])
  .nullish()
  .transform((value) => value === true || (typeof value === 'string' && value !== '' && value !== 'false' && value !== '0'))

/** Empty means "no minimum"; anything else must be a number within bounds (decimal.ts readMinimum). */
/* #__NO_SIDE_EFFECTS__ */ // builds a schema only: the browser's chunks drop it with the schema (vite.config.ts)
function minimum(max: number, integer: boolean) {
  return z
    .union([z.string(), z.number()])
    .nullish()
    .transform((value, ctx): number | null => {
      const number = readMinimum(value, max, integer)
      if (number === 'invalid') {
        ctx.addIssue({ code: 'custom', message: 'invalid' })
        return z.NEVER
      }
      return number
    })
}

export const MAX_RATING = 5
export const MAX_REVIEWS = 1_000_000

const SearchFiltersSchema = z.object({
  hasWebsite: Checkbox,
  hasPhone: Checkbox,
  minRating: minimum(MAX_RATING, false),
  minReviews: minimum(MAX_REVIEWS, true),
  excludeClosed: Checkbox,
  excludeInsolvent: Checkbox,
  excludeRadiated: Checkbox,
})

export type FiltersReading = { ok: true; filters: SearchFilters } | { ok: false; field: FilterField }

/** Reads the filters of a URL or form; the first bad field is named so its message can say which. */
export function readSearchFilters(params: URLSearchParams): FiltersReading {
  const parsed = SearchFiltersSchema.safeParse(Object.fromEntries(FILTER_FIELDS.map((field) => [field, params.get(field)])))
  if (parsed.success) return { ok: true, filters: parsed.data }
  return { ok: false, field: parsed.error.issues[0]?.path[0] as FilterField }
}

/** The risk shield's boxes of a command's form (a list's launch), the other filters off. */
export function riskFiltersOfForm(form: FormData): SearchFilters {
  const { excludeInsolvent, excludeRadiated } = SearchFiltersSchema.pick({ excludeInsolvent: true, excludeRadiated: true }).parse({
    excludeInsolvent: form.get('excludeInsolvent'),
    excludeRadiated: form.get('excludeRadiated'),
  })
  return { ...NO_FILTERS, excludeInsolvent, excludeRadiated }
}

/** Stored filters (exports.search_params.filters), read leniently: what is not a valid filter is no filter. */
export function storedFilters(raw: unknown): SearchFilters {
  const parsed = SearchFiltersSchema.safeParse(raw && typeof raw === 'object' ? raw : {})
  return parsed.success ? parsed.data : NO_FILTERS
}

/** The filters that narrow the search, as URL parameters (the ones the form would send). */
export function filtersToParams(filters: SearchFilters): Array<[FilterField, string]> {
  const params: Array<[FilterField, string]> = []
  for (const field of FILTER_FIELDS) {
    const value = filters[field]
    if (value === true) params.push([field, '1'])
    else if (typeof value === 'number') params.push([field, String(value)])
  }
  return params
}

export function hasFilters(filters: SearchFilters): boolean {
  return filtersToParams(filters).length > 0
}

/** What the predicate reads of a business (the sources' Business has these fields). */
export interface FilterableBusiness {
  website: string | null
  phone: string | null
  rating: number | null
  reviewCount: number | null
  operationalState: string | null
}

/**
 * Whether a business passes the filters. A minimum excludes businesses whose value is unknown: "at least 4 stars"
 * cannot be promised for a business nobody rated. Closed means closed for good (the source says so); a temporary
 * closure is kept. The risk shield's filters are not the map's to judge (see SearchFilters).
 */
export function matchesFilters(business: FilterableBusiness, filters: SearchFilters): boolean {
  if (filters.hasWebsite && !business.website?.trim()) return false
  if (filters.hasPhone && !business.phone?.trim()) return false
  if (filters.minRating !== null && (business.rating === null || business.rating < filters.minRating)) return false
  if (filters.minReviews !== null && (business.reviewCount === null || business.reviewCount < filters.minReviews)) return false
  if (filters.excludeClosed && business.operationalState === 'CLOSED_PERMANENTLY') return false
  return true
}
