/**
 * The search preview: plan validation, then the first 20 businesses and the free count (match-count.ts).
 *
 * Previews are cached per normalized search for PREVIEW_CACHE_SECONDS (default 300; 0: never): the source's scope
 * (name + upstream), the language, the location and category (whitespace collapsed, the category by id) and every
 * filter. A repeated preview — the same user searching again, reloading, opening the export modal (which runs the
 * preview again), or another user with the same search — never repeats an upstream call, which matters most for
 * Google Places where every page is billed. Identical previews running at the same time share one computation.
 * Only successes are cached; the plan is checked on every call, before the cache. Nothing in a preview depends on
 * the user, so the cache is shared.
 */
import { LRUCache } from 'lru-cache'
import type { Language } from '#app/i18n.ts'
import type { PlanId } from '#app/domain/plans.ts'
import type { MatchCount, PreviewLead, SearchCriteria, SearchValidation } from '#app/domain/search.ts'
import { env } from '#app/.server/env.server.ts'
import { getLeadSource } from '#app/.server/sources/index.ts'
import { SharedRequests } from '#app/.server/sources/shared-requests.ts'
import { LeadSourceError, type LeadSource, type LeadSourceName, type ResolvedCategory, type SearchParams } from '#app/.server/sources/types.ts'
import { findCategory, getCategory, labelOf } from '#app/.server/taxonomy/categories.ts'
import { FILTER_FIELDS, NO_FILTERS, type SearchFilters } from '#app/domain/search-filters.ts'
import type { Business } from '#app/.server/sources/types.ts'
import { checkPlan, resolveCriteria, searchParamsOf, type LocationField } from './resolve-criteria.ts'
import { scanMatches } from './match-count.ts'

export type PreviewOutcome =
  | { ok: true; results: PreviewLead[]; source: 'demo' | 'osm' | 'google'; count: MatchCount; france: boolean; exportPlaceIds: string[] }
  | { ok: false; status: number; error: string; messageKey: string; validation?: SearchValidation; field?: LocationField }

/** The category id from the picker, or free text resolved to a known category when it names one. */
export function resolveCategory(sector: string, lang: Language): ResolvedCategory | null {
  const text = sector.trim()
  if (!text) return null
  const category = getCategory(text) ?? findCategory(text, lang)
  if (!category) return { id: text, label: text }
  return { id: category.id, label: labelOf(category, lang), osm: category.osm, googleType: category.googleType, naf: category.naf }
}

/**
 * Resolves the location (a bad one is a 400 naming the field), validates it against the plan (server-side
 * enforcement of SPEC §5), then asks the lead source for 20 results and the count — all from that one resolution.
 */
export async function runPreview(
  sent: SearchCriteria,
  { lang, plan, signal, filters = NO_FILTERS }: { lang: Language; plan: PlanId; signal?: AbortSignal; filters?: SearchFilters },
): Promise<PreviewOutcome> {
  const resolution = resolveCriteria(sent)
  if (!resolution.ok) return { ok: false, status: 400, error: 'invalid_location', messageKey: resolution.messageKey, field: resolution.field }
  const { criteria } = resolution
  const validation = checkPlan(criteria, plan)
  if (!validation.ok) {
    return { ok: false, status: validation.reason === 'plan' ? 403 : 400, error: validation.reason, messageKey: validation.messageKey, validation }
  }
  const source = getLeadSource()
  const category = resolveCategory(criteria.sector, lang)
  const params = searchParamsOf(criteria, lang)
  let preview: CachedPreview
  try {
    preview = await cachedPreview(source, params, category, filters, signal)
  } catch (error) {
    if (error instanceof LeadSourceError) {
      const status = error.code === 'rate_limited' ? 429 : error.code === 'bad_request' ? 400 : 502
      const messageKey = error.code === 'rate_limited' ? 'search.errors.rateLimited' : error.code === 'bad_request' ? 'search.errors.invalidRequest' : 'search.errors.upstream'
      return { ok: false, status, error: error.code, messageKey }
    }
    console.error('Preview search failed', error)
    return { ok: false, status: 502, error: 'unknown', messageKey: 'search.errors.unknown' }
  }
  return { ok: true, ...preview, france: criteria.france }
}

interface CachedPreview {
  results: PreviewLead[]
  source: LeadSourceName
  count: MatchCount
  /** The place ids an export of this search would take first (up to EXPORT_MAX_LEADS), in its order. */
  exportPlaceIds: string[]
}

const PREVIEW_CACHE_MAX_ENTRIES = 1_000
const previews = new LRUCache<string, CachedPreview>({ max: PREVIEW_CACHE_MAX_ENTRIES })
const running = new SharedRequests<CachedPreview>()

/** Forgets cached previews (tests). */
export function clearPreviewCache(): void {
  previews.clear()
  running.clear()
}

/** One key per search that gives the same preview: see the module comment. */
function previewCacheKey(source: LeadSource, params: SearchParams, category: ResolvedCategory | null, filters: SearchFilters): string {
  const text = (value: string | undefined) => value?.replace(/\s+/g, ' ').trim() || null
  return JSON.stringify([
    source.scope ?? source.name,
    params.lang,
    text(params.country),
    params.countryCode ?? null,
    text(params.region),
    text(params.department),
    text(params.city),
    text(category?.id),
    FILTER_FIELDS.map((field) => filters[field]),
  ])
}

async function cachedPreview(source: LeadSource, params: SearchParams, category: ResolvedCategory | null, filters: SearchFilters, signal?: AbortSignal): Promise<CachedPreview> {
  const compute = async (scanSignal?: AbortSignal): Promise<CachedPreview> => {
    const scan = await scanMatches(source, params, category, filters, { signal: scanSignal, exportCap: env.EXPORT_MAX_LEADS })
    return { results: scan.preview.map(previewLead), source: source.name, count: scan.count, exportPlaceIds: scan.exportPlaceIds }
  }
  const ttlSeconds = env.PREVIEW_CACHE_SECONDS
  if (ttlSeconds === 0) return compute(signal)
  const key = previewCacheKey(source, params, category, filters)
  const hit = previews.get(key)
  if (hit) return hit
  return running.run(key, signal, async (shared) => {
    const preview = await compute(shared)
    previews.set(key, preview, { ttl: ttlSeconds * 1000 })
    return preview
  })
}

function previewLead(business: Business): PreviewLead {
  return {
    id: `${business.source}:${business.placeId}`,
    name: business.name,
    address: business.address,
    businessTypes: business.businessTypes,
    website: business.website,
    rating: business.rating,
    reviewCount: business.reviewCount,
  }
}
