/**
 * `npm run worker`: a standalone export worker, to enrich faster by running more of them (ARCHITECTURE §10).
 * Needs DATABASE_URL (the same database as the app; use a direct connection or Supabase's session pooler, not the
 * transaction pooler). Enrichment settings come from the environment: ENRICH_ALLOW_HOSTS, REGISTRY_URL,
 * DEMO_WEBSITES_URL, EXPORT_* (see server/worker-slot.ts). LEADS_SOURCE=auto is resolved here as `npm start` does
 * (app/.server/sources/selection.ts): give the worker the same OVERPASS_URL and REGISTRY_URL as the app. SIGINT/SIGTERM
 * stop it gracefully: no new job is taken, the leads in flight get WORKER_SHUTDOWN_GRACE_SECONDS to be recorded, what
 * still runs then is aborted (left pending), and the unfinished batches are queued again for another worker.
 */
import { closeDb, getPool } from '#app/.server/db.ts'
import { componentLogger } from '#app/.server/observability/logger.ts'
import { logUncaughtErrors, routeConsoleToLogger } from '#app/.server/observability/process-errors.ts'
import { startOpsServer, trackQueue } from '#app/.server/observability/ops-server.ts'
import { registerBillingJobs } from '#app/.server/billing/reload.ts'
import { registerSavedSearchJobs } from '#app/.server/saved-searches/scheduler.ts'
import { registerWebhookDelivery } from '#app/.server/webhooks/delivery.ts'
import { registerCrmJobs } from '#app/.server/integrations/push-queue.ts'
import { registerListJobs } from '#app/.server/lists/retention.ts'
import { registerRegistryEventJobs } from '#app/.server/registry-events/scheduler.ts'
import { startWorker } from './worker-slot.ts'
import { EnvError, setRuntimeSettings, validateEnv } from '#app/.server/env.server.ts'
import { resolveSourceSelection, setSourceSelection } from '#app/.server/sources/selection.ts'

const logger = componentLogger('worker')
const log = (message: string) => logger.info(`[worker] ${message}`)
routeConsoleToLogger(logger)
logUncaughtErrors(logger, 'worker')

async function main() {
  // A wrong value stops the worker here with a message naming the variable.
  let config = validateEnv()
  if (!config.DATABASE_URL) {
    logger.fatal('[worker] DATABASE_URL is not set: point it at the app database (npm start prints the embedded one).')
    process.exit(1)
  }
  // The exports this worker runs search the source LEADS_SOURCE=auto resolves to (probed once, like npm start).
  const selection = await resolveSourceSelection(config)
  setSourceSelection(selection)
  setRuntimeSettings({ LEADS_SOURCE: selection.source })
  log(selection.summary)
  if (selection.registry.kind === 'demo') {
    log('This worker starts no demo registry or demo websites: set REGISTRY_URL and DEMO_WEBSITES_URL to the ones npm start printed.')
  }
  config = validateEnv()
  const worker = await startWorker({
    log,
    config,
    consumeExports: true,
    registrations: [(boss) => registerBillingJobs(boss, { log }), (boss) => registerWebhookDelivery(boss, { log }), (boss) => registerSavedSearchJobs(boss, { log }), (boss) => registerListJobs(boss, { log }), (boss) => registerRegistryEventJobs(boss, { log }), (boss) => registerCrmJobs(boss, { log })],
  })
  // For orchestrators: /healthz, /readyz (database, migrations, this worker's queue), /metrics (token or METRICS_PORT).
  const ops = { pool: getPool, queue: trackQueue(worker.boss) }
  if (config.WORKER_HEALTH_PORT) {
    const health = await startOpsServer({ ...ops, port: config.WORKER_HEALTH_PORT, host: config.HOST, metrics: config.METRICS_TOKEN ? { token: config.METRICS_TOKEN } : false })
    log(`Health at ${health.url}/healthz and /readyz`)
  }
  if (config.METRICS_PORT) {
    const metrics = await startOpsServer({ ...ops, port: config.METRICS_PORT, host: config.METRICS_HOST, metrics: config.METRICS_TOKEN ? { token: config.METRICS_TOKEN } : true })
    log(`Metrics at ${metrics.url}/metrics`)
  }
  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    const graceMs = config.WORKER_SHUTDOWN_GRACE_SECONDS * 1000
    log(`${signal} received, stopping (in-flight leads get ${config.WORKER_SHUTDOWN_GRACE_SECONDS} s)...`)
    // The grace, then the aborted work's unwinding and pg-boss's own stop: past this, something hangs.
    const forceMs = graceMs + 30_000
    const force = setTimeout(() => {
      logger.error(`[worker] did not stop within ${forceMs / 1000} s, exiting`)
      process.exit(1)
    }, forceMs)
    force.unref()
    await worker.stop({ graceMs })
    await closeDb().catch(() => {})
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
}

main().catch((error) => {
  if (error instanceof EnvError) logger.fatal(`[worker] failed to start: ${error.message}`)
  else logger.fatal({ err: error }, `[worker] failed to start: ${(error as Error).message}`)
  process.exit(1)
})
