// Scheduled runs of saved searches. pg-boss fires the check every minute (one schedule per name, kept in the
// database: it survives restarts, and only one instance sends each minute's job); the check claims each due saved
// search with `for update skip locked` and advances its next_run_at in the same transaction as it creates the run's
// export. So whatever the number of workers, and across restarts, one date of one saved search runs once.
import type { PgBoss } from 'pg-boss'
import type { SessionUser } from '#app/.server/auth.ts'
import { adminDb, withUser } from '#app/.server/db.ts'
import { withinBudget } from '#app/.server/rate-limit.ts'
import { memberSession } from '#app/.server/workspaces/current.ts'
import { nextRunAfter } from '#app/domain/saved-searches.ts'
import { runLockedSavedSearch } from './run.ts'
import { scheduleOf } from './view.ts'

export const SAVED_SEARCH_QUEUE = 'saved-searches.run-due'
/** Every minute (UTC): a run starts within a minute of its hour. */
const SAVED_SEARCH_CRON = '* * * * *'

/** What time it is: injectable, so tests run "next week" without waiting. */
export type Clock = () => Date

export interface DueSummary {
  /** Saved searches whose run date had come. */
  due: number
  /** Runs this call made (an export, or a refusal recorded and told). */
  ran: number
  /** Runs put off because their owner is over the export-creation limit (they run once it allows). */
  postponed: number
}

/**
 * Who the run acts as: the member who saved it while they belong to the workspace, else its owner — with their role
 * now, so row-level security, the role rules and the credit functions see the same person as a form would.
 */
async function actorOf(workspaceId: string, createdBy: string | null): Promise<SessionUser | null> {
  const author = createdBy ? await memberSession(createdBy, workspaceId) : null
  if (author) return author
  const owner = await adminDb().selectFrom('workspace_members').select('user_id').where('workspace_id', '=', workspaceId).where('role', '=', 'owner').executeTakeFirst()
  return owner ? memberSession(owner.user_id, workspaceId) : null
}

/** Claims one due saved search of its workspace and runs it; false when another worker has it or it is no longer due. */
async function runIfDue(id: string, workspaceId: string, createdBy: string | null, now: Date): Promise<boolean> {
  const user = await actorOf(workspaceId, createdBy)
  if (!user) return false
  return withUser(user.claims, async (trx) => {
    const row = await trx
      .selectFrom('saved_searches')
      .select(['id', 'next_run_at', 'schedule_kind', 'schedule_weekday', 'schedule_day', 'schedule_hour', 'time_zone'])
      .where('id', '=', id)
      .where('paused', '=', false)
      .where('next_run_at', '<=', now)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst()
    if (!row?.next_run_at) return false
    // The date this run stands for names its export: were the row ever claimed twice for it, the key would replay.
    const idempotencyKey = `schedule:${row.id}:${row.next_run_at.toISOString()}`
    // Counted from now, not from the missed date: a worker down for weeks runs once, not once per missed week.
    const nextRunAt = nextRunAfter(scheduleOf(row), now)
    await runLockedSavedSearch(trx, user, row.id, { idempotencyKey, now, nextRunAt })
    return true
  })
}

export async function runDueSavedSearches(now: Date = new Date(), { log = () => {} }: { log?: (message: string) => void } = {}): Promise<DueSummary> {
  const due = await adminDb()
    .selectFrom('saved_searches')
    .select(['id', 'user_id', 'created_by'])
    .where('paused', '=', false)
    .where('next_run_at', '<=', now)
    .orderBy('next_run_at')
    .limit(500)
    .execute()
  let ran = 0
  let postponed = 0
  for (const { id, user_id: workspaceId, created_by: createdBy } of due) {
    try {
      // A scheduled run creates an export like the form does: it counts against the same per-user limit, so 60 saved
      // searches due at once start at the limit's pace, not all together. Counted before the row is claimed (the
      // limiter has its own connection: none is taken while a row lock is held), and given back if nothing ran.
      const run = await withinBudget('exportCreate', createdBy ?? workspaceId, () => runIfDue(id, workspaceId, createdBy, now), { made: (didRun) => didRun })
      if (run.refused) {
        if ('retryAfterSeconds' in run.refused) {
          await postpone(id, now, run.refused.retryAfterSeconds)
          postponed += 1
          log(`saved search ${id}: over its owner's export limit, put off ${run.refused.retryAfterSeconds} s`)
        }
        // Counters unreadable: still due, tried on the next tick.
        continue
      }
      if (run.result) ran += 1
    } catch (error) {
      // One failing saved search must not stop the others; it is still due and is tried on the next tick.
      log(`saved search ${id}: run failed: ${(error as Error).message}`)
    }
  }
  return { due: due.length, ran, postponed }
}

/** Moves a due run to when its owner's limit allows it (unless another worker has just run it). */
async function postpone(id: string, now: Date, seconds: number): Promise<void> {
  await adminDb()
    .updateTable('saved_searches')
    .set({ next_run_at: new Date(now.getTime() + seconds * 1000) })
    .where('id', '=', id)
    .where('paused', '=', false)
    .where('next_run_at', '<=', now)
    .execute()
}

/** The queue, its consumer and its schedule on a started pg-boss (each process may call it: one schedule per name). */
export async function registerSavedSearchJobs(boss: PgBoss, { log = () => {}, clock = () => new Date() }: { log?: (message: string) => void; clock?: Clock } = {}): Promise<void> {
  // Overlapping ticks (a slow one, several workers) are safe: each saved search is claimed with skip locked.
  await boss.createQueue(SAVED_SEARCH_QUEUE, { retryLimit: 0, expireInSeconds: 10 * 60 })
  await boss.work(SAVED_SEARCH_QUEUE, async () => {
    const summary = await runDueSavedSearches(clock(), { log })
    if (summary.due) log(`Saved searches: ${summary.ran} run, ${summary.postponed} put off (export limit), ${summary.due} due`)
    return summary
  })
  await boss.schedule(SAVED_SEARCH_QUEUE, SAVED_SEARCH_CRON, null, { tz: 'UTC' })
}
