/**
 * The push jobs (pg-boss, queue `crm-push`, policy `exclusive` keyed by the push: one queued-or-running job per
 * push however often it is sent). A push is a row first (crm_pushes, status queued): the command sends its job right
 * after; a saved search's run gets its rows from a trigger, and a sweep every minute sends a job for every queued or
 * stalled push, so a job lost between the row and pg-boss (a crash) is only late, never dropped. The same schedule
 * reads the opt-outs back from the CRMs that report them.
 */
import type { PgBoss } from 'pg-boss'
import { adminDb } from '#app/.server/db.ts'
import { env } from '#app/.server/env.server.ts'
import { getExportQueueBoss } from '#app/.server/exports/queue.ts'
import { syncAllOptOuts } from './opt-outs.ts'
import { runCrmPush } from './push-run.ts'

const CRM_PUSH_QUEUE = 'crm-push'
const CRM_SWEEP_QUEUE = 'crm-sweep'
const SWEEP_CRON = '* * * * *'
/** A running push whose job has not written for this long lost its worker: sent again. */
const STALLED_MINUTES = 5
/** Attempts of a push job: a CRM outage (5xx, 429 past our wait) is retried with backoff for about an hour. */
const PUSH_RETRY_LIMIT = 8

interface PushJob {
  pushId: string
}

async function ensureQueues(boss: PgBoss): Promise<void> {
  await boss.createQueue(CRM_PUSH_QUEUE, { policy: 'exclusive', retryLimit: PUSH_RETRY_LIMIT, retryDelay: 30, retryBackoff: true, expireInSeconds: 60 * 60 })
  await boss.createQueue(CRM_SWEEP_QUEUE, { retryLimit: 0, expireInSeconds: 10 * 60 })
}

/** Sends the push's job (a no-op while one is queued or running). */
export async function enqueuePush(pushId: string, boss?: PgBoss): Promise<void> {
  const sender = boss ?? (await getExportQueueBoss())
  await ensureQueues(sender)
  await sender.send(CRM_PUSH_QUEUE, { pushId } satisfies PushJob, { singletonKey: pushId })
}

/** Sends a job for every push still queued (a new one, or one that waited for its connection), or running without a heartbeat for STALLED_MINUTES. */
export async function sweepPushes(boss: PgBoss): Promise<number> {
  const rows = await adminDb()
    .selectFrom('crm_pushes')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('status', '=', 'queued'),
        eb.and([eb('status', '=', 'running'), eb('heartbeat_at', '<', new Date(Date.now() - STALLED_MINUTES * 60_000))]),
      ]),
    )
    .orderBy('created_at')
    .limit(500)
    .execute()
  for (const row of rows) await enqueuePush(row.id, boss)
  return rows.length
}

export interface CrmJobsOptions {
  log?: (message: string) => void
  /** Pushes run at once by this process (default CRM_PUSH_CONCURRENCY). */
  concurrency?: number
}

/** Registers the push worker, the sweep and its schedule on a started pg-boss instance (every process may call it). */
export async function registerCrmJobs(boss: PgBoss, { log = () => {}, concurrency = env.CRM_PUSH_CONCURRENCY }: CrmJobsOptions = {}): Promise<void> {
  await ensureQueues(boss)
  await boss.work<PushJob>(CRM_PUSH_QUEUE, { localConcurrency: concurrency, includeMetadata: true, pollingIntervalSeconds: 1 }, async ([job]) => {
    if (!job) return
    const finalAttempt = job.retryCount >= PUSH_RETRY_LIMIT
    const result = await runCrmPush(job.data.pushId, { finalAttempt, log })
    if (result.retry) throw new Error(`push ${job.data.pushId}: ${result.retry}`)
    // The team's next push waited for this one: its turn now, not at the next sweep.
    if (result.next) await enqueuePush(result.next, boss)
    return result
  })
  await boss.work(CRM_SWEEP_QUEUE, async () => {
    const swept = await sweepPushes(boss)
    const optOuts = await syncAllOptOuts({ log })
    if (swept || optOuts) log(`CRM: ${swept} pushes sent, ${optOuts} opt-outs read back`)
  })
  await boss.schedule(CRM_SWEEP_QUEUE, SWEEP_CRON, null, { tz: 'UTC' })
}
