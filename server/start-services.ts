/**
 * What `npm start` runs once server/start.ts has checked the environment. Resolves the lead source
 * (LEADS_SOURCE=auto probes Overpass and the registry while the rest starts), starts whatever the
 * environment does not provide — embedded Postgres under DATA_DIR, migrations, the local
 * auth server — then the demo websites and registry when the source is demo data, the app server
 * and the in-process worker, and prints the URL. Ctrl-C (SIGINT/SIGTERM) stops every part in reverse order.
 */
import path from 'node:path'
import getPort from 'get-port'
import type { PgBoss } from 'pg-boss'
import { startDemoRegistry } from './demo/registry.ts'
import { startDemoWebsites } from './demo/websites.ts'
import { startLocalStack } from './stack.ts'
import { readOrCreatePassword } from './postgres-secrets.ts'
import { billingStartupNotice } from '#app/.server/billing/config.ts'
import { getPool } from '#app/.server/db.ts'
import { componentLogger } from '#app/.server/observability/logger.ts'
import { startOpsServer, trackQueue } from '#app/.server/observability/ops-server.ts'
import { registerBillingJobs } from '#app/.server/billing/reload.ts'
import { registerWebhookDelivery } from '#app/.server/webhooks/delivery.ts'
import { registerSavedSearchJobs } from '#app/.server/saved-searches/scheduler.ts'
import { registerCrmJobs } from '#app/.server/integrations/push-queue.ts'
import { registerListJobs } from '#app/.server/lists/retention.ts'
import { registerRegistryEventJobs } from '#app/.server/registry-events/scheduler.ts'
import { startWorker } from './worker-slot.ts'
import { createHttpApp } from './http-app.ts'
import { allowListFromEnv } from '#app/.server/enrichment/ssrf.ts'
import { env, freezeEnvironment, setRuntimeSettings, type Env } from '#app/.server/env.server.ts'
import { resolveSourceSelection, setSourceSelection, type SourceSelection } from '#app/.server/sources/selection.ts'

const logger = componentLogger('leadatlas')
const log = (message: string) => logger.info(`[leadatlas] ${message}`)
const workerLog = (message: string) => componentLogger('worker').info(message)

/**
 * On the embedded database, CRM credentials are encrypted with a key kept beside it in DATA_DIR (generated once, 0600);
 * a deployment on its own database sets INTEGRATIONS_ENCRYPTION_KEY (docs/integrations.md).
 */
function useEmbeddedIntegrationsKey(dataDir: string): void {
  setRuntimeSettings({ INTEGRATIONS_ENCRYPTION_KEY: readOrCreatePassword(path.join(dataDir, 'integrations-encryption.key')) })
}

