/**
 * The worker: pg-boss on DATABASE_URL (schema `pgboss`, created on first start) with the export consumers, the
 * notification emails (app/.server/notifications/mailer.ts) and any extra registrations (billing adds its scheduled
 * credit reload, webhooks their deliveries). Runs in-process under `npm start`, and as its own
 * process with `npm run worker` (server/worker.ts) to scale out: every worker is an independent consumer of the
 * same queue, and all export state lives in the database.
 *
 *   IN_PROCESS_WORKER=false   `npm start` queues jobs but runs none (run `npm run worker` processes instead)
 *   EXPORT_WORKER_JOBS        export searches run at once by one worker; × ⌈EXPORT_CONCURRENCY / EXPORT_BATCH_SIZE⌉:
 *                             its enrichment batches at once (the leads in flight stay WORKER_JOBS × CONCURRENCY)
 *   EXPORT_BATCH_SIZE         lead positions per batch job: one export's batches spread over every worker
 *   WORKER_SHUTDOWN_GRACE_SECONDS  `npm run worker` on SIGTERM: seconds its in-flight leads get to finish
 *   EXPORT_USER_CONCURRENCY   optional hard cap on one user's exports running at once across all workers (0: none)
 *   EXPORT_FAIR_WAIT_SECONDS  another user's export waits at most about this long before a busy user's newest run
 *                             yields its slot (0 = never preempt). Fairness: app/.server/exports/worker.ts
 *   EXPORT_CONCURRENCY        leads enriched at once within one export
 *   EXPORT_MAX_LEADS          lead cap per export
 * Types and defaults: app/.server/env-schema.server.ts.
 */
import type { PgBoss } from 'pg-boss'
import { getPool } from '#app/.server/db.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import { createBoss, ensureExportQueues, setExportQueueBoss } from '#app/.server/exports/queue.ts'
import { registerExportWorker, type ExportWorker } from '#app/.server/exports/worker.ts'
import { validateEnv, type Env } from '#app/.server/env.server.ts'
import { startNotificationEmails } from '#app/.server/notifications/mailer.ts'

export interface StartWorkerOptions {
  log: (message: string) => void
  /** Extra consumers / schedules on the same pg-boss instance (billing's credit reload, webhook deliveries...); a
   * registration may return its stop, run before pg-boss stops. */
  registrations?: Array<(boss: PgBoss) => Promise<void | (() => Promise<void>)>>
  /** Default: the real enrichment engine configured from the environment. */
  enrichers?: Enrichers
  databaseUrl?: string
  /** false: start pg-boss (queueing, registrations) but consume no export jobs. Default: IN_PROCESS_WORKER. */
  consumeExports?: boolean
  /** The configuration the worker is set up from (default: validateEnv() at start). */
  config?: Env
}

export interface RunningWorker {
  boss: PgBoss
  /**
   * Stops taking jobs; running batches record their leads in flight for `graceMs` at most (default 0: abort at
   * once), then the rest is aborted and queued again for another worker (recorded work stays); closes.
   */
  stop: (options?: { graceMs?: number }) => Promise<void>
}

export async function startWorker(options: StartWorkerOptions): Promise<RunningWorker> {
  const { log } = options
  const config = options.config ?? validateEnv()
  const consume = options.consumeExports ?? config.IN_PROCESS_WORKER
  guardCheckedOutClients(config)
  const boss = createBoss({ worker: true, connectionString: options.databaseUrl, config })
  await boss.start()
  await ensureExportQueues(boss, config)
  // This process sends its export jobs through the same instance.
  setExportQueueBoss(boss)
  let exports: ExportWorker | null = null
  const stops: Array<() => Promise<void>> = []
  const stopRegistrations = () => Promise.all(stops.map((stop) => stop().catch((error) => log(`worker stop: ${(error as Error).message}`))))
  try {
    if (consume) {
      exports = await registerExportWorker(boss, { enrichers: options.enrichers ?? (() => createDefaultEnrichers(config)), log, config })
    }
    for (const register of options.registrations ?? []) {
      const stop = await register(boss)
      if (stop) stops.push(stop)
    }
    // The processes that run exports also email their notifications (one mailer per worker; rows are claimed).
    const emails = consume ? await startNotificationEmails({ config, log }) : null
    if (emails) stops.push(emails.stop)
  } catch (error) {
    await stopRegistrations()
    await exports?.stop().catch(() => {})
    setExportQueueBoss(undefined)
    await boss.stop({ graceful: false }).catch(() => {})
    throw error
  }
  log(consume ? 'Worker started (export jobs)' : 'Worker started (queue only: IN_PROCESS_WORKER=false)')

  let stopped: Promise<void> | null = null
  return {
    boss,
    stop: (stopOptions) =>
      (stopped ??= (async () => {
        await stopRegistrations()
        await exports?.stop(stopOptions).catch((error) => log(`worker stop: ${(error as Error).message}`))
        setExportQueueBoss(undefined)
        await boss.stop({ graceful: true, timeout: 15_000 }).catch((error) => log(`pg-boss stop: ${(error as Error).message}`))
        log('Worker stopped')
      })()),
  }
}

const guarded = new WeakSet<object>()

/**
 * pg-pool removes its idle-error listener from a client while it is checked out (inside a transaction), so a
 * connection that Postgres drops then (restart, shutdown) emits 'error' with no listener, which ends the process.
 * A permanent listener per connection prevents that; the statement in flight still fails with its own error (and
 * the export run is retried), and idle clients are still reported by the pool's own listener.
 */
function guardCheckedOutClients(config: Env) {
  if (!config.DATABASE_URL) return
  const pool = getPool()
  if (guarded.has(pool)) return
  guarded.add(pool)
  pool.on('connect', (client) => {
    client.on('error', () => {})
  })
}
