/**
 * pg-boss consumers of the export queues (see queue.ts): run jobs (search, then planning the batches) and batch
 * jobs (enrichment of a position range, batches.ts). Used by the in-process worker slot (`npm start`) and by the
 * standalone `npm run worker` process; both go through server/worker-slot.ts.
 */
import type { PgBoss, JobWithMetadata } from 'pg-boss'
import { adminDb } from '#app/.server/db.ts'
import { runExport, runExportBatch } from './batches.ts'
import type { Enrichers } from './enrichers.ts'
import type { ProcessOptions, ProcessResult } from './processor.ts'
import { enqueueBatches, ensureExportQueues, exportQueueNames, liveExportJobs, PGBOSS_SCHEMA, type ExportBatchData, type ExportJobData } from './queue.ts'
import { validateEnv, type Env } from '#app/.server/env.server.ts'
import { batchSlots } from '#app/domain/export-batches.ts'
import { onBehalfOf } from '#app/.server/limits/account.ts'

export interface ExportWorkerOptions {
  /** The enrichment engine (or a factory called once at registration). */
  enrichers: Enrichers | (() => Enrichers | Promise<Enrichers>)
  log?: (message: string) => void
  /** The configuration the defaults below and the queues come from (default: validateEnv() at registration). */
  config?: Env
  /** Batches run at once by this process (default: EXPORT_WORKER_JOBS × ⌈EXPORT_CONCURRENCY / EXPORT_BATCH_SIZE⌉, see below). */
  localConcurrency?: number
  /** Lead positions per batch job (default EXPORT_BATCH_SIZE). */
  batchSize?: number
  /** Hard cap on one user's exports running at once across all workers (default EXPORT_USER_CONCURRENCY; 0: none). */
  userConcurrency?: number
  /**
   * Seconds another user's export may wait for a slot before the busiest user's newest run yields its slot
   * (default EXPORT_FAIR_WAIT_SECONDS; 0: never preempt). See "Fairness" below.
   */
  fairWaitSeconds?: number
  /** Seconds between polls for new export jobs (default 1). */
  pollingIntervalSeconds?: number
  /** Passed through to the runs and batches (tests: concurrency, maxLeads, source...). */
  process?: Omit<ProcessOptions, 'enrichers' | 'signal' | 'drain' | 'finalAttempt'>
}

/** What a run's job completes with: the processor's result, or `yielded` (the run gave its slot up and is queued again). */
type ExportRunResult = ProcessResult | { outcome: 'yielded'; leads: 0; enrichedLeads: 0; charged: 0 }

export interface ExportWorker {
  /**
   * Stops taking jobs; running batches take no new lead and record the ones in flight, for `graceMs` at most
   * (default 0), then what still runs is aborted. Unfinished jobs are queued again for another worker; recorded work
   * stays, unrecorded leads stay pending.
   */
  stop(options?: { graceMs?: number }): Promise<void>
  /** Runs in flight (tests). */
  readonly active: number
}

/** Seconds between two looks of a dead letter at an export whose other jobs still run. */
const DEAD_LETTER_RECHECK_SECONDS = 15
/** Seconds before a run that yielded its slot may start again (its previous job completes well before). */
const YIELD_REQUEUE_DELAY_SECONDS = 5
/**
 * How long a yielding run may take to unwind before its slot is freed anyway. Some of its in-flight work cannot be
 * aborted (a DNS query runs to its EMAIL_DNS_TIMEOUT_MS, a write finishes): the waiting export must not wait for
 * it. The run goes on unwinding in the background (recorded work stays) and is awaited before this process runs
 * that export again; the requeued job's delay (above) keeps other processes off it meanwhile.
 */
const YIELD_GRACE_MS = 500

