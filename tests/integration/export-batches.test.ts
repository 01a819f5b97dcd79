// One export, many workers (app/.server/exports/batches.ts): the run job plans one batch per EXPORT_BATCH_SIZE
// positions with pending leads; two workers (two pg-boss consumers, as two processes would be) share the batches of
// one export; the export completes once, each success charged once; out of credits in one batch interrupts the
// export once and a resume plans only the ranges still pending.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import type { PgBoss } from 'pg-boss'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { closeDb } from '#app/.server/db.ts'
import { parseEnv } from '#app/.server/env.server.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import { createBoss, exportQueueNames, setExportQueueBoss } from '#app/.server/exports/queue.ts'
import { createExport, resumeExport } from '#app/.server/exports/service.ts'
import { registerExportWorker, type ExportWorker } from '#app/.server/exports/worker.ts'
import { NO_ENRICHMENT } from '#app/domain/enrichment.ts'
import { type DemoRegistry, startDemoRegistry } from '#server/demo/registry.ts'
import { type DemoWebsites, startDemoWebsites } from '#server/demo/websites.ts'
import { createUserWithCredits } from '#tests/support/credited-user.ts'
import { accountProblems, balanceMatchesLedger, exportAccount, waitFor } from '#tests/support/export-checks.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

const LEADS = 40
const BATCH = 8
const LYON = { sector: 'boulangerie', country: 'France', countryCode: 'FR', region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon' }

let admin: pg.Pool
let sites: DemoWebsites
let registry: DemoRegistry
const workers: Array<{ boss: PgBoss; worker: ExportWorker; logs: string[] }> = []


function sessionUser(id: string): SessionUser {
  return personalSession(id, `${id}@example.test`)
}

async function launch(userId: string): Promise<string> {
  const result = await createExport({
    user: sessionUser(userId),
    name: 'Batches',
    criteria: LYON,
    enrichmentOptions: { ...NO_ENRICHMENT, website: true, email: true, phone: true },
    idempotencyKey: randomUUID(),
    lang: 'fr',
  })
  if (!result.ok) throw new Error(`createExport failed: ${result.code}`)
  return result.exportId
}

function ended(exportId: string) {
  return waitFor(async () => {
    const account = await exportAccount(admin, exportId)
    return account.status !== 'processing' && account.status !== 'pending' && account
  }, `export ${exportId} to end`)
}

beforeAll(async () => {
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 3 })
  // Slow enough that a batch outlasts a poll (1 s): the second worker finds batches left to take.
  sites = await startDemoWebsites({ latencyMs: 150 })
  registry = await startDemoRegistry()
  Object.assign(process.env, {
    DATABASE_URL: inject('databaseUrl'),
    EXPORT_QUEUE: `export-batches-${process.pid}`,
    LEADS_SOURCE: 'demo',
    DEMO_WEBSITES_URL: sites.url,
    REGISTRY_URL: registry.url,
    ENRICH_ALLOW_HOSTS: [new URL(sites.url).host, new URL(registry.url).host].join(','),
    EXPORT_MAX_LEADS: String(LEADS),
    EXPORT_BATCH_SIZE: String(BATCH),
    EXPORT_CONCURRENCY: '2',
    ENRICHMENT_REUSE_DAYS: '0',
  })
  const config = parseEnv(process.env)
  for (const name of ['a', 'b']) {
    const logs: string[] = []
    const boss = createBoss({ worker: true, config })
    await boss.start()
    const worker = await registerExportWorker(boss, { enrichers: createDefaultEnrichers(config), config, log: (message) => logs.push(`${name}: ${message}`) })
    workers.push({ boss, worker, logs })
  }
})

afterAll(async () => {
  for (const { boss, worker } of workers) {
    await worker.stop()
    await boss.stop({ graceful: false, close: true })
  }
  setExportQueueBoss(undefined)
  await sites?.stop()
  await registry?.stop()
  await closeDb()
  await admin?.end()
})

