import type { Language } from '#app/i18n.ts'
import type { PlanId } from '#app/domain/plans.ts'
import { validateSearch, type MatchCount, type PreviewLead, type SearchCriteria, type SearchValidation } from '#app/domain/search.ts'
import { getLeadSource } from '#app/.server/sources/index.ts'
import { LeadSourceError, type ResolvedCategory } from '#app/.server/sources/types.ts'
import { findCategory, getCategory, labelOf } from '#app/.server/taxonomy/categories.ts'
import { NO_FILTERS, type SearchFilters } from '#app/domain/search-filters.ts'
import type { Business } from '#app/.server/sources/types.ts'
import { countryCodeOf, locationLevelsAvailable } from './locations.ts'
import { scanMatches } from './match-count.ts'

export type PreviewOutcome =
  | { ok: true; results: PreviewLead[]; source: 'demo' | 'osm' | 'google'; count: MatchCount }
  | { ok: false; status: number; error: string; messageKey: string; validation?: SearchValidation }

/** The category id from the picker, or free text resolved to a known category when it names one. */
export function resolveCategory(sector: string, lang: Language): ResolvedCategory | null {
  const text = sector.trim()
  if (!text) return null
  const category = getCategory(text) ?? findCategory(text, lang)
  if (!category) return { id: text, label: text }
  return { id: category.id, label: labelOf(category, lang), osm: category.osm, googleType: category.googleType, naf: category.naf }
}

/** Validates against the plan (server-side enforcement of SPEC §5), then asks the lead source for 20 results. */
export async function runPreview(
  criteria: SearchCriteria,
  { lang, plan, signal, filters = NO_FILTERS }: { lang: Language; plan: PlanId; signal?: AbortSignal; filters?: SearchFilters },
): Promise<PreviewOutcome> {
  const levels = criteria.country ? locationLevelsAvailable(criteria.country, criteria.region || undefined) : {}
  const validation = validateSearch(criteria, plan, levels)
  if (!validation.ok) {
    return { ok: false, status: validation.reason === 'plan' ? 403 : 400, error: validation.reason, messageKey: validation.messageKey, validation }
  }
  const source = getLeadSource()
  const category = resolveCategory(criteria.sector, lang)
  let scan: Awaited<ReturnType<typeof scanMatches>>
  try {
    const params = {
      sector: criteria.sector || undefined,
      country: criteria.country || undefined,
      countryCode: countryCodeOf(criteria.country, criteria.countryCode),
      region: criteria.region || undefined,
      department: criteria.department || undefined,
      city: criteria.city || undefined,
      lang,
    }
    scan = await scanMatches(source, params, category, filters, signal)
  } catch (error) {
    if (error instanceof LeadSourceError) {
      const status = error.code === 'rate_limited' ? 429 : error.code === 'bad_request' ? 400 : 502
      const messageKey = error.code === 'rate_limited' ? 'search.errors.rateLimited' : error.code === 'bad_request' ? 'search.errors.invalidRequest' : 'search.errors.upstream'
      return { ok: false, status, error: error.code, messageKey }
    }
    console.error('Preview search failed', error)
    return { ok: false, status: 502, error: 'unknown', messageKey: 'search.errors.unknown' }
  }
  return { ok: true, results: scan.preview.map(previewLead), source: source.name, count: scan.count }
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