/** The run's own outcome, or the yield once the run has had YIELD_GRACE_MS to unwind after it. */
function releasableRun<T>(run: Promise<T>, yieldSignal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined
    const onYield = () => {
      timer = setTimeout(() => reject(yieldSignal.reason), YIELD_GRACE_MS)
    }
    yieldSignal.addEventListener('abort', onYield, { once: true })
    run.then(resolve, reject).finally(() => {
      clearTimeout(timer)
      yieldSignal.removeEventListener('abort', onYield)
    })
  })
}

/** Milliseconds between preemption checks: a fraction of the wait, so the wait overshoots the setting by at most this. */
function fairnessCheckIntervalMs(fairWaitSeconds: number): number {
  return Math.max(200, Math.min(500, fairWaitSeconds * 100))
}

/**
 * The run that should give its slot up now, if any (see "Fairness" in registerExportWorker): the newest run, in the
 * enrichment phase and running for a second at least (no thrashing), of the user holding the most running exports, when another user's
 * export has been ready to start for `waitSeconds` and that user holds at least 2 fewer. Ready means startable: not
 * blocked by a run of the same export (stately) nor by the per-user cap.
 */
async function preemptionVictim(boss: PgBoss, queue: string, waitSeconds: number, userCap: number): Promise<string | null> {
  const { rows } = await boss.getDb().executeSql(
    `with live as (
       select id, group_id, state, started_on, singleton_key, data->>'exportId' as export_id, greatest(created_on, start_after) as ready_on
         from ${PGBOSS_SCHEMA}.job
        where name = $1 and group_id is not null and state in ('created', 'retry', 'active')
     ), held as (
       select group_id, (count(*) filter (where state = 'active'))::int as active from live group by group_id
     ), waiting as (
       select min(h.active) as active
         from live l join held h using (group_id)
        where l.state <> 'active'
          and l.ready_on <= now() - make_interval(secs => $2)
          and ($3::int = 0 or h.active < $3::int)
          and not exists (select 1 from live a where a.state = 'active' and a.singleton_key = l.singleton_key)
     )
     select l.id
       from live l
       join held h using (group_id)
       cross join waiting w
       join public.exports e
         on e.id = case when l.export_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then l.export_id::uuid end
      where l.state = 'active'
        and h.active >= w.active + 2
        and l.started_on <= now() - make_interval(secs => least($2, 1))
        and e.search_status = 'completed'
      order by h.active desc, l.started_on desc, l.id
      limit 1`,
    [queue, waitSeconds, userCap],
  )
  return (rows[0] as { id?: string } | undefined)?.id ?? null
}

/**
 * A yielded or released job's recorded work stays; the rest continues in a new job that keeps this one's place in the
 * user's line (same priority), once this job has completed (stately: one active per key). A yielded job's copy waits
 * a few seconds (the waiting export goes first); a released one (shutdown) is for any other worker at once.
 */
async function requeue(boss: PgBoss, queue: string, job: JobWithMetadata<ExportJobData>, startAfter: number): Promise<void> {
  await boss.send(queue, job.data, {
    singletonKey: job.singletonKey ?? job.data.exportId,
    group: { id: job.groupId ?? job.data.userId },
    priority: job.priority,
    startAfter,
  })
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError'
}

type Work = (context: Pick<ProcessOptions, 'signal' | 'drain' | 'finalAttempt' | 'log'>) => Promise<ProcessResult>

/**
 * Runs a job of the run or batch queue: yields its slot when the fairness check asks (requeued with its priority),
 * and on shutdown hands what it did not finish to another worker (requeued at once).
 */
