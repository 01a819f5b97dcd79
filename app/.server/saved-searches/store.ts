// Saved searches as their owner reads and changes them: every query runs as the user (withUser), so row-level
// security decides what exists and another user's id is simply not found.
import { sql, type Transaction } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import { withUser, type Database, type JsonObject } from '#app/.server/db.ts'
import { readPlan } from '#app/.server/credits.ts'
import { isUuid } from '#app/domain/ids.ts'
import { canSaveAnotherSearch, SAVED_SEARCH_LIMITS, type PlanId } from '#app/domain/plans.ts'
import type { SearchFilters } from '#app/domain/search-filters.ts'
import type { SearchCriteria } from '#app/domain/search.ts'
import { DEFAULT_TIME_ZONE, nextRunAfter, type SavedSearch, type Schedule } from '#app/domain/saved-searches.ts'
import type { UpdateSavedSearch } from '#app/domain/saved-search-commands.ts'
import { scheduleOf, toSavedSearch, SAVED_SEARCH_COLUMNS } from './view.ts'
import { requirePermission } from '#app/.server/workspaces/roles.ts'

export interface NewSavedSearch {
  name: string
  criteria: SearchCriteria
  filters: SearchFilters
  enrichments: string[]
  preset: string
  maxLeads: number | null
  lang: 'fr' | 'en'
  timeZone?: string
  /** A new-companies watch (its registry filters), saved with its schedule; default a map search, scheduled later. */
  watch?: { registryFilters: JsonObject; schedule: Schedule; now?: Date }
}

function selectSaved(trx: Transaction<Database>) {
  return trx.selectFrom('saved_searches as s').leftJoin('exports as e', 'e.id', 's.last_export_id').select(SAVED_SEARCH_COLUMNS)
}

/** Saved, or refused: the user keeps as many saved searches as their plan allows (SAVED_SEARCH_LIMITS). */
export type CreateSavedSearchResult = { ok: true; id: string } | { ok: false; code: 'saved_search_limit'; limit: number; plan: PlanId }

/**
 * Saves the search, within the plan's cap. The count and the insert are serialized per user (a transaction-scoped
 * advisory lock on the user), so a burst of parallel saves cannot pass the cap together; the plan is read in the same
 * transaction (a failed read throws: a 503, never the free trial's cap).
 */
