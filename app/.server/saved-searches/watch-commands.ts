// "Watch new companies" (issue 32 item 3): saving a new_companies saved search, the one command behind the
// /companies form and POST /api/v1/saved-searches with kind new_companies. Both parse their input with
// WatchNewCompaniesSchema (app/domain/saved-search-commands.ts); the rules live here once.
import type { SessionUser } from '#app/.server/auth.ts'
import type { JsonObject } from '#app/.server/db.ts'
import { registryPlaceCriteria } from '#app/.server/registry/place.ts'
import { optionsFromValues, selectedTypes } from '#app/domain/enrichment.ts'
import type { PlanId } from '#app/domain/plans.ts'
import type { WatchNewCompanies } from '#app/domain/saved-search-commands.ts'
import { savedFilters } from '#app/domain/saved-searches.ts'
import { createSavedSearch } from './store.ts'

export type SaveWatchResult =
  | { ok: true; id: string }
  | { ok: false; reason: 'location'; messageKey: string }
  | { ok: false; reason: 'saved_search_limit'; limit: number; plan: PlanId }

/**
 * Saves the watch with its schedule. Its place is kept as names too (criteria), so the lists show it as any saved
 * search's; the registry data is always delivered (free, as every registry-first export's), the other enrichments
 * for the establishments found on the map.
 */
export async function saveWatch(user: SessionUser, input: WatchNewCompanies, { lang, now = new Date() }: { lang: 'fr' | 'en'; now?: Date }): Promise<SaveWatchResult> {
  const place = registryPlaceCriteria(input.filters.place)
  if (!place) return { ok: false, reason: 'location', messageKey: 'companies.errors.unknownPlace' }
  const { location } = place
  const created = await createSavedSearch(user, {
    name: input.name,
    criteria: { sector: '', country: location.country ?? 'France', countryCode: 'FR', region: location.region ?? '', department: location.department ?? '', city: location.city ?? '' },
    // The risk shield's defaults (on), as any saved search's.
    filters: savedFilters({}),
    enrichments: selectedTypes(optionsFromValues([...input.options, 'admin_fr_info'], { france: true })),
    preset: input.preset,
    maxLeads: input.maxLeads ?? null,
    lang,
    timeZone: input.timeZone,
    watch: {
      // Without a creation window (WatchNewCompaniesSchema drops it): each run sets its own.
      registryFilters: JSON.parse(JSON.stringify(input.filters)) as JsonObject,
      schedule: {
        kind: input.scheduleKind,
        weekday: input.scheduleKind === 'weekly' ? (input.weekday ?? null) : null,
        day: input.scheduleKind === 'monthly' ? (input.day ?? null) : null,
        hour: input.hour,
        timeZone: input.timeZone,
      },
      now,
    },
  })
  if (!created.ok) return { ok: false, reason: 'saved_search_limit', limit: created.limit, plan: created.plan }
  return { ok: true, id: created.id }
}