/** Starts every part for the checked configuration `config`; `dev` serves through Vite. */
export async function startServices(config: Env, dev: boolean): Promise<void> {
  const host = config.HOST
  const dataDir = path.resolve(config.DATA_DIR)
  const port = await getPort({ port: config.PORT ?? 3000, host })
  const appUrl = config.APP_URL ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`

  // LEADS_SOURCE=auto: the probes (bounded by SOURCE_PROBE_TIMEOUT_MS; never rejects) run while the database starts.
  const selecting = resolveSourceSelection(config)
  const stack = await startLocalStack({ dataDir, siteUrl: appUrl, env: config, log })
  const stops: Array<() => Promise<void>> = [stack.stop]
  // What the app reads (app/.server/env.server.ts) from here on: the environment plus these.
  setRuntimeSettings({ DATABASE_URL: stack.databaseUrl, SUPABASE_URL: stack.supabaseUrl, SUPABASE_ANON_KEY: stack.supabaseAnonKey, APP_URL: appUrl })
  if (stack.local.database && !config.INTEGRATIONS_ENCRYPTION_KEY) useEmbeddedIntegrationsKey(dataDir)
  const selection = await selecting
  // Every later read of LEADS_SOURCE (the app's bundle, the worker) sees the resolved source; the UI reads why.
  setSourceSelection(selection)
  setRuntimeSettings({ LEADS_SOURCE: selection.source })
  log(selection.summary)
  stops.unshift(...(await startDemoServers(dataDir, selection)))

  // The monthly credit reload and the saved searches' runs are scheduled jobs of the same worker; webhook deliveries
  // too, unless the deliveries are left to `npm run worker` processes (IN_PROCESS_WORKER=false).
  const worker = await startWorker({
    log: workerLog,
    registrations: [
      ...[registerBillingJobs, registerSavedSearchJobs, registerListJobs, registerRegistryEventJobs].map((register) => (boss: PgBoss) => register(boss, { log: workerLog })),
      ...(config.IN_PROCESS_WORKER ? [(boss: PgBoss) => registerWebhookDelivery(boss, { log: workerLog }), (boss: PgBoss) => registerCrmJobs(boss, { log: workerLog })] : []),
    ],
  })
  // As a standalone worker: the leads in flight get WORKER_SHUTDOWN_GRACE_SECONDS to be recorded, the rest is requeued.
  stops.unshift(() => worker.stop({ graceMs: config.WORKER_SHUTDOWN_GRACE_SECONDS * 1000 }))
  // Readiness reads the database through the worker's pool and asks whether this process's queue still runs.
  const ops = { pool: getPool, queue: trackQueue(worker.boss) }

  const trustProxy = env.TRUST_PROXY
  // Every setting is known from here on: requests read the configuration without re-checking process.env.
  freezeEnvironment()
  let app
  if (dev) {
    const vite = await import('vite').then((v) => v.createServer({ server: { middlewareMode: true } }))
    stops.unshift(() => vite.close())
    app = createHttpApp({
      mode: 'development',
      appUrl,
      trustProxy,
      ops: { ...ops, metricsToken: config.METRICS_TOKEN },
      before: [vite.middlewares],
      build: () => vite.ssrLoadModule('virtual:react-router/server-build') as never,
    })
  } else {
    const buildDir = path.resolve('build')
    const build = await import(path.join(buildDir, 'server', 'index.js'))
    app = createHttpApp({ mode: 'production', appUrl, trustProxy, clientDir: path.join(buildDir, 'client'), build, ops: { ...ops, metricsToken: config.METRICS_TOKEN } })
  }

  const server = app.listen(port, host)
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', reject)
  })
  stops.unshift(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  )
  if (config.METRICS_PORT) {
    const metrics = await startOpsServer({ ...ops, port: config.METRICS_PORT, host: config.METRICS_HOST, metrics: config.METRICS_TOKEN ? { token: config.METRICS_TOKEN } : true })
    stops.unshift(metrics.stop)
    log(`Metrics at ${metrics.url}/metrics (health: /healthz, /readyz)`)
  }
  log(`LeadAtlas is running at ${appUrl}`)
  const billing = billingStartupNotice()
  if (billing.startsWith('WARNING')) logger.warn(`[leadatlas] ${billing}`)
  else log(billing)
  if (stack.mailboxUrl) log(`Local mailbox (password-reset emails, this machine only): ${stack.mailboxUrl}`)
  else if (stack.local.auth) log('Password-reset emails go out through SMTP_URL')

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    log(`${signal} received, stopping...`)
    for (const stop of stops) await stop().catch((error: unknown) => logger.error({ err: error }, '[leadatlas] a part did not stop cleanly'))
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
}

/**
 * With the demo lead source (LEADS_SOURCE=demo, or auto without OpenStreetMap): the demo websites its businesses
 * link to and the demo registry that answers the French registry lookups (demo data), so enrichment runs offline
 * for real; the crawler may reach these servers (exact host:port) on loopback, and nothing else private. Returns
 * their stop functions.
 */
async function startDemoServers(dataDir: string, selection: SourceSelection): Promise<Array<() => Promise<void>>> {
  if (env.LEADS_SOURCE !== 'demo') return []
  const stops: Array<() => Promise<void>> = []
  const ownDemoHosts: string[] = []
  let demoWebsitesUrl = env.DEMO_WEBSITES_URL
  if (!demoWebsitesUrl) {
    const demoSites = await startDemoWebsites({ port: env.DEMO_WEBSITES_PORT, dataDir })
    stops.unshift(demoSites.stop)
    demoWebsitesUrl = demoSites.url
    setRuntimeSettings({ DEMO_WEBSITES_URL: demoSites.url })
    log(`Demo websites (demo data) at ${demoSites.url}`)
  }
  ownDemoHosts.push(new URL(demoWebsitesUrl).host)
  if (selection.registry.kind === 'demo') {
    const registry = await startDemoRegistry({ port: env.DEMO_REGISTRY_PORT, dataDir })
    stops.unshift(registry.stop)
    setRuntimeSettings({ REGISTRY_URL: registry.url })
    ownDemoHosts.push(new URL(registry.url).host)
    log(`Demo registry (demo data) at ${registry.url}`)
  }
  if (!env.INSEE_API_URL && !env.BODACC_URL) stops.unshift(await startDemoRegistryEvents())
  const allow = new Set([...allowListFromEnv(), ...ownDemoHosts])
  setRuntimeSettings({ ENRICH_ALLOW_HOSTS: [...allow].join(',') })
  return stops
}

/**
 * The demo universe's registry history (server/demo/registry-events-history.ts: creations, closures, procedures
 * and radiations of the last 18 months, demo data) served as the INSEE Sirene API and the BODACC exports, so the
 * daily import runs for real, offline. The import's window covers the whole history (unless set), without INSEE's
 * pause: a fresh demo starts with its store filled in a few seconds.
 */
async function startDemoRegistryEvents(): Promise<() => Promise<void>> {
  const { startRegistryEventsServer } = await import('./demo/registry-events-server.ts')
  const { demoAnnouncementsOn, demoEstablishmentsOn } = await import('./demo/registry-events-history.ts')
  const server = await startRegistryEventsServer({ establishmentsOn: (day) => demoEstablishmentsOn(day), announcementsOn: (day, family) => demoAnnouncementsOn(day, family), apiKey: DEMO_INSEE_KEY })
  setRuntimeSettings({
    INSEE_API_URL: server.inseeUrl,
    INSEE_API_KEY: DEMO_INSEE_KEY,
    BODACC_URL: server.bodaccUrl,
    INSEE_PAUSE_MS: '0',
    ...(process.env.REGISTRY_EVENTS_BACKFILL_DAYS ? {} : { REGISTRY_EVENTS_BACKFILL_DAYS: String(DEMO_HISTORY_DAYS) }),
  })
  log(`Demo registry events (demo data) at ${server.inseeUrl} and ${server.bodaccUrl}`)
  return server.stop
}

/** The demo history's length: 18 months. */
const DEMO_HISTORY_DAYS = 548
/** The demo INSEE server's key: not a secret, it only proves the client sends the header. */
const DEMO_INSEE_KEY = 'demo-insee-key'