function jobRunner(
  boss: PgBoss,
  { runQueue, stopping, draining, log, processLog }: { runQueue: string; stopping: AbortController; draining: AbortController; log: (message: string) => void; processLog: (message: string) => void },
) {
  let active = 0
  /** Runs in flight in this process, by job id: what the fairness check may ask to yield. */
  const inflight = new Map<string, AbortController>()
  /** Yielded jobs still unwinding after their slot was freed, by singleton key (see YIELD_GRACE_MS). */
  const unwinding = new Map<string, Promise<void>>()

  const released: ExportRunResult = { outcome: 'released', leads: 0, enrichedLeads: 0, charged: 0 }

  const run = async (queue: string, job: JobWithMetadata<ExportJobData>, work: Work): Promise<ExportRunResult> => {
    const exportId = job.data?.exportId
    if (typeof exportId !== 'string') {
      // A malformed job can never succeed: complete it instead of retrying it.
      log(`export job ${job.id} has no exportId: ignored`)
      return { outcome: 'skipped', leads: 0, enrichedLeads: 0, charged: 0 }
    }
    const key = job.singletonKey ?? exportId
    const yieldSlot = new AbortController()
    const signal = AbortSignal.any([job.signal, stopping.signal, yieldSlot.signal])
    const finalAttempt = job.retryCount >= job.retryLimit
    active++
    inflight.set(job.id, yieldSlot)
    let processing: Promise<ProcessResult> | undefined
    try {
      await unwinding.get(key)
      // Its upstream requests (Overpass, Google, the registry) spend the export owner's fair share (limits/fair.ts).
      processing = onBehalfOf(job.groupId ?? job.data.userId, () => work({ signal, drain: draining.signal, finalAttempt, log: processLog }))
      const result = await releasableRun(processing, yieldSlot.signal)
      if (result.outcome === 'released') {
        await requeue(boss, queue, job, 0)
        log(`export ${exportId}: ${key} released (worker stopping), queued again for another worker`)
        return released
      }
      log(`export ${exportId}: ${queue === runQueue ? 'run' : `batch ${key}`} ${result.outcome}`)
      return result
    } catch (error) {
      if (yieldSlot.signal.aborted && !job.signal.aborted && !stopping.signal.aborted) {
        const rest = (processing ?? Promise.resolve()).then(() => {}, () => {})
        unwinding.set(key, rest)
        void rest.finally(() => unwinding.get(key) === rest && unwinding.delete(key))
        await requeue(boss, queue, job, YIELD_REQUEUE_DELAY_SECONDS)
        log(`export ${exportId}: gave its slot to another user's export; queued again`)
        return { outcome: 'yielded', leads: 0, enrichedLeads: 0, charged: 0 }
      }
      if (stopping.signal.aborted && !job.signal.aborted) {
        // Past the shutdown grace: the leads in flight were aborted (left pending); another worker takes the rest.
        await requeue(boss, queue, job, 0)
        log(`export ${exportId}: ${key} aborted (worker stopping), queued again for another worker`)
        return released
      }
      if (!signal.aborted && !isAbort(error)) {
        log(`export ${exportId}: run failed (attempt ${job.retryCount + 1}/${job.retryLimit + 1}): ${(error as Error)?.message ?? error}`)
        if (finalAttempt) await markRunFailed(exportId, error)
      }
      throw error
    } finally {
      active--
      inflight.delete(job.id)
    }
  }

  return { run, inflight, unwinding, active: () => active }
}

