/**
 * The preview and the free count in one pass over the source: the first 20 businesses that pass the filters are
 * shown, and every one that passes is counted, up to what reading the source costs nothing more.
 *
 * - demo and OSM: the whole answer is one local generation or one Overpass query, so the count reads up to
 *   COUNT_SCAN_LIMIT businesses and says "more than N" beyond it.
 * - Google Places: every page is billed and there is no count endpoint, so only the page the preview fetches
 *   anyway is read, and the count is "at least N" unless that page was the last.
 */
import { PREVIEW_LIMIT, type MatchCount } from '#app/domain/search.ts'
import { matchesFilters, type SearchFilters } from '#app/domain/search-filters.ts'
import type { Business, LeadSource, ResolvedCategory, SearchParams } from '#app/.server/sources/types.ts'

export const COUNT_SCAN_LIMIT = 2_000

/** Businesses the source may be read for without extra cost. */
function freeScanLimit(source: LeadSource): number {
  return source.name === 'google' ? PREVIEW_LIMIT : COUNT_SCAN_LIMIT
}

export async function scanMatches(
  source: LeadSource,
  params: SearchParams,
  category: ResolvedCategory | null,
  filters: SearchFilters,
  { signal, exportCap = 0 }: { signal?: AbortSignal; exportCap?: number } = {},
): Promise<{ preview: Business[]; count: MatchCount; exportPlaceIds: string[] }> {
  const limit = freeScanLimit(source)
  // Where it is free, one more than the limit is asked for: whether it comes says if the source had more. Google
  // would fetch (and bill) a whole page for it, so a full first page there is simply "at least".
  const probe = source.name !== 'google'
  const preview: Business[] = []
  // The place ids of the businesses an export of this search would take, in its order (never pay twice, estimated).
  const exportPlaceIds: string[] = []
  let read = 0
  let matches = 0
  for await (const business of source.search(params, category, { limit: probe ? limit + 1 : limit, signal })) {
    if (read === limit) return { preview, count: { value: matches, exact: false }, exportPlaceIds }
    read++
    if (!matchesFilters(business, filters)) continue
    matches++
    if (preview.length < PREVIEW_LIMIT) preview.push(business)
    if (exportPlaceIds.length < exportCap) exportPlaceIds.push(business.placeId)
  }
  return { preview, count: { value: matches, exact: probe || read < limit }, exportPlaceIds }
}
