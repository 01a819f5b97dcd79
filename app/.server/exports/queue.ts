/**
 * The export job queue (pg-boss 12, schema `pgboss` in the app database).
 *
 *   export-run   one job per run of an export (create, resume, add enrichment). Policy `stately` keyed by the
 *                export id: at most one queued and one active job per export, so a second worker never picks up
 *                an export another one is running, while a resume sent just as the previous run ends still queues.
 *                Grouped by user (`group.id`) and prioritised round-robin between users (fairPriority), so one
 *                user's batch cannot keep another user's export waiting (see worker.ts: "Fairness").
 *                Heartbeat: a worker that dies (killed, OOM) loses its claim after `heartbeatSeconds` and the job
 *                is retried elsewhere; the state lives in the database, so the retry picks up the pending tasks.
 *                The run does the search phase, then hands the enrichment to batch jobs (batches.ts).
 *   export-run-batch one job per EXPORT_BATCH_SIZE positions of an export's leads with a task pending: any worker
 *                takes any batch, so one big export uses every worker. Same policy and grouping as export-run,
 *                keyed `${exportId}:${batchNo}` (one queued and one active per batch); its priority continues the
 *                user's round-robin line, so two users' batches interleave.
 *   export-run-dead  dead letters: a run or batch that failed on every retry marks its export failed (resumable).
 *
 * Jobs are sent inside the caller's transaction (`db` option): the export row and its job commit together.
 */
import { PgBoss, type Db as PgBossDb, type Queue } from 'pg-boss'
import { validateEnv, type Env } from '#app/.server/env.server.ts'
import { batchNumber } from '#app/domain/export-batches.ts'

export type { PgBossDb }

/**
 * Queue names. EXPORT_QUEUE (env) renames them, e.g. so one test file's worker consumes only its own jobs on a
 * database shared with other test files; every process of one deployment must agree on it.
 */
export function exportQueueNames(config: Env = validateEnv()): { run: string; batch: string; dead: string } {
  const run = config.EXPORT_QUEUE
  return { run, batch: `${run}-batch`, dead: `${run}-dead` }
}
export const PGBOSS_SCHEMA = 'pgboss'

export interface ExportJobData {
  exportId: string
  userId: string
}

/** A batch: the export's leads at positions [from, to). */
export interface ExportBatchData extends ExportJobData {
  from: number
  to: number
}

function exportQueueOptions(config: Env): Omit<Queue, 'name'> {
  return {
    policy: 'stately',
    retryLimit: config.EXPORT_RETRY_LIMIT,
    // 2-4 s after a first failure (a dead worker, a shutdown), doubling up to 2 minutes.
    retryDelay: 2,
    retryBackoff: true,
    retryDelayMax: 120,
    // A long export on slow real websites can take a while; the heartbeat (not this) detects dead workers.
    expireInSeconds: 6 * 60 * 60,
    heartbeatSeconds: config.EXPORT_HEARTBEAT_SECONDS,
    deadLetter: exportQueueNames(config).dead,
    // Workers poll (every second) instead of LISTEN/NOTIFY: pg-boss 12.35 drops its LISTEN connection's error
    // listener before closing it, so a database that goes away during shutdown crashed the process; polling also
    // works through any pooler.
    notify: false,
  }
}

/**
 * Idempotent: pg-boss's create_queue does nothing for an existing queue, so the mutable options (retries, expiry,
 * heartbeat) are then brought up to date; the policy is fixed at creation.
 */
export async function ensureExportQueues(boss: PgBoss, config: Env = validateEnv()): Promise<void> {
  const names = exportQueueNames(config)
  await boss.createQueue(names.dead, { policy: 'standard', retryLimit: 3 })
  const { policy: _policy, ...mutable } = exportQueueOptions(config)
  for (const name of [names.run, names.batch]) {
    await boss.createQueue(name, exportQueueOptions(config))
    await boss.updateQueue(name, mutable)
  }
}

// ---------------------------------------------------------------------------
// The process's pg-boss instance used to send jobs.
// The in-process worker (server/worker-slot.ts) registers its own started instance; a web-only process
// lazily starts a send-only one (no supervision, no schedules, no workers).

let shared: PgBoss | undefined
let starting: Promise<PgBoss> | undefined
/** Instances this module started itself (and so stops in closeExportQueue). */
const ownedSender = new WeakSet<PgBoss>()

export function setExportQueueBoss(boss: PgBoss | undefined): void {
  const previous = shared
  shared = boss
  starting = undefined
  // A send-only instance this module started is replaced: close it (its pool would otherwise linger).
  if (previous && previous !== boss && ownedSender.has(previous)) {
    ownedSender.delete(previous)
    void previous.stop({ graceful: false, close: true }).catch(() => {})
  }
}