export async function registerExportWorker(boss: PgBoss, options: ExportWorkerOptions): Promise<ExportWorker> {
  const log = options.log ?? (() => {})
  const config = options.config ?? validateEnv()
  await ensureExportQueues(boss, config)
  const queues = exportQueueNames(config)
  const enrichers = typeof options.enrichers === 'function' ? await options.enrichers() : options.enrichers
  const stopping = new AbortController()

  /** Set when this process stops: batches take no new lead (see stop). */
  const draining = new AbortController()
  const { run, inflight, unwinding, active } = jobRunner(boss, { runQueue: queues.run, stopping, draining, log, processLog: options.process?.log ?? log })

  // Fairness between users. The problem: with 2 slots, a user who queues 3 big exports must not keep another user's
  // small export waiting until all of them are done; but a user alone must still get every slot (a sales user with
  // several exports and an idle worker should not wait). A static per-user cap cannot do both with 2 slots (cap 1
  // halves a lone user's throughput, cap 2 starves the other), so:
  //  1. Queue order is round-robin between users (queue.ts fairPriority): a freed slot goes to the user with the
  //     fewest runs ahead of them, so the other user's export starts before the busy user's third at the latest.
  //  2. Preemption, cooperative and cheap because all export state is in the database: when some user's export has
  //     been ready for fairWaitSeconds while another user holds at least 2 more running exports than them, that
  //     user's most recently started run (only one, in the enrichment phase, running for a second at least)
  //     stops like at a shutdown (recorded work stays) and is queued again with its priority; the freed slot goes
  //     to the waiting export (higher priority). The decision is a database query, the same for every worker, so
  //     only the worker running the chosen run acts. A lone user is never preempted (nobody is waiting). The wait
  //     stays within the setting + ~1 s: checks every fairnessCheckIntervalMs, and the slot is freed YIELD_GRACE_MS
  //     after the yield at the latest (the worker then fetches the waiting job at once: it has the higher priority).
  //  3. EXPORT_USER_CONCURRENCY (optional) is a hard cap per user across all workers (pg-boss group concurrency).
  // Enrichment politeness is per website host inside the crawler, shared by every run of the process: unchanged.
  // One export, every worker: the run job only searches and plans; its enrichment is in batch jobs (batches.ts) that
  // any worker takes, ordered round-robin between users like the runs, so the fairness above applies per batch.
  // Runs and batches have a pool of slots each: a long search never holds a slot an enrichment batch could use.
  // A worker keeps the leads in flight it had when one run enriched a whole export per slot (EXPORT_WORKER_JOBS ×
  // EXPORT_CONCURRENCY: throughput is leads in flight ÷ time per lead), so each such slot becomes as many batch slots
  // as it takes batches to hold EXPORT_CONCURRENCY leads; while one batch waits on its slowest sites, the others
  // keep the budget busy.
  const slots = Math.max(1, config.EXPORT_WORKER_JOBS)
  const userCap = options.userConcurrency ?? config.EXPORT_USER_CONCURRENCY
  const batchSize = Math.max(1, options.batchSize ?? config.EXPORT_BATCH_SIZE)
  const leadsPerSlot = Math.max(1, options.process?.concurrency ?? config.EXPORT_CONCURRENCY)
  const concurrentBatches = Math.max(1, options.localConcurrency ?? batchSlots(slots, leadsPerSlot, batchSize))
  const workOptions = {
    batchSize: 1 as const,
    includeMetadata: true as const,
    localConcurrency: slots,
    ...(userCap > 0 ? { groupConcurrency: userCap } : {}),
    // Polling (see queue.ts on LISTEN/NOTIFY): a new export starts within a second.
    pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1,
  }
  const processOptions = { ...options.process, enrichers }
  await boss.work<ExportJobData, ExportRunResult, typeof workOptions>(queues.run, workOptions, async ([job]) =>
    run(queues.run, job as JobWithMetadata<ExportJobData>, (context) =>
      runExport((job as JobWithMetadata<ExportJobData>).data.exportId, { ...processOptions, ...context, batchSize, enqueue: (batches) => enqueueBatches(boss, batches, config) }),
    ),
  )
  await boss.work<ExportBatchData, ExportRunResult, typeof workOptions>(queues.batch, { ...workOptions, localConcurrency: concurrentBatches }, async ([job]) =>
    run(queues.batch, job as JobWithMetadata<ExportBatchData>, (context) => runExportBatch((job as JobWithMetadata<ExportBatchData>).data, { ...processOptions, ...context })),
  )
  const fairWait = options.fairWaitSeconds ?? config.EXPORT_FAIR_WAIT_SECONDS
  const fairness = fairWait > 0 ? startFairnessChecks(boss, { queue: queues.batch, fairWait, userCap, inflight, stopping: stopping.signal, log }) : undefined
  await workDeadLetters(boss, queues)

  let stopped: Promise<void> | undefined
  return {
    get active() {
      return active()
    },
    stop: ({ graceMs = 0 } = {}) =>
      (stopped ??= (async () => {
        clearInterval(fairness)
        await stopGracefully(boss, { queues: [queues.run, queues.batch, queues.dead], graceMs, draining, stopping, active, log })
        await Promise.all(unwinding.values())
        await enrichers.close?.().catch(() => {})
      })()),
  }
}

