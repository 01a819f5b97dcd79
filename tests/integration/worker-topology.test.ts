// The scale-out topology: a web process that runs no export (what `npm start` with IN_PROCESS_WORKER=false does:
// it only queues, here through the app's real export command) and two `npm run worker` OS processes on one
// Postgres, one fake registry and one fake website host. One worker is killed (SIGKILL) mid-export; every export
// still completes, each success is charged once, and the politeness limits hold as the fake servers saw them:
// the registry never gets more than REGISTRY_REQUESTS_PER_SECOND in any 1 s window, and the website host never has
// more than ENRICH_DEMO_HOST_CONCURRENCY (2) requests in flight, across both workers (the per-host cap must be
// global for that, issue 23 item 1: a cap counted per process lets N workers send N × 2).
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { closeDb } from '#app/.server/db.ts'
import { setExportQueueBoss } from '#app/.server/exports/queue.ts'
import { createExport } from '#app/.server/exports/service.ts'
import { NO_ENRICHMENT } from '#app/domain/enrichment.ts'
import { type DemoRegistry, startDemoRegistry } from '#server/demo/registry.ts'
import type { SiteTrafficReport } from '#server/demo/site-traffic.ts'
import { type DemoWebsites, startDemoWebsites } from '#server/demo/websites.ts'
import { createUserWithCredits } from '#tests/support/credited-user.ts'
import { accountProblems, balanceMatchesLedger, exportAccount, peakInWindow, waitFor } from '#tests/support/export-checks.ts'
import { startWorkerProcesses, stopWorkerProcesses, type WorkerProcess } from '#tests/support/worker-processes.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

const LEADS = 30
const REGISTRY_RATE = 4
const HOST_CONCURRENCY = 2
const PLACES = [
  { sector: 'boulangerie', country: 'France', countryCode: 'FR', region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon' },
  { sector: 'boulangerie', country: 'France', countryCode: 'FR', region: 'Île-de-France', department: 'Paris', city: 'Paris' },
  { sector: 'restaurant', country: 'France', countryCode: 'FR', region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon' },
]

let admin: pg.Pool
let registry: DemoRegistry
let sites: DemoWebsites
let workers: WorkerProcess[] = []
const registryRequests: number[] = []


async function launch(userId: string, criteria: (typeof PLACES)[number]): Promise<string> {
  const user: SessionUser = personalSession(userId, `${userId}@example.test`)
  const result = await createExport({
    user,
    name: `${criteria.sector} ${criteria.city}`,
    criteria,
    enrichmentOptions: { ...NO_ENRICHMENT, website: true, email: true, admin_fr_info: true },
    idempotencyKey: randomUUID(),
    lang: 'fr',
  })
  if (!result.ok) throw new Error(`createExport failed: ${result.code}`)
  return result.exportId
}

beforeAll(async () => {
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 3 })
  // The registry's search paths only: what the enrichment's lookups send (the demo source needs no registry search).
  registry = await startDemoRegistry({ onRequest: ({ path }) => path.startsWith('/search') && registryRequests.push(Date.now()) })
  sites = await startDemoWebsites({ latencyMs: 40 })
  Object.assign(process.env, { DATABASE_URL: inject('databaseUrl'), EXPORT_QUEUE: `export-topology-${process.pid}`, LEADS_SOURCE: 'demo', IN_PROCESS_WORKER: 'false' })
})

afterAll(async () => {
  await stopWorkerProcesses(workers, 'SIGKILL')
  await sites?.stop()
  await registry?.stop()
  setExportQueueBoss(undefined)
  await closeDb()
  await admin?.end()
})

it('two worker processes share the exports; one killed mid-export loses nothing; limits hold across both', { timeout: 150_000 }, async () => {
  workers = await startWorkerProcesses(2, {
    DATABASE_URL: inject('databaseUrl'),
    EXPORT_QUEUE: process.env.EXPORT_QUEUE as string,
    LEADS_SOURCE: 'demo',
    DEMO_WEBSITES_URL: sites.url,
    REGISTRY_URL: registry.url,
    REGISTRY_REQUESTS_PER_SECOND: String(REGISTRY_RATE),
    ENRICH_ALLOW_HOSTS: [new URL(sites.url).host, new URL(registry.url).host].join(','),
    ENRICH_DEMO_HOST_CONCURRENCY: String(HOST_CONCURRENCY),
    EXPORT_MAX_LEADS: String(LEADS),
    EXPORT_BATCH_SIZE: '5',
    EXPORT_CONCURRENCY: '4',
    ENRICHMENT_REUSE_DAYS: '0',
    // A killed worker's batches go back to the queue once its heartbeat lapses (10 s is pg-boss's minimum).
    EXPORT_HEARTBEAT_SECONDS: '10',
    PGBOSS_SUPERVISE_SECONDS: '2',
  })
  const [doomed, survivor] = workers as [WorkerProcess, WorkerProcess]
  const users = [await createUserWithCredits(admin, 1_000), await createUserWithCredits(admin, 1_000)]
  const exports = [await launch(users[0]!, PLACES[0]!), await launch(users[1]!, PLACES[1]!), await launch(users[0]!, PLACES[2]!)]

  // Both workers enrich (batches of one export spread over both), then one dies without a word.
  await waitFor(async () => /batch \S+ (partial|completed)/.test(doomed.output()) && /batch \S+ (partial|completed)/.test(survivor.output()), 'both workers to finish a batch', 90_000)
  doomed.kill('SIGKILL')
  await doomed.exited
  const atCrash = await Promise.all(exports.map((id) => exportAccount(admin, id)))
  expect(atCrash.some((account) => account.status === 'processing')).toBe(true)

  await waitFor(
    async () => (await Promise.all(exports.map((id) => exportAccount(admin, id)))).every((account) => account.status !== 'processing'),
    'every export to end',
    120_000,
  )
  for (const id of exports) expect(accountProblems(await exportAccount(admin, id), LEADS), survivor.output()).toEqual([])
  for (const userId of users) expect(await balanceMatchesLedger(admin, userId)).toBe(true)

  // Measured at the fake servers, over the whole run of both workers.
  expect(registryRequests.length).toBeGreaterThan(0)
  expect(peakInWindow(registryRequests)).toBeLessThanOrEqual(REGISTRY_RATE)
  const traffic = (await (await fetch(`${sites.url}/_demo/traffic`)).json()) as SiteTrafficReport
  expect(traffic.requests).toBeGreaterThan(LEADS)
  expect(traffic.peakTotal, 'requests in flight at once to the one website host, across both workers').toBeLessThanOrEqual(HOST_CONCURRENCY)
})
