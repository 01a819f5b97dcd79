// A run of a new-companies watch (issue 32 item 3), inside the saved-search run command (run.ts): the registry filters
// with this run's creation window, and the waiting establishments it looks for on the map again. The export is an
// ordinary registry-first one (createExport): establishments found on the map are enriched and charged as usual,
// those not online are delivered with their registry data, free (search-phase.ts records it without a charge), and
// the trigger of supabase/migrations/20261204100000_new_companies_watch.sql settles the retries when its search ends.
import { sql, type Transaction } from 'kysely'
import type { Database, JsonObject } from '#app/.server/db.ts'
import { retryAttempt, retryDays, watchWindow } from '#app/domain/new-companies-watch.ts'
import { registryFiltersSchema, type RegistryFilters } from '#app/domain/registry-search.ts'
import type { SavedSearch } from '#app/domain/saved-searches.ts'

/** Waiting establishments one run looks for at most (the oldest due first); the others wait for the next run. */
const RETRIES_PER_RUN = 5_000

export interface WatchRun {
  registry: RegistryFilters
  /** search_params.watch: the run's day, its new establishments' retry days, the SIRETs tried again. */
  watch: JsonObject
  /** The waiting establishments this run tries, and whether it is their last chance (D+30). */
  retries: Array<{ siret: string; lastChance: boolean }>
  /** A replayed run (same idempotency key): its export exists, nothing is to be recorded again. */
  replay: boolean
}

/** The run's export's own filters and watch, when this key already made it (the window has moved since). */
async function replayed(trx: Transaction<Database>, saved: SavedSearch, idempotencyKey: string): Promise<WatchRun | null> {
  const row = await trx.selectFrom('exports').select('search_params').where('saved_search_id', '=', saved.id).where('idempotency_key', '=', idempotencyKey).executeTakeFirst()
  const params = row?.search_params as { registry?: unknown; watch?: JsonObject } | null | undefined
  const registry = registryFiltersSchema.safeParse(params?.registry)
  if (!registry.success || !params?.watch) return null
  return { registry: registry.data, watch: params.watch, retries: [], replay: true }
}

/** The waiting establishments due on `runDay` that no live run holds (a failed or deleted run's are due again). */
async function dueRetries(trx: Transaction<Database>, savedSearchId: string, runDay: string) {
  const { rows } = await sql<{ siret: string; due_on: string; final_on: string }>`
    select r.siret, r.due_on::text as due_on, r.final_on::text as final_on
      from public.saved_search_watch_retries r
      left join public.exports e on e.id = r.pending_export_id
     where r.saved_search_id = ${savedSearchId} and r.due_on <= ${runDay}::date
       and (r.pending_export_id is null or e.search_status is distinct from 'pending' and e.search_status is distinct from 'processing')
     order by r.due_on, r.siret
     limit ${RETRIES_PER_RUN}`.execute(trx)
  return rows.flatMap((row) => {
    const attempt = retryAttempt({ dueOn: row.due_on, finalOn: row.final_on }, runDay)
    return attempt === 'not_due' ? [] : [{ siret: row.siret, lastChance: attempt === 'last_chance' }]
  })
}

/** What this run of the watch exports (read as the user, in the run's transaction, before its export is created). */
export async function planWatchRun(trx: Transaction<Database>, saved: SavedSearch, { now, idempotencyKey }: { now: Date; idempotencyKey: string }): Promise<WatchRun> {
  const again = await replayed(trx, saved, idempotencyKey)
  if (again) return again
  const { rows } = await sql<{ cutoff: string | null }>`select watch_cutoff::text as cutoff from public.saved_searches where id = ${saved.id}`.execute(trx)
  const window = watchWindow({ previousCutoff: rows[0]?.cutoff ?? null, now, timeZone: saved.schedule.timeZone, kind: saved.schedule.kind })
  const retries = await dueRetries(trx, saved.id, window.runDay)
  const registry = registryFiltersSchema.parse({ ...saved.registryFilters, createdAfter: window.createdAfter, createdBefore: window.createdBefore })
  const { dueOn, finalOn } = retryDays(window.runDay)
  return { registry, watch: { runDay: window.runDay, dueOn, finalOn, retrySirets: retries.map((retry) => retry.siret) }, retries, replay: false }
}

/** After the export is created (as the service): the run holds its retries until its search ends (the trigger). */
export async function holdRetries(trx: Transaction<Database>, savedSearchId: string, exportId: string, retries: WatchRun['retries']): Promise<void> {
  if (retries.length === 0) return
  const last = retries.filter((retry) => retry.lastChance).map((retry) => retry.siret)
  await sql`
    update public.saved_search_watch_retries
       set pending_export_id = ${exportId}, last_chance = siret = any(${last}::text[])
     where saved_search_id = ${savedSearchId} and siret = any(${retries.map((retry) => retry.siret)}::text[])`.execute(trx)
}
