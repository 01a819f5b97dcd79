/**
 * pg-boss consumers of the export queues (see queue.ts). Used by the in-process worker slot (`npm start`) and by the
 * standalone `npm run worker` process; both go through server/worker-slot.ts.
 */
import type { PgBoss, JobWithMetadata } from 'pg-boss'
import { adminDb } from '#app/.server/db.ts'
import type { Enrichers } from './enrichers.ts'
import { processExport, type ProcessOptions, type ProcessResult } from './processor.ts'
import { ensureExportQueues, exportQueueNames, type ExportJobData } from './queue.ts'

export interface ExportWorkerOptions {
  /** The enrichment engine (or a factory called once at registration). */
  enrichers: Enrichers | (() => Enrichers | Promise<Enrichers>)
  log?: (message: string) => void
  /** Exports run at once by this process (default EXPORT_WORKER_JOBS or 2). */
  localConcurrency?: number
  /** Exports of one user run at once across all workers (default EXPORT_USER_CONCURRENCY, else half the slots). */
  userConcurrency?: number
  /** Seconds between polls for new export jobs (default 1). */
  pollingIntervalSeconds?: number
  /** Passed through to processExport (tests: concurrency, maxLeads, source...). */
  process?: Omit<ProcessOptions, 'enrichers' | 'signal' | 'finalAttempt'>
}

export interface ExportWorker {
  /** Stops taking jobs and aborts the running ones (their recorded work stays; the queue retries the rest). */
  stop(): Promise<void>
  /** Runs in flight (tests). */
  readonly active: number
}

function intEnv(name: string, fallback: number): number {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError'
}

export async function registerExportWorker(boss: PgBoss, options: ExportWorkerOptions): Promise<ExportWorker> {
  const log = options.log ?? (() => {})
  await ensureExportQueues(boss)
  const queues = exportQueueNames()
  const enrichers = typeof options.enrichers === 'function' ? await options.enrichers() : options.enrichers
  const stopping = new AbortController()
  let active = 0

  const run = async (job: JobWithMetadata<ExportJobData>): Promise<ProcessResult> => {
    const exportId = job.data?.exportId
    if (typeof exportId !== 'string') {
      // A malformed job can never succeed: complete it instead of retrying it.
      log(`export job ${job.id} has no exportId: ignored`)
      return { outcome: 'skipped', leads: 0, enrichedLeads: 0, charged: 0 }
    }
    const signal = AbortSignal.any([job.signal, stopping.signal])
    const finalAttempt = job.retryCount >= job.retryLimit
    active++
    try {
      const result = await processExport(exportId, { ...options.process, enrichers, signal, finalAttempt, log: options.process?.log ?? log })
      log(`export ${exportId}: run ${result.outcome}`)
      return result
    } catch (error) {
      if (!signal.aborted && !isAbort(error)) {
        log(`export ${exportId}: run failed (attempt ${job.retryCount + 1}/${job.retryLimit + 1}): ${(error as Error)?.message ?? error}`)
        if (finalAttempt) await markRunFailed(exportId, error)
      }
      throw error
    } finally {
      active--
    }
  }

  // Fairness: one user's exports may hold at most half the slots (pg-boss counts per group, i.e. per
  // user, across every worker), so a big batch from one user cannot make another's small export wait.
  // Little throughput is lost: each export already enriches EXPORT_CONCURRENCY leads at once.
  const slots = Math.max(1, options.localConcurrency ?? intEnv('EXPORT_WORKER_JOBS', 2))
  await boss.work<ExportJobData, ProcessResult, { batchSize: 1; includeMetadata: true; localConcurrency: number; groupConcurrency: number; pollingIntervalSeconds: number }>(
    queues.run,
    {
      batchSize: 1,
      includeMetadata: true,
      localConcurrency: slots,
      groupConcurrency: Math.max(1, options.userConcurrency ?? intEnv('EXPORT_USER_CONCURRENCY', Math.floor(slots / 2))),
      // Polling (see queue.ts on LISTEN/NOTIFY): a new export starts within a second.
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1,
    },
    async ([job]) => run(job as JobWithMetadata<ExportJobData>),
  )
  // A run that failed on every retry (or whose worker died on the last one): the export must not stay
  // "processing" forever. It becomes failed and resumable, unless a newer run of it is queued or running.
  await boss.work<ExportJobData>(queues.dead, { batchSize: 1, pollingIntervalSeconds: 5 }, async ([job]) => {
    const exportId = job?.data?.exportId
    if (typeof exportId !== 'string') return
    const live = await boss.findJobs<ExportJobData>(queues.run, { key: exportId })
    if (live.some((other) => other.state === 'created' || other.state === 'retry' || other.state === 'active')) return
    await markRunFailed(exportId, new Error('the export run failed on every retry'))
  })

  return {
    get active() {
      return active
    },
    stop: async () => {
      stopping.abort(new DOMException('worker stopping', 'AbortError'))
      await Promise.all([boss.offWork(queues.run, { wait: true }), boss.offWork(queues.dead, { wait: true })]).catch(() => {})
      await enrichers.close?.().catch(() => {})
    },
  }
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
