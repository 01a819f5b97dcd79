// Graceful shutdown of a standalone worker (`npm run worker`, server/worker.ts): SIGTERM mid-export stops it taking
// work; its in-flight leads are recorded within WORKER_SHUTDOWN_GRACE_SECONDS or aborted (left pending); it exits 0
// within the bound; another worker then completes the export with no lead lost and none charged twice.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { closeDb } from '#app/.server/db.ts'
import { setExportQueueBoss } from '#app/.server/exports/queue.ts'
import { createExport } from '#app/.server/exports/service.ts'
import { NO_ENRICHMENT } from '#app/domain/enrichment.ts'
import { type DemoRegistry, startDemoRegistry } from '#server/demo/registry.ts'
import { type DemoWebsites, startDemoWebsites } from '#server/demo/websites.ts'
import { createUserWithCredits } from '#tests/support/credited-user.ts'
import { accountProblems, balanceMatchesLedger, exportAccount, waitFor } from '#tests/support/export-checks.ts'
import { startWorkerProcess, stopWorkerProcesses, type WorkerProcess } from '#tests/support/worker-processes.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

const LEADS = 40
// Each case its own businesses: the second must not find the first's sites and registry answers already stored.
const PLACES = {
  lyon: { sector: 'boulangerie', country: 'France', countryCode: 'FR', region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon' },
  marseille: { sector: 'boulangerie', country: 'France', countryCode: 'FR', region: "Provence-Alpes-Côte d'Azur", department: 'Bouches-du-Rhône', city: 'Marseille' },
}

let admin: pg.Pool
let registry: DemoRegistry
const started: WorkerProcess[] = []
const servers: DemoWebsites[] = []


async function launch(userId: string, criteria: (typeof PLACES)[keyof typeof PLACES]): Promise<string> {
  const user: SessionUser = personalSession(userId, `${userId}@example.test`)
  const result = await createExport({
    user,
    name: 'Shutdown',
    criteria,
    enrichmentOptions: { ...NO_ENRICHMENT, website: true, email: true, social: true, phone: true },
    idempotencyKey: randomUUID(),
    lang: 'fr',
  })
  if (!result.ok) throw new Error(`createExport failed: ${result.code}`)
  return result.exportId
}

async function successes(exportId: string): Promise<number> {
  return (await exportAccount(admin, exportId)).successes
}

/** The worker's environment: this file's own queue, the demo source, a batch per 10 positions. */
function workerEnv(sites: DemoWebsites, extra: Record<string, string>): Record<string, string> {
  return {
    DATABASE_URL: inject('databaseUrl'),
    EXPORT_QUEUE: process.env.EXPORT_QUEUE as string,
    LEADS_SOURCE: 'demo',
    DEMO_WEBSITES_URL: sites.url,
    REGISTRY_URL: registry.url,
    ENRICH_ALLOW_HOSTS: [new URL(sites.url).host, new URL(registry.url).host].join(','),
    EXPORT_MAX_LEADS: String(LEADS),
    EXPORT_BATCH_SIZE: '10',
    EXPORT_CONCURRENCY: '3',
    ENRICHMENT_REUSE_DAYS: '0',
    PGBOSS_SUPERVISE_SECONDS: '2',
    ...extra,
  }
}

beforeAll(async () => {
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 3 })
  registry = await startDemoRegistry()
  Object.assign(process.env, { DATABASE_URL: inject('databaseUrl'), EXPORT_QUEUE: `export-shutdown-${process.pid}`, LEADS_SOURCE: 'demo', REGISTRY_URL: registry.url })
})

afterAll(async () => {
  await stopWorkerProcesses(started, 'SIGKILL')
  await Promise.all(servers.map((server) => server.stop()))
  await registry?.stop()
  setExportQueueBoss(undefined)
  await closeDb()
  await admin?.end()
})

describe('SIGTERM mid-export', () => {
  // grace 20 s, sites answering in 150 ms: the leads in flight are recorded, then the worker leaves.
  // grace 1 s, sites answering in 1.5 s: the leads in flight cannot finish, they are aborted and stay pending.
  it.each([
    { graceSeconds: 20, latencyMs: 150, inFlight: 'recorded', place: 'lyon' as const },
    { graceSeconds: 1, latencyMs: 1_500, inFlight: 'aborted', place: 'marseille' as const },
  ])('grace $graceSeconds s, sites at $latencyMs ms: exits 0 within the grace, its leads in flight $inFlight; another worker completes the export', { timeout: 150_000 }, async ({ graceSeconds, latencyMs, inFlight, place }) => {
    // When each site request still open began: the aborted case stops the worker while one has just started, so that
    // it cannot end within the grace (at a moment between requests, its batches would have nothing in flight).
    const openSince = new Map<number, number>()
    let requests = 0
    const sites = await startDemoWebsites({
      latencyMs,
      track: () => {
        const id = ++requests
        openSince.set(id, Date.now())
        return () => openSince.delete(id)
      },
    })
    servers.push(sites)
    const justStarted = () => [...openSince.values()].some((since) => Date.now() - since < 300)
    const userId = await createUserWithCredits(admin, 1_000)
    const first = await startWorkerProcess(workerEnv(sites, { WORKER_SHUTDOWN_GRACE_SECONDS: String(graceSeconds) }), { name: 'first' })
    started.push(first)
    const exportId = await launch(userId, PLACES[place])
    await waitFor(async () => (await successes(exportId)) >= 4 && (inFlight === 'recorded' || justStarted()), 'the first worker to make progress', 60_000, 20)

    const signalled = Date.now()
    first.kill('SIGTERM')
    const exit = await first.exited
    const took = Date.now() - signalled
    expect(exit, first.output()).toEqual({ code: 0, signal: null })
    // The grace, plus pg-boss's stop and the process's exit (a few seconds at most on a loaded machine).
    expect(took, first.output()).toBeLessThan(graceSeconds * 1_000 + 10_000)
    // Drained: its batches stopped taking leads and recorded those in flight ("released"); past the grace they are
    // aborted instead ("aborted"). Either way each unfinished batch is queued again for another worker.
    expect(first.output()).toMatch(inFlight === 'recorded' ? /released \(worker stopping\), queued again/ : /aborted \(worker stopping\), queued again/)
    if (inFlight === 'recorded') expect(first.output()).not.toMatch(/aborted \(worker stopping\)/)
    const atExit = await exportAccount(admin, exportId)
    expect(atExit.status).toBe('processing')
    expect(atExit.pending).toBeGreaterThan(0)
    // Nothing the stopped worker left behind is active: its batches were handed back to the queue, not left to the heartbeat.
    const { rows: activeJobs } = await admin.query(`select count(*)::int as n from pgboss.job where data->>'exportId' = $1 and state = 'active'`, [exportId])
    expect(activeJobs[0].n).toBe(0)

    const second = await startWorkerProcess(workerEnv(sites, {}), { name: 'second' })
    started.push(second)
    await waitFor(async () => ['completed', 'failed', 'interrupted'].includes((await exportAccount(admin, exportId)).status), 'the export to end', 120_000)
    const account = await exportAccount(admin, exportId)
    expect(accountProblems(account, LEADS), second.output()).toEqual([])
    expect(await balanceMatchesLedger(admin, userId)).toBe(true)
    await stopWorkerProcesses([second])
  })
})
