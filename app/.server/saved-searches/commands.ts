// The saved-search commands shared by every door: the search page's "Save this search" dialog (save-command.ts), the
// edit page (routes/saved-searches.$id.tsx) and the API (api-v1/operations/saved-searches.ts). Each door parses its
// own input (a form, a JSON body) into these inputs; the rules (the location, the toggle rules of the enrichments,
// ownership) live here once.
import type { SessionUser } from '#app/.server/auth.ts'
import { resolveCriteria, type LocationField } from '#app/.server/search/resolve-criteria.ts'
import { isFrance, optionsFromValues, selectedTypes } from '#app/domain/enrichment.ts'
import type { PlanId } from '#app/domain/plans.ts'
import type { UpdateSavedSearch } from '#app/domain/saved-search-commands.ts'
import type { SearchFilters } from '#app/domain/search-filters.ts'
import type { SearchCriteria } from '#app/domain/search.ts'
import { createSavedSearch, getSavedSearch, updateSavedSearch } from './store.ts'
import { WATCH_SCHEDULE_KINDS } from '#app/domain/saved-search-commands.ts'

export interface SaveSearchInput {
  name: string
  criteria: SearchCriteria
  filters: SearchFilters
  /** The chosen enrichment types; the toggle rules are applied here (technologies needs website, registry data only in France). */
  options: readonly string[]
  preset: string
  maxLeads: number | null
  lang: 'fr' | 'en'
  timeZone?: string
}

export type SaveSearchResult =
  | { ok: true; id: string }
  | { ok: false; reason: 'location'; field: LocationField; messageKey: string }
  | { ok: false; reason: 'no_enrichment' }
  | { ok: false; reason: 'saved_search_limit'; limit: number; plan: PlanId }

/** Saves a search after checking its location as a search would (resolve-criteria.ts) and its enrichments. */
export async function saveSearch(user: SessionUser, input: SaveSearchInput): Promise<SaveSearchResult> {
  const resolution = resolveCriteria(input.criteria)
  if (!resolution.ok) return { ok: false, reason: 'location', field: resolution.field, messageKey: resolution.messageKey }
  const { location, sector, france } = resolution.criteria
  const enrichments = selectedTypes(optionsFromValues(input.options, { france }))
  if (enrichments.length === 0) return { ok: false, reason: 'no_enrichment' }
  const created = await createSavedSearch(user, {
    name: input.name,
    criteria: { sector, country: location.country ?? '', ...(location.countryCode ? { countryCode: location.countryCode } : {}), region: location.region ?? '', department: location.department ?? '', city: location.city ?? '' },
    filters: input.filters,
    enrichments,
    preset: input.preset,
    maxLeads: input.maxLeads,
    lang: input.lang,
    ...(input.timeZone ? { timeZone: input.timeZone } : {}),
  })
  if (!created.ok) return { ok: false, reason: 'saved_search_limit', limit: created.limit, plan: created.plan }
  return { ok: true, id: created.id }
}

export type UpdateSearchResult = { ok: true } | { ok: false; reason: 'not_found' | 'no_enrichment' | 'watch_schedule' }

/** The edit page's command: delivery, schedule and budget, with the toggle rules of the search's own country. */
export async function updateSavedSearchCommand(user: SessionUser, id: string, input: UpdateSavedSearch, { lang }: { lang: 'fr' | 'en' }): Promise<UpdateSearchResult> {
  const saved = await getSavedSearch(user, id)
  if (!saved) return { ok: false, reason: 'not_found' }
  // A new-companies watch delivers what was registered since its last run: it needs a schedule, and it is French.
  const watch = saved.kind === 'new_companies'
  if (watch && !(WATCH_SCHEDULE_KINDS as readonly string[]).includes(input.scheduleKind)) return { ok: false, reason: 'watch_schedule' }
  const options = selectedTypes(optionsFromValues(input.options, { france: watch || isFrance(saved.criteria.country, saved.criteria.countryCode) }))
  if (options.length === 0 && !watch) return { ok: false, reason: 'no_enrichment' }
  return (await updateSavedSearch(user, id, { ...input, options }, { lang })) ? { ok: true } : { ok: false, reason: 'not_found' }
}
