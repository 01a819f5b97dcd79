/**
 * Uploaded lists are kept while they may still be launched: a list no export took is removed (with its rows) after
 * LIST_RETENTION_DAYS. A launched list stays as long as its export (its rows feed a resumed search; the export's
 * leads keep their own cells), and goes with it (exports.list_id, lists.export_id: on delete set null, then this sweep).
 */
import type { Kysely } from 'kysely'
import { sql } from 'kysely'
import type { PgBoss } from 'pg-boss'
import { adminDb, type Database } from '#app/.server/db.ts'

/** Days an uploaded list waits for its launch. */
const LIST_RETENTION_DAYS = 30
const LIST_RETENTION_QUEUE = 'list-retention'
/** Once a day, at a quiet hour. */
const LIST_RETENTION_CRON = '17 3 * * *'

/** Removes the lists older than `days` that no export holds; how many. */
export async function deleteStaleLists(db: Kysely<Database> = adminDb(), days = LIST_RETENTION_DAYS): Promise<number> {
  const deleted = await db
    .deleteFrom('lists')
    .where('created_at', '<', sql<Date>`now() - make_interval(days => ${days})`)
    .where((eb) => eb.or([eb('export_id', 'is', null), eb.not(eb.exists(eb.selectFrom('exports').select('exports.id').whereRef('exports.id', '=', 'lists.export_id')))]))
    .executeTakeFirst()
  return Number(deleted.numDeletedRows)
}

export async function registerListJobs(boss: PgBoss, { log = () => {} }: { log?: (message: string) => void } = {}): Promise<void> {
  await boss.createQueue(LIST_RETENTION_QUEUE, { retryLimit: 0, expireInSeconds: 10 * 60 })
  await boss.work(LIST_RETENTION_QUEUE, async () => {
    const deleted = await deleteStaleLists()
    if (deleted) log(`lists: ${deleted} uploaded lists past ${LIST_RETENTION_DAYS} days removed`)
  })
  await boss.schedule(LIST_RETENTION_QUEUE, LIST_RETENTION_CRON, null, { tz: 'UTC' })
}