describe('one export, two workers', () => {
  it('splits the enrichment into batches both workers take; completes once, each success charged once', async () => {
    const userId = await createUserWithCredits(admin, 1_000)
    const exportId = await launch(userId)
    const account = await ended(exportId)
    expect(accountProblems(account, LEADS)).toEqual([])
    expect(await balanceMatchesLedger(admin, userId)).toBe(true)

    const { rows: batches } = await admin.query(
      `select singleton_key, data, state from pgboss.job where name = $1 and data->>'exportId' = $2 order by (data->>'from')::int`,
      [exportQueueNames().batch, exportId],
    )
    expect(batches.map((batch) => batch.data.from)).toEqual([0, 8, 16, 24, 32])
    expect(batches.map((batch) => batch.singleton_key)).toEqual([0, 1, 2, 3, 4].map((n) => `${exportId}:${n}`))
    // Both workers enriched part of it (the planning worker does not keep the batches to itself).
    for (const { logs } of workers) expect(logs.some((line) => line.includes(`export ${exportId}: batch `))).toBe(true)
    // Exactly one batch found nothing pending left and completed the export; the others ended partial (or skipped).
    // A batch logs its outcome after its last write, so the export can read as ended a moment before the last log line.
    const batchOutcomes = () => workers.flatMap(({ logs }) => logs.filter((line) => line.includes(`export ${exportId}: batch `)).map((line) => line.split(' ').pop()))
    const outcomes = await waitFor(async () => batchOutcomes().length >= batches.length && batchOutcomes(), 'every batch to log its outcome', 10_000)
    expect(outcomes.filter((outcome) => outcome === 'completed')).toHaveLength(1)
    // A sibling that ends at the very moment the export completes finds it completed (skipped): never interrupted.
    expect(outcomes.filter((outcome) => outcome === 'partial' || outcome === 'skipped')).toHaveLength(batches.length - 1)
  })

  it('out of credits in one batch interrupts the export once; a resume plans only the ranges left and completes it', async () => {
    const userId = await createUserWithCredits(admin, 12)
    const exportId = await launch(userId)
    const interrupted = await ended(exportId)
    expect(interrupted.status).toBe('interrupted')
    expect(interrupted.successes).toBe(12)
    expect(interrupted.ledgerRows).toBe(12)
    const { rows: row } = await admin.query('select can_resume, enrichment_status_details from public.exports where id = $1', [exportId])
    expect(row[0]).toMatchObject({ can_resume: true, enrichment_status_details: { reason: 'insufficient_credits' } })
    // The other batches stop at their next lead or progress write: nothing is charged after the interruption.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect((await exportAccount(admin, exportId)).ledgerRows).toBe(12)

    await admin.query(`select public.apply_credit_change($1, 1000, 'adjustment', $2)`, [userId, `test:${randomUUID()}`])
    expect(await resumeExport({ user: sessionUser(userId), exportId })).toMatchObject({ ok: true })
    const account = await ended(exportId)
    expect(accountProblems(account, LEADS)).toEqual([])
    expect(await balanceMatchesLedger(admin, userId)).toBe(true)
  })

  it('a dead batch fails the export (resumable) only once its sibling batches are over', { timeout: 60_000 }, async () => {
    const userId = await createUserWithCredits(admin, 10)
    const { rows } = await admin.query(
      `insert into public.exports (user_id, name, status, search_status, enrichment_status, search_params, enrichment_options, country)
       values ($1, 'dead batch', 'processing', 'completed', 'processing', $2, $3, 'France') returning id`,
      [userId, { ...LYON, lang: 'fr' }, { email: true }],
    )
    const exportId = rows[0].id as string
    const { boss } = workers[0]!
    // A sibling batch still queued (not startable for an hour), then the dead letter of another batch.
    const sibling = await boss.send(exportQueueNames().batch, { exportId, userId, from: 8, to: 16 }, { singletonKey: `${exportId}:1`, startAfter: 3_600 })
    await boss.send(exportQueueNames().dead, { exportId, userId, from: 0, to: 8 })
    await waitFor(async () => (await admin.query(`select 1 from pgboss.job where name = $1 and data->>'exportId' = $2 and state = 'completed'`, [exportQueueNames().dead, exportId])).rows.length > 0, 'the dead letter to be looked at')
    expect((await exportAccount(admin, exportId)).status).toBe('processing')

    await boss.cancel(exportQueueNames().batch, sibling as string)
    const failed = await waitFor(async () => {
      const { rows: exports } = await admin.query('select status, can_resume, enrichment_status_details from public.exports where id = $1', [exportId])
      return exports[0]?.status === 'failed' && exports[0]
    }, 'the export to fail', 45_000)
    expect(failed).toMatchObject({ can_resume: true, enrichment_status_details: { phase: 'run', error: 'the export run failed on every retry' } })
  })
})