export function createBoss(options: { connectionString?: string; worker: boolean; max?: number; config?: Env }): PgBoss {
  const config = options.config ?? validateEnv()
  const connectionString = options.connectionString ?? config.DATABASE_URL
  if (!connectionString) throw new Error('DATABASE_URL is not set: the export queue lives in the app database.')
  const boss = new PgBoss({
    connectionString,
    schema: PGBOSS_SCHEMA,
    application_name: options.worker ? 'leadatlas-worker' : 'leadatlas-queue',
    max: options.max ?? (options.worker ? 6 : 3),
    supervise: options.worker,
    schedule: options.worker,
    migrate: true,
    useListenNotify: false,
    // Supervision fails the jobs of dead workers (heartbeat lapsed) so they are retried: every PGBOSS_SUPERVISE_SECONDS.
    // The queue cache holds the stately policy's "export already running" keys: refreshed every
    // PGBOSS_QUEUE_CACHE_SECONDS (pg-boss's default is 60 s) so a retried or resumed run is not held back for a
    // minute by a stale entry.
    ...(options.worker
      ? {
          superviseIntervalSeconds: config.PGBOSS_SUPERVISE_SECONDS,
          monitorIntervalSeconds: config.PGBOSS_SUPERVISE_SECONDS,
          queueCacheIntervalSeconds: config.PGBOSS_QUEUE_CACHE_SECONDS,
        }
      : {}),
  })
  boss.on('error', (error) => console.error('[queue] pg-boss error:', error.message))
  return boss
}

export async function getExportQueueBoss(): Promise<PgBoss> {
  if (shared) return shared
  starting ??= (async () => {
    const boss = createBoss({ worker: false })
    try {
      await boss.start()
      await ensureExportQueues(boss)
    } catch (error) {
      starting = undefined
      await boss.stop({ graceful: false }).catch(() => {})
      throw error
    }
    ownedSender.add(boss)
    shared = boss
    return boss
  })()
  return starting
}

/**
 * Queues a run of the export inside the caller's transaction (`db`): the job exists if and only if the
 * transaction commits. Returns the job id, or null when a run of this export is already queued (stately).
 */
export async function enqueueExport(db: PgBossDb, job: ExportJobData, boss?: PgBoss): Promise<string | null> {
  const sender = boss ?? (await getExportQueueBoss())
  const queue = exportQueueNames().run
  const priority = await fairPriority(db, queue, job.userId)
  return sender.send(queue, job, { db, singletonKey: job.exportId, group: { id: job.userId }, priority })
}

/**
 * Queues an export's batches (batches.ts). Their priorities continue the user's line (fairPriority) one step per
 * batch, so another user's first batch goes right after this user's first one, not after all of them. Stately:
 * a batch already queued (a run retried after it had planned) is not queued twice.
 */
export async function enqueueBatches(boss: PgBoss, batches: ExportBatchData[], config: Env = validateEnv()): Promise<void> {
  const first = batches[0]
  if (!first) return
  const queue = exportQueueNames(config).batch
  const base = await fairPriority(boss.getDb(), queue, first.userId)
  await boss.insert(
    queue,
    batches.map((batch, index) => ({
      data: batch,
      singletonKey: `${batch.exportId}:${batchNumber(batch)}`,
      group: { id: batch.userId },
      priority: Math.max(-1_000, base - index),
    })),
  )
}

/**
 * Round-robin between users: pg-boss takes the highest priority first (then the oldest), and a job's priority is
 * minus the runs its user already has queued or running when it is sent. A user's first export (0) goes before
 * another user's third (-2) however long that one has waited, while one user's own exports keep their order.
 * It only orders the queue: a user alone still gets every free slot. See worker.ts for the rest of the fairness.
 */
async function fairPriority(db: PgBossDb, queue: string, userId: string): Promise<number> {
  const { rows } = await db.executeSql(
    `select count(*)::int as n from ${PGBOSS_SCHEMA}.job where name = $1 and group_id = $2 and state in ('created', 'retry', 'active')`,
    [queue, userId],
  )
  return 0 - Math.min(1_000, Number((rows[0] as { n?: number } | undefined)?.n ?? 0))
}

/** The queued / running jobs (run and batches) of an export, by queue. */
export async function liveExportJobs(db: PgBossDb, exportId: string, config: Env = validateEnv()): Promise<Array<{ id: string; name: string }>> {
  const names = exportQueueNames(config)
  const { rows } = await db.executeSql(
    `select id, name from ${PGBOSS_SCHEMA}.job
      where name = any($1::text[]) and data->>'exportId' = $2 and state in ('created', 'retry', 'active')`,
    [[names.run, names.batch], exportId],
  )
  return rows as Array<{ id: string; name: string }>
}

/** Cancels the queued / running jobs of an export, its batches included (delete). `db`: run inside the caller's transaction. */
export async function cancelExportJobs(exportId: string, options: { db?: PgBossDb; boss?: PgBoss } = {}): Promise<number> {
  const sender = options.boss ?? (await getExportQueueBoss())
  const live = await liveExportJobs(options.db ?? sender.getDb(), exportId)
  for (const name of new Set(live.map((job) => job.name))) {
    await sender.cancel(name, live.filter((job) => job.name === name).map((job) => job.id), { db: options.db })
  }
  return live.length
}
