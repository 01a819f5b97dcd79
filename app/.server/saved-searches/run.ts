// Running a saved search: the one command the "Run now" button, the API and the scheduler share. A run is an export
// (createExport, the command every door uses: plan rules, credits, idempotency, caps) with only new businesses, the
// saved search's options and its id; its per-run credit budget caps the leads, and a refusal is recorded on the saved
// search and told to its owner (saved_search.refused), never dropped silently.
import { sql, type Transaction } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import type { Database } from '#app/.server/db.ts'
import { withUserCommand } from '#app/.server/user-commands.ts'
import { env } from '#app/.server/env.server.ts'
import { createExport, holdsIdempotencyKey } from '#app/.server/exports/service.ts'
import { withinBudget } from '#app/.server/rate-limit.ts'
import { notify } from '#app/.server/notifications/store.ts'
import { isFrance, optionsFromValues, selectedTypes } from '#app/domain/enrichment.ts'
import { EXPORT_NAME_MAX, type ExportErrorCode } from '#app/domain/exports.ts'
import { isUuid } from '#app/domain/ids.ts'
import { leadsWithinBudget, savedFilters } from '#app/domain/saved-searches.ts'
import { SAVED_SEARCH_COLUMNS, toSavedSearch } from './view.ts'
import { holdRetries, planWatchRun } from './watch-run.ts'

/** Why a run did not start: an export command's refusal, or a budget too small for one lead. */
type RunRefusal = ExportErrorCode | 'budget_too_small'

export type RunResult = { ok: true; exportId: string; duplicate: boolean } | { ok: false; code: RunRefusal | 'not_found'; messageKey?: string }

/** Refusals that come from the user's situation (plan, credits, budget, a place that no longer resolves): recorded and told. */
const RECORDED: ReadonlySet<string> = new Set(['plan_restricted', 'insufficient_credits', 'budget_too_small', 'invalid_location', 'no_enrichment', 'no_geography'])

interface RunOptions {
  idempotencyKey: string
  now: Date
  /** The next run date to store with this run (scheduled runs); undefined leaves it as it is. */
  nextRunAt?: Date | null
}

/** The run's export name: the saved search's, with the day it ran (in the user's zone). */
function runName(name: string, now: Date, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now)
  const suffix = ` – ${day}`
  return [...name].slice(0, EXPORT_NAME_MAX - suffix.length).join('') + suffix
}

/**
 * Runs the saved search (locked by the caller in `trx`, which acts as `user`): creates its export, then records the
 * run — or the refusal — and the next run date in the same transaction.
 */
export async function runLockedSavedSearch(trx: Transaction<Database>, user: SessionUser, id: string, options: RunOptions): Promise<RunResult> {
  const row = await trx.selectFrom('saved_searches as s').leftJoin('exports as e', 'e.id', 's.last_export_id').select(SAVED_SEARCH_COLUMNS).where('s.id', '=', id).executeTakeFirst()
  if (!row) return { ok: false, code: 'not_found' }
  const saved = toSavedSearch(row)
  // A new-companies watch exports the registry's establishments of its window (watch-run.ts); France, always.
  const watch = saved.kind === 'new_companies' ? await planWatchRun(trx, saved, { now: options.now, idempotencyKey: options.idempotencyKey }) : null
  const enrichmentOptions = optionsFromValues(saved.enrichments, { france: watch !== null || isFrance(saved.criteria.country, saved.criteria.countryCode) })
  const affordable = leadsWithinBudget(saved.creditBudget, selectedTypes(enrichmentOptions).length, saved.maxLeads)
  const result: RunResult =
    affordable === 0
      ? { ok: false, code: 'budget_too_small' }
      : await createExport({
          user,
          trx,
          name: runName(saved.name, options.now, saved.schedule.timeZone),
          criteria: saved.criteria,
          enrichmentOptions,
          idempotencyKey: options.idempotencyKey,
          lang: saved.lang,
          maxLeads: affordable === null ? null : Math.min(affordable, env.EXPORT_MAX_LEADS),
          filters: savedFilters(saved.filters),
          onlyNew: true,
          savedSearchId: saved.id,
          ...(watch && { registry: watch.registry, watch: watch.watch }),
        })
  // The record and the notification are the service's writes (users do not write notifications); the export, if
  // any, is already written as the user.
  await sql`set local role none`.execute(trx)
  const next = options.nextRunAt === undefined ? {} : { next_run_at: options.nextRunAt }
  const record = trx.updateTable('saved_searches').where('id', '=', saved.id).where('user_id', '=', user.workspace.id)
  if (result.ok) {
    // A replayed key names a run already recorded: only the schedule moves.
    const run = result.duplicate ? {} : { last_run_at: options.now, last_export_id: result.exportId, last_new_count: null, last_credits: null, last_refusal: null }
    // The watch's next run starts after this one's last day.
    const cutoff = watch && !watch.replay && !result.duplicate ? { watch_cutoff: watch.registry.createdBefore ?? null } : {}
    if (Object.keys({ ...run, ...next, ...cutoff }).length) await record.set({ ...run, ...next, ...cutoff }).execute()
    if (watch && !watch.replay && !result.duplicate) await holdRetries(trx, saved.id, result.exportId, watch.retries)
    return result
  }
  if (RECORDED.has(result.code)) {
    await record.set({ last_run_at: options.now, last_export_id: null, last_new_count: null, last_credits: null, last_refusal: result.code, ...next }).execute()
    await notify(trx, user.id, 'saved_search.refused', { savedSearchId: saved.id, name: saved.name, reason: result.code })
  } else if (options.nextRunAt !== undefined) {
    await record.set(next).execute()
  }
  return result
}

/** "Run now" (the list's button and POST /api/v1/saved-searches/{id}/runs): waits for a run in progress on the same row. */
export async function runSavedSearch({ user, id, idempotencyKey, now = new Date() }: { user: SessionUser; id: string; idempotencyKey: string; now?: Date }): Promise<RunResult> {
  if (!isUuid(id)) return { ok: false, code: 'not_found' }
  return withUserCommand(user, async (trx) => {
    const locked = await trx.selectFrom('saved_searches').select('id').where('id', '=', id).forUpdate().executeTakeFirst()
    if (!locked) return { ok: false as const, code: 'not_found' as const }
    return runLockedSavedSearch(trx, user, id, { idempotencyKey, now })
  })
}

/** "Run now" within the owner's export-creation budget, like every door that creates an export (createExportWithinBudget). */
export async function runSavedSearchWithinBudget(args: { user: SessionUser; id: string; idempotencyKey: string }) {
  return withinBudget('exportCreate', args.user.id, () => runSavedSearch(args), {
    replay: await holdsIdempotencyKey(args.user, args.idempotencyKey),
    made: (result) => result.ok && !result.duplicate,
  })
}