export async function createSavedSearch(user: SessionUser, input: NewSavedSearch): Promise<CreateSavedSearchResult> {
  requirePermission(user, 'export')
  const { sector, country, countryCode, region, department, city } = input.criteria
  return withUser(user.claims, async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`saved_searches:${user.workspace.id}`}, 0))`.execute(trx)
    const plan = await readPlan(trx, user.workspace.id)
    const { count } = await trx.selectFrom('saved_searches').select((eb) => eb.fn.countAll<number>().as('count')).where('user_id', '=', user.workspace.id).executeTakeFirstOrThrow()
    if (!canSaveAnotherSearch(plan, Number(count))) return { ok: false as const, code: 'saved_search_limit' as const, limit: SAVED_SEARCH_LIMITS[plan], plan }
    const row = await trx
      .insertInto('saved_searches')
      .values({
        user_id: user.workspace.id,
        name: input.name,
        criteria: { sector, country, ...(countryCode ? { countryCode } : {}), region, department, city },
        filters: { ...input.filters },
        enrichments: input.enrichments,
        preset: input.preset,
        max_leads: input.maxLeads,
        lang: input.lang,
        time_zone: input.timeZone ?? DEFAULT_TIME_ZONE,
        ...(input.watch && {
          kind: 'new_companies',
          registry_filters: input.watch.registryFilters,
          schedule_kind: input.watch.schedule.kind,
          schedule_weekday: input.watch.schedule.weekday,
          schedule_day: input.watch.schedule.day,
          schedule_hour: input.watch.schedule.hour,
          time_zone: input.watch.schedule.timeZone,
          next_run_at: nextRunAfter(input.watch.schedule, input.watch.now ?? new Date()),
        }),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return { ok: true as const, id: row.id }
  })
}

/** A page of the user's saved searches, newest first, after the (created_at, id) of the previous page's last. */
export async function listSavedSearches(user: SessionUser, { limit = 100, after, member }: { limit?: number; after?: readonly [string, string] | null; member?: string } = {}): Promise<SavedSearch[]> {
  const rows = await withUser(user.claims, (trx) => {
    let query = selectSaved(trx).where('s.user_id', '=', user.workspace.id)
    if (after) query = query.where(sql<boolean>`(s.created_at, s.id) < (${after[0]}::timestamptz, ${after[1]}::uuid)`)
    if (member) query = query.where('s.created_by', '=', member)
    return query.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(limit).execute()
  })
  return rows.map(toSavedSearch)
}

export async function getSavedSearch(user: SessionUser, id: string): Promise<SavedSearch | null> {
  if (!isUuid(id)) return null
  const row = await withUser(user.claims, (trx) => selectSaved(trx).where('s.id', '=', id).executeTakeFirst())
  return row ? toSavedSearch(row) : null
}

/** The next run of a schedule, from now; none while paused. */
function nextRun(schedule: Schedule, paused: boolean, now: Date): Date | null {
  return paused ? null : nextRunAfter(schedule, now)
}

export async function updateSavedSearch(user: SessionUser, id: string, input: UpdateSavedSearch, { lang, now = new Date() }: { lang: 'fr' | 'en'; now?: Date }): Promise<boolean> {
  requirePermission(user, 'export')
  if (!isUuid(id)) return false
  const schedule: Schedule = {
    kind: input.scheduleKind,
    weekday: input.scheduleKind === 'weekly' ? (input.weekday ?? null) : null,
    day: input.scheduleKind === 'monthly' ? (input.day ?? null) : null,
    hour: input.hour,
    timeZone: input.timeZone,
  }
  return withUser(user.claims, async (trx) => {
    const current = await trx.selectFrom('saved_searches').select('paused').where('id', '=', id).forUpdate().executeTakeFirst()
    if (!current) return false
    // Only the workspace's own connections (RLS): another team's id, or a removed one, is dropped.
    const pushTo = input.pushTo.length
      ? (await trx.selectFrom('crm_connections').select('id').where('user_id', '=', user.workspace.id).where('id', 'in', input.pushTo).execute()).map((row) => row.id)
      : []
    await trx
      .updateTable('saved_searches')
      .set({
        name: input.name,
        enrichments: input.options,
        preset: input.preset,
        max_leads: input.maxLeads ?? null,
        credit_budget: input.creditBudget ?? null,
        push_connection_ids: pushTo,
        lang,
        schedule_kind: schedule.kind,
        schedule_weekday: schedule.weekday,
        schedule_day: schedule.day,
        schedule_hour: schedule.hour,
        time_zone: schedule.timeZone,
        next_run_at: nextRun(schedule, current.paused, now),
        updated_at: now,
      })
      .where('id', '=', id)
      .execute()
    return true
  })
}

/** Pause (no run until resumed) or resume (the next run counted from now, so missed dates are not run at once). */
export async function setPaused(user: SessionUser, id: string, paused: boolean, now = new Date()): Promise<boolean> {
  requirePermission(user, 'export')
  if (!isUuid(id)) return false
  return withUser(user.claims, async (trx) => {
    const row = await trx
      .selectFrom('saved_searches')
      .select(['schedule_kind', 'schedule_weekday', 'schedule_day', 'schedule_hour', 'time_zone'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst()
    if (!row) return false
    const schedule = scheduleOf(row)
    await trx.updateTable('saved_searches').set({ paused, next_run_at: nextRun(schedule, paused, now), updated_at: now }).where('id', '=', id).execute()
    return true
  })
}

export async function deleteSavedSearch(user: SessionUser, id: string): Promise<boolean> {
  requirePermission(user, 'export')
  if (!isUuid(id)) return false
  const result = await withUser(user.claims, (trx) => trx.deleteFrom('saved_searches').where('id', '=', id).executeTakeFirst())
  return result.numDeletedRows > 0n
}