/**
 * Shutdown: no new job (offWork stops the fetch loops at once; `wait` resolves when the handlers are done), running
 * batches drain (no new lead; those in flight are recorded) for `graceMs` at most, then whatever still runs is aborted.
 */
async function stopGracefully(
  boss: PgBoss,
  { queues, graceMs, draining, stopping, active, log }: { queues: string[]; graceMs: number; draining: AbortController; stopping: AbortController; active: () => number; log: (message: string) => void },
): Promise<void> {
  const idle = Promise.all(queues.map((name) => boss.offWork(name, { wait: true }))).catch(() => {})
  draining.abort()
  if (active() > 0 && graceMs > 0) {
    log(`stopping: ${active()} job(s) finishing their leads in flight (at most ${Math.round(graceMs / 1000)} s)`)
    let timer: NodeJS.Timeout | undefined
    await Promise.race([idle, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))])
    clearTimeout(timer)
  }
  stopping.abort(new DOMException('worker stopping', 'AbortError'))
  await idle
}

/** The periodic preemption check (see "Fairness" in registerExportWorker): asks the chosen run, if it is ours, to yield. */
function startFairnessChecks(
  boss: PgBoss,
  { queue, fairWait, userCap, inflight, stopping, log }: { queue: string; fairWait: number; userCap: number; inflight: Map<string, AbortController>; stopping: AbortSignal; log: (message: string) => void },
): NodeJS.Timeout {
  let checking = false
  const fairness = setInterval(
    () => {
      if (checking || inflight.size === 0 || stopping.aborted) return
      checking = true
      preemptionVictim(boss, queue, fairWait, userCap)
        .then((victim) => {
          const slot = victim ? inflight.get(victim) : undefined
          if (!slot || slot.signal.aborted) return
          log(`export job ${victim}: another user's export is waiting, this run yields its slot`)
          slot.abort(new DOMException('export run yields its slot', 'AbortError'))
        })
        .catch((error) => log(`fairness check failed: ${(error as Error)?.message ?? error}`))
        .finally(() => {
          checking = false
        })
    },
    fairnessCheckIntervalMs(fairWait),
  )
  fairness.unref()
  return fairness
}

/**
 * A run or batch that failed on every retry (or whose worker died on the last one): the export must not stay
 * "processing" forever. It becomes failed and resumable once no other run or batch of it is queued or running (a
 * dead batch's siblings end `partial`, leaving its range pending: the dead letter looks again until they are done;
 * an export a newer run completed meanwhile is left alone).
 */
async function workDeadLetters(boss: PgBoss, queues: { run: string; batch: string; dead: string }): Promise<void> {
  await boss.work<ExportJobData>(queues.dead, { batchSize: 1, pollingIntervalSeconds: 5 }, async ([job]) => {
    const exportId = job?.data?.exportId
    if (typeof exportId !== 'string') return
    if ((await liveExportJobs(boss.getDb(), exportId)).length > 0) {
      await boss.send(queues.dead, { exportId, userId: job?.data?.userId }, { startAfter: DEAD_LETTER_RECHECK_SECONDS })
      return
    }
    await markRunFailed(exportId, new Error('the export run failed on every retry'))
  })
}

async function markRunFailed(exportId: string, error: unknown): Promise<void> {
  await adminDb()
    .updateTable('exports')
    .set({
      status: 'failed',
      can_resume: true,
      enrichment_status_details: {
        phase: 'run',
        error: String((error as Error)?.message ?? error).slice(0, 500),
        at: new Date().toISOString(),
      },
    })
    .where('id', '=', exportId)
    .where('status', '=', 'processing')
    .execute()
    .catch((failure) => console.error(`[worker] could not mark export ${exportId} failed:`, failure))
}
