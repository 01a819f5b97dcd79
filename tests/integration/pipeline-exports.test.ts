// The export pipeline end to end: the service (as the user, RLS), pg-boss (real queue in the test database), the
// worker (server/worker-slot.ts), the real enrichment engine against the demo websites and the demo registry.
// Only this file consumes the export queue (the race/crash-at-processor tests insert exports without jobs).
import { spawn, type ChildProcess } from 'node:child_process'
import dgram from 'node:dgram'
import { randomUUID } from 'node:crypto'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { closeDb } from '#app/.server/db.ts'
import { parseEnv } from '#app/.server/env.server.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import { exportQueueNames } from '#app/.server/exports/queue.ts'
import { addEnrichment, createExport, deleteExport, queueExport, resumeExport } from '#app/.server/exports/service.ts'
import { NO_ENRICHMENT, type EnrichmentOptions } from '#app/domain/enrichment.ts'
import { type DemoRegistry, startDemoRegistry } from '#server/demo/registry.ts'
import { type DemoWebsites, demoSiteTruth, startDemoWebsites } from '#server/demo/websites.ts'
import { type RunningWorker, startWorker } from '#server/worker-slot.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
const MAX_LEADS = 24
const ALL: EnrichmentOptions = { phone: true, website: true, email: true, technologies: true, social: true, admin_fr_info: true }
const LYON = { sector: 'boulangerie', country: 'France', countryCode: 'FR', region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon' }
const TASK_COLUMNS = ['phone', 'website', 'email', 'technologies', 'social_media', 'admin_fr_info'].map((t) => `${t}_status`)

let admin: pg.Pool
let sites: DemoWebsites
let registry: DemoRegistry
let worker: RunningWorker | null = null
const logs: string[] = []

function sum(expr: (column: string) => string): string {
  return TASK_COLUMNS.map((column) => `(${expr(column)})::int`).join(' + ')
}

async function createUser(credits?: number): Promise<SessionUser> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@example.test`, {}])
  if (credits !== undefined) await setCredits(id, credits)
  return personalSession(id, `${id}@example.test`)
}

async function setCredits(userId: string, target: number) {
  const { rows } = await admin.query<{ remaining_credits: number }>('select remaining_credits from public.user_credits where user_id = $1', [userId])
  const delta = target - (rows[0]?.remaining_credits ?? 0)
  if (delta !== 0) await admin.query(`select public.apply_credit_change($1, $2, 'adjustment', $3)`, [userId, delta, `test:${randomUUID()}`])
}

async function exportRow(id: string) {
  const { rows } = await admin.query('select * from public.exports where id = $1', [id])
  return rows[0] as Record<string, any> | undefined
}

async function taskStats(exportId: string) {
  const { rows } = await admin.query(
    `select count(*)::int as links,
            coalesce(sum(${sum((c) => `${c} = 'success'`)}), 0)::int as successes,
            coalesce(sum(${sum((c) => `${c} = 'pending'`)}), 0)::int as pending,
            coalesce(sum(${sum((c) => `${c} <> 'not_required'`)}), 0)::int as total
       from public.export_leads where export_id = $1`,
    [exportId],
  )
  return rows[0] as { links: number; successes: number; pending: number; total: number }
}

async function ledger(exportId: string) {
  const { rows } = await admin.query(
    `select count(*)::int as rows, coalesce(-sum(delta), 0)::int as charged, count(distinct idempotency_key)::int as keys
       from public.credit_ledger where export_id = $1 and reason = 'enrichment'`,
    [exportId],
  )
  return rows[0] as { rows: number; charged: number; keys: number }
}

/** sum(ledger deltas) = remaining credits: the balance is exactly its history. */
async function expectBalanced(userId: string) {
  const { rows } = await admin.query(
    `select (select coalesce(sum(delta), 0)::int from public.credit_ledger where user_id = $1) as ledger,
            (select remaining_credits from public.user_credits where user_id = $1) as remaining`,
    [userId],
  )
  expect(rows[0].ledger).toBe(rows[0].remaining)
  return rows[0].remaining as number
}

async function waitFor<T>(probe: () => Promise<T | null | undefined | false>, { timeoutMs = 30_000, intervalMs = 100, what = 'condition' } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

function waitForStatus(exportId: string, statuses: string[], timeoutMs = 60_000) {
  return waitFor(
    async () => {
      const row = await exportRow(exportId)
      return row && statuses.includes(row.status) ? row : null
    },
    { timeoutMs, what: `export ${exportId} to be ${statuses.join('/')}` },
  )
}

/** The states of an export's run jobs (search, then planning its batches), oldest first. */
async function jobStates(exportId: string, queue = exportQueueNames().run) {
  const { rows } = await admin.query(`select state from pgboss.job where name = $1 and data->>'exportId' = $2 order by created_on, singleton_key`, [queue, exportId])
  return rows.map((row) => row.state as string)
}

/** The states of an export's batch jobs (its enrichment, queue.ts), oldest first. */
function batchStates(exportId: string) {
  return jobStates(exportId, exportQueueNames().batch)
}

/** A job settles just after its handler returns (pg-boss completes it after the handler): wait for it. */
async function expectJobStates(exportId: string, expected: string[], queue = exportQueueNames().run) {
  let last: string[] = []
  await waitFor(
    async () => {
      last = await jobStates(exportId, queue)
      return JSON.stringify(last) === JSON.stringify(expected) || null
    },
    { timeoutMs: 10_000, what: `job states ${JSON.stringify(expected)} of ${exportId}` },
  ).catch(() => {})
  expect(last).toEqual(expected)
}

function expectBatchStates(exportId: string, expected: string[]) {
  return expectJobStates(exportId, expected, exportQueueNames().batch)
}

async function launch(user: SessionUser, options: Partial<EnrichmentOptions> = ALL, name = 'Boulangeries Lyon') {
  const result = await createExport({ user, name, criteria: LYON, enrichmentOptions: { ...NO_ENRICHMENT, ...options }, idempotencyKey: randomUUID(), lang: 'fr' })
  if (!result.ok) throw new Error(`createExport failed: ${result.code}`)
  return result.exportId
}

async function startTestWorker() {
  worker = await startWorker({ log: (message) => logs.push(message), enrichers: createDefaultEnrichers(parseEnv(process.env)) })
  return worker
}

async function stopTestWorker() {
  const running = worker
  worker = null
  await running?.stop()
}

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 4 })
  sites = await startDemoWebsites()
  registry = await startDemoRegistry()
  // What server/start.ts sets for the demo source, and the worker reads. Own queue: this file's worker must not
  // take jobs other test files queue on the shared database.
  Object.assign(process.env, {
    EXPORT_QUEUE: `export-run-test-${process.pid}`,
    LEADS_SOURCE: 'demo',
    DEMO_WEBSITES_URL: sites.url,
    REGISTRY_URL: registry.url,
    ENRICH_ALLOW_HOSTS: [new URL(sites.url).host, new URL(registry.url).host].join(','),
    EXPORT_MAX_LEADS: String(MAX_LEADS),
    EXPORT_CONCURRENCY: '8',
    PGBOSS_SUPERVISE_SECONDS: '2',
  })
  await startTestWorker()
})

afterAll(async () => {
  await stopTestWorker()
  await registry?.stop()
  await sites?.stop()
  await closeDb()
  await admin?.end()
})

describe('create → run → completed', () => {
  it('enriches every lead with the real engine, charges exactly the successes and balances the ledger', async () => {
    const user = await createUser()
    const before = await expectBalanced(user.id)
    const exportId = await launch(user)

    const created = await exportRow(exportId)
    expect(created).toMatchObject({
      user_id: user.id,
      name: 'Boulangeries Lyon',
      search_params: { sector: 'boulangerie', city: 'Lyon', department: 'Rhône', region: 'Auvergne-Rhône-Alpes', country: 'France' },
      enrichment_options: ALL,
      business_types: ['boulangerie'],
      country: 'France',
      city: 'Lyon',
      bbox: null,
      polygon: null,
    })

    const done = await waitForStatus(exportId, ['completed', 'failed', 'interrupted'])
    expect(done.status).toBe('completed')
    expect(done).toMatchObject({ search_status: 'completed', enrichment_status: 'completed', lead_count: MAX_LEADS, can_resume: false })
    expect(Number(done.progress_percentage)).toBe(100)
    expect(done.completed_at).toBeInstanceOf(Date)

    const stats = await taskStats(exportId)
    expect(stats).toMatchObject({ links: MAX_LEADS, pending: 0, total: MAX_LEADS * 6 })
    expect(done.progress_info).toEqual({ phase: 'done', done: stats.total, total: stats.total, successes: stats.successes })
    expect(stats.successes).toBeGreaterThan(MAX_LEADS)

    // Credits: one per success, in the ledger under unique keys, and the balance is its history.
    expect(done.total_credits_used).toBe(stats.successes)
    expect(await ledger(exportId)).toEqual({ rows: stats.successes, charged: stats.successes, keys: stats.successes })
    expect(await expectBalanced(user.id)).toBe(before - stats.successes)

    // What was found is what the demo sites hold.
    const { rows: leads } = await admin.query(
      `select l.*, el.phone_status, el.website_status, el.email_status, el.technologies_status, el.social_media_status, el.admin_fr_info_status
         from public.export_leads el join public.leads l on l.id = el.lead_id where el.export_id = $1 order by el.position`,
      [exportId],
    )
    const found = { email: 0, social: 0, technologies: 0, admin: 0, mobile: 0 }
    for (const lead of leads) {
      if (!lead.website) {
        expect(lead.website_status).toBe('not_found')
        expect(lead.email_status).toBe('not_found')
        continue
      }
      const slug = /\/sites\/([^/]+)\//.exec(lead.website)?.[1] as string
      const truth = demoSiteTruth(slug)
      expect(lead.website_status).toBe('success')
      if (lead.email_status === 'success') {
        found.email++
        expect(lead.email.length).toBeGreaterThan(0)
        for (const email of lead.email) expect(truth.emails).toContain(email)
        expect(lead.email).not.toContain(truth.privateEmail)
      } else expect(lead.email).toEqual([])
      if (lead.social_media_status === 'success') {
        found.social++
        for (const url of Object.values(lead.social_media)) expect(Object.values(truth.socialMedia)).toContain(url)
      }
      if (lead.technologies_status === 'success') {
        found.technologies++
        expect(Object.keys(lead.technologies).length).toBeGreaterThan(0)
      }
      if (lead.admin_fr_info_status === 'success') {
        found.admin++
        expect(lead.admin_fr_info.results.length).toBeGreaterThan(0)
        expect(lead.admin_fr_info.results[0].siren).toMatch(/^\d{9}$/)
      }
      if (lead.phone_status === 'success') {
        expect(lead.phone).toMatch(/^\+33 /)
        // Every business number with its type: the main one ranked 0, the mobile a contact page prints after it.
        expect(lead.phone_sources[lead.phone]).toMatchObject({ rank: 0 })
        if (truth.mobile) {
          found.mobile++
          const mobile = `+33 ${truth.mobile.slice(1)}` // "06 12 …" → "+33 6 12 …"
          expect(lead.phone_sources[mobile]).toMatchObject({ type: 'mobile', page: expect.stringContaining('/contact') })
        }
      }
    }
    expect(found.email).toBeGreaterThan(0)
    expect(found.social).toBeGreaterThan(0)
    expect(found.technologies).toBeGreaterThan(0)
    expect(found.admin).toBeGreaterThan(0)
    expect(found.mobile).toBeGreaterThan(0)
    await expectJobStates(exportId, ['completed'])
    await expectBatchStates(exportId, ['completed'])
  })
})

describe('credits', () => {
  it('a user with 5 credits is interrupted after exactly 5 successes; resume after a top-up finishes it', async () => {
    const user = await createUser(5)
    const exportId = await launch(user, { email: true, website: true, social: true })
    const interrupted = await waitForStatus(exportId, ['interrupted', 'completed', 'failed'])
    expect(interrupted).toMatchObject({ status: 'interrupted', can_resume: true, enrichment_status: 'interrupted', total_credits_used: 5 })
    expect(interrupted.enrichment_status_details).toMatchObject({ reason: 'insufficient_credits' })
    const stopped = await taskStats(exportId)
    expect(stopped.successes).toBe(5)
    expect(stopped.pending).toBeGreaterThan(0)
    expect(await ledger(exportId)).toEqual({ rows: 5, charged: 5, keys: 5 })
    expect(await expectBalanced(user.id)).toBe(0)

    // Resume needs a credit.
    expect(await resumeExport({ user, exportId })).toEqual({ ok: false, status: 402, code: 'insufficient_credits' })
    await setCredits(user.id, 1000)
    expect(await resumeExport({ user, exportId })).toEqual({ ok: true, exportId })
    expect(await exportRow(exportId)).toMatchObject({ status: 'processing', can_resume: false })
    // Not resumable twice.
    expect(await resumeExport({ user, exportId })).toMatchObject({ ok: false, code: 'not_resumable' })

    const done = await waitForStatus(exportId, ['completed', 'interrupted', 'failed'])
    expect(done.status).toBe('completed')
    const stats = await taskStats(exportId)
    expect(stats.pending).toBe(0)
    expect(done.total_credits_used).toBe(stats.successes)
    expect(await ledger(exportId)).toEqual({ rows: stats.successes, charged: stats.successes, keys: stats.successes })
    expect(await expectBalanced(user.id)).toBe(1000 - (stats.successes - 5))
  })

  it('refuses to create an export without credits (nothing saved, nothing queued)', async () => {
    const user = await createUser(0)
    const result = await createExport({ user, name: 'x', criteria: LYON, enrichmentOptions: ALL, idempotencyKey: randomUUID(), lang: 'fr' })
    expect(result).toEqual({ ok: false, status: 402, code: 'insufficient_credits' })
    const { rows } = await admin.query('select count(*)::int as n from public.exports where user_id = $1', [user.id])
    expect(rows[0].n).toBe(0)
  })
})

describe('add enrichment', () => {
  it('enriches only the new types and charges only them', async () => {
    const user = await createUser()
    const exportId = await launch(user, { email: true, website: true })
    const first = await waitForStatus(exportId, ['completed', 'failed', 'interrupted'])
    expect(first.status).toBe('completed')
    const { rows: before } = await admin.query('select lead_id, email_status, website_status, phone_status from public.export_leads where export_id = $1 order by lead_id', [exportId])
    expect(before.every((row) => row.phone_status === 'not_required')).toBe(true)
    const charged = first.total_credits_used as number

    expect(await addEnrichment({ user, exportId, options: ['email'] })).toMatchObject({ ok: false, code: 'add_enrichment_none' })
    expect(await addEnrichment({ user, exportId, options: ['phone', 'email'] })).toEqual({ ok: true, exportId, added: ['phone'] })
    // Still queued or running: add enrichment is only for completed exports.
    expect(await addEnrichment({ user, exportId, options: ['social'] })).toMatchObject({ ok: false, code: 'not_completed' })

    const done = await waitForStatus(exportId, ['completed', 'failed', 'interrupted'])
    expect(done.status).toBe('completed')
    expect(done.enrichment_options).toMatchObject({ email: true, website: true, phone: true })
    const { rows: after } = await admin.query('select lead_id, email_status, website_status, phone_status from public.export_leads where export_id = $1 order by lead_id', [exportId])
    for (const [i, row] of after.entries()) {
      expect(row.email_status).toBe(before[i].email_status)
      expect(row.website_status).toBe(before[i].website_status)
      expect(['success', 'not_found', 'failed']).toContain(row.phone_status)
    }
    const phoneSuccesses = after.filter((row) => row.phone_status === 'success').length
    expect(phoneSuccesses).toBeGreaterThan(0)
    expect(done.total_credits_used).toBe(charged + phoneSuccesses)
    const { rows: types } = await admin.query(
      `select enrichment_type, count(*)::int as n from public.credit_ledger where export_id = $1 and created_at > $2 group by 1`,
      [exportId, first.completed_at],
    )
    expect(types).toEqual([{ enrichment_type: 'phone', n: phoneSuccesses }])
    await expectBalanced(user.id)
  })
})

describe('double submit', () => {
  it('the same idempotency key creates one export and one job, even concurrently', async () => {
    const user = await createUser()
    const args = { user, name: 'Twice', criteria: LYON, enrichmentOptions: { ...NO_ENRICHMENT, email: true }, idempotencyKey: randomUUID(), lang: 'fr' as const }
    const [a, b] = await Promise.all([createExport(args), createExport(args)])
    expect(a.ok && b.ok).toBe(true)
    if (!a.ok || !b.ok) return
    expect(a.exportId).toBe(b.exportId)
    expect([a.duplicate, b.duplicate].sort()).toEqual([false, true])
    const again = await createExport(args)
    expect(again).toEqual({ ok: true, exportId: a.exportId, duplicate: true })
    const { rows } = await admin.query('select count(*)::int as n from public.exports where user_id = $1', [user.id])
    expect(rows[0].n).toBe(1)
    await waitForStatus(a.exportId, ['completed'])
    await expectJobStates(a.exportId, ['completed'])
  })
})

describe('queue (POST /api/exports/queue)', () => {
  it('is idempotent: it re-queues only a processing export that has no job', async () => {
    const user = await createUser()
    const other = await createUser()
    const exportId = await launch(user, { email: true })
    await waitForStatus(exportId, ['completed'])
    expect(await queueExport({ user, exportId })).toEqual({ ok: true, exportId, queued: false })
    await expectJobStates(exportId, ['completed'])

    // A processing export whose job is gone (inserted without one here).
    const { rows } = await admin.query(
      `insert into public.exports (user_id, name, status, search_status, enrichment_status, search_params, enrichment_options, country, city)
       values ($1, 'orphan', 'processing', 'pending', 'pending', $2, $3, 'France', 'Lyon') returning id`,
      [user.id, { ...LYON, lang: 'fr' }, { email: true }],
    )
    const orphan = rows[0].id as string
    expect(await queueExport({ user: other, exportId: orphan })).toEqual({ ok: false, status: 404, code: 'not_found' })
    expect(await queueExport({ user, exportId: orphan })).toEqual({ ok: true, exportId: orphan, queued: true })
    expect(await queueExport({ user, exportId: orphan })).toMatchObject({ ok: true, queued: false })
    expect((await waitForStatus(orphan, ['completed', 'failed', 'interrupted'])).status).toBe('completed')
    await expectJobStates(orphan, ['completed'])
  })

  it('a processing export whose run is over but whose batches are queued has its job', async () => {
    const user = await createUser()
    const { rows } = await admin.query(
      `insert into public.exports (user_id, name, status, search_status, enrichment_status, search_params, enrichment_options, country, city)
       values ($1, 'enriching', 'processing', 'completed', 'processing', $2, $3, 'France', 'Lyon') returning id`,
      [user.id, { ...LYON, lang: 'fr' }, { email: true }],
    )
    const exportId = rows[0].id as string
    const boss = worker!.boss
    // A batch that starts in an hour: queued, not yet taken.
    const batchJob = await boss.send(exportQueueNames().batch, { exportId, userId: user.id, from: 0, to: 50 }, { singletonKey: `${exportId}:0`, startAfter: 3600 })
    expect(batchJob).toBeTruthy()
    expect(await queueExport({ user, exportId })).toEqual({ ok: true, exportId, queued: false })
    expect(await jobStates(exportId, exportQueueNames().run)).toEqual([])
    await boss.cancel(exportQueueNames().batch, batchJob!)
  })
})

describe('dead letters', () => {
  it('a run dead-lettered after its last retry marks its export failed and resumable', async () => {
    const user = await createUser()
    const { rows } = await admin.query(
      `insert into public.exports (user_id, name, status, search_status, enrichment_status, search_params, enrichment_options, country)
       values ($1, 'dead', 'processing', 'completed', 'processing', $2, $3, 'France') returning id`,
      [user.id, { ...LYON, lang: 'fr' }, { email: true }],
    )
    const exportId = rows[0].id as string
    await worker?.boss.send(exportQueueNames().dead, { exportId, userId: user.id })
    const failed = await waitForStatus(exportId, ['failed'])
    expect(failed).toMatchObject({ status: 'failed', can_resume: true, enrichment_status_details: { phase: 'run', error: 'the export run failed on every retry' } })
  })
})

describe('delete', () => {
  it('deleting mid-run stops the worker cleanly and removes the rows', async () => {
    const user = await createUser()
    // A slow site server makes the run long enough to delete it midway.
    const slow = await startDemoWebsites({ latencyMs: 150 })
    const previous = { url: process.env.DEMO_WEBSITES_URL, allow: process.env.ENRICH_ALLOW_HOSTS }
    await stopTestWorker()
    process.env.DEMO_WEBSITES_URL = slow.url
    process.env.ENRICH_ALLOW_HOSTS = `${previous.allow},${new URL(slow.url).host}`
    await startTestWorker()
    try {
      const exportId = await launch(user, { email: true, website: true, technologies: true })
      await waitFor(async () => ((await taskStats(exportId)).successes > 0 ? true : null), { what: 'some progress' })
      const before = logs.length
      expect(await deleteExport({ user, exportId })).toEqual({ ok: true, exportId })

      expect(await exportRow(exportId)).toBeUndefined()
      expect((await taskStats(exportId)).links).toBe(0)
      const { rows: leads } = await admin.query('select count(*)::int as n from public.leads where user_id = $1', [user.id])
      expect(leads[0].n).toBe(0)
      // The batch stops without an error, and its job is cancelled (not failed, not retried); the run had handed over.
      await waitFor(async () => logs.slice(before).some((line) => line.startsWith(`export ${exportId}: batch `) && line.endsWith(' deleted')) || null, { what: 'the batch to stop' })
      expect(logs.slice(before).filter((line) => line.includes(exportId) && /failed/.test(line))).toEqual([])
      await expectJobStates(exportId, ['completed'])
      await expectBatchStates(exportId, ['cancelled'])
      // Nothing is charged after the delete, and the ledger keeps what was (billing history).
      const charged = (await ledger(exportId)).charged
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect((await ledger(exportId)).charged).toBe(charged)
      await expectBalanced(user.id)
    } finally {
      await stopTestWorker()
      process.env.DEMO_WEBSITES_URL = previous.url
      process.env.ENRICH_ALLOW_HOSTS = previous.allow
      await slow.stop()
      await startTestWorker()
    }
  })

  it('keeps leads another export of the user still lists', async () => {
    const user = await createUser()
    const one = await launch(user, { email: true }, 'one')
    const two = await launch(user, { email: true }, 'two')
    await waitForStatus(one, ['completed'])
    await waitForStatus(two, ['completed'])
    const { rows: shared } = await admin.query('select count(*)::int as n from public.leads where user_id = $1', [user.id])
    expect(shared[0].n).toBe(MAX_LEADS) // same search: the leads are deduplicated per user
    expect(await deleteExport({ user, exportId: one })).toMatchObject({ ok: true })
    const { rows: left } = await admin.query('select count(*)::int as n from public.leads where user_id = $1', [user.id])
    expect(left[0].n).toBe(MAX_LEADS)
    expect((await taskStats(two)).links).toBe(MAX_LEADS)
  })
})

describe('fairness', () => {
  // These runs must take crawl time to overlap: with reuse on, the Lyon businesses earlier tests enriched would
  // come from the results store at once (reuse is tested in enrichment-reuse.test.ts).
  beforeAll(() => {
    process.env.ENRICHMENT_REUSE_DAYS = '0'
  })
  afterAll(() => {
    delete process.env.ENRICHMENT_REUSE_DAYS
  })

  it("one user's batch of exports cannot make another user's export wait for all of it", { timeout: 180_000 }, async () => {
    await stopTestWorker()
    const busy = await createUser()
    const other = await createUser()
    // Queued before any worker runs: three exports of one user, then one of another.
    const batch = [await launch(busy, { phone: true }), await launch(busy, { phone: true }), await launch(busy, { phone: true })]
    const small = await launch(other, { phone: true })
    await startTestWorker() // 2 slots (EXPORT_WORKER_JOBS default)
    for (const id of [...batch, small]) expect((await waitForStatus(id, ['completed', 'failed', 'interrupted'], 150_000)).status).toBe('completed')

    // Each export's enrichment is its batch job (one per export here: fewer leads than EXPORT_BATCH_SIZE).
    const { rows } = await admin.query<{ id: string; started_on: Date; completed_on: Date }>(
      `select data->>'exportId' as id, started_on, completed_on from pgboss.job where name = $1 and data->>'exportId' = any($2) and state = 'completed'`,
      [exportQueueNames().batch, [...batch, small]],
    )
    const runs = new Map(rows.map((row) => [row.id, row]))
    const start = (id: string) => runs.get(id)!.started_on.getTime()
    const end = (id: string) => runs.get(id)!.completed_on.getTime()
    // The other user's export starts before the busy user's second one: the busy user never held both slots.
    const busyStarts = batch.map(start).sort((a, b) => a - b)
    expect(start(small)).toBeLessThan(busyStarts[1]!)
    expect(end(small)).toBeGreaterThan(start(small))
  })

  it("a user already holding every slot gives one up to another user's export, which loses nothing", { timeout: 180_000 }, async () => {
    const slow = await startDemoWebsites({ latencyMs: 250 })
    await stopTestWorker()
    const previous = { url: process.env.DEMO_WEBSITES_URL, allow: process.env.ENRICH_ALLOW_HOSTS }
    try {
      process.env.DEMO_WEBSITES_URL = slow.url
      process.env.ENRICH_ALLOW_HOSTS = `${previous.allow},${new URL(slow.url).host}`
      process.env.EXPORT_CONCURRENCY = '2'
      process.env.EXPORT_FAIR_WAIT_SECONDS = '2'
      await startTestWorker()
      const busy = await createUser(1000)
      const other = await createUser()
      const batch = [await launch(busy, { email: true, website: true }), await launch(busy, { email: true, website: true })]
      // Both slots taken by the busy user, both in the enrichment phase.
      await waitFor(async () => {
        const rows = await Promise.all(batch.map(exportRow))
        const stats = await Promise.all(batch.map(taskStats))
        return rows.every((row) => row?.status === 'processing') && stats.every((s) => s.successes > 0) && (await Promise.all(batch.map(batchStates))).every((states) => states.includes('active'))
      }, { timeoutMs: 60_000, what: "the busy user's exports to hold both slots" })
      const waitingSince = Date.now()
      const small = await launch(other, { phone: true })
      await waitFor(async () => (await batchStates(small)).includes('active') || (await exportRow(small))?.status === 'completed', { timeoutMs: 30_000, what: "the other user's export to start enriching" })
      // It started while the busy user's exports were still running: one of them yielded its slot.
      const stillRunning = (await Promise.all(batch.map(exportRow))).filter((row) => row?.status === 'processing')
      expect(stillRunning.length).toBeGreaterThan(0)
      expect(Date.now() - waitingSince).toBeLessThan(20_000)
      expect(logs.some((line) => /yields its slot/.test(line))).toBe(true)

      for (const id of [...batch, small]) expect((await waitForStatus(id, ['completed', 'failed', 'interrupted'], 150_000)).status).toBe('completed')
      // The yielded run went on where it stopped: every task done once, charged once.
      for (const id of batch) {
        const stats = await taskStats(id)
        expect(stats.pending).toBe(0)
        expect((await exportRow(id))!.total_credits_used).toBe(stats.successes)
        expect(await ledger(id)).toEqual({ rows: stats.successes, charged: stats.successes, keys: stats.successes })
      }
      await expectBalanced(busy.id)
    } finally {
      await stopTestWorker()
      process.env.DEMO_WEBSITES_URL = previous.url
      process.env.ENRICH_ALLOW_HOSTS = previous.allow
      delete process.env.EXPORT_CONCURRENCY
      delete process.env.EXPORT_FAIR_WAIT_SECONDS
      await slow.stop()
      await startTestWorker()
    }
  })

  it("another user's export waits no longer than EXPORT_FAIR_WAIT_SECONDS (+ a bounded margin) for a slot", { timeout: 180_000 }, async () => {
    const FAIR_WAIT_SECONDS = 2
    /** The check interval, the yielding run's grace to unwind and the next fetch: what the wait may exceed the setting by. */
    const MARGIN_MS = 1_500
    const slow = await startDemoWebsites({ latencyMs: 250 })
    // A DNS server that never answers: every email verification of the busy user's runs waits its full timeout,
    // work an abort cannot cut short (as with a slow resolver in production).
    const silentDns = dgram.createSocket('udp4')
    await new Promise<void>((resolve) => silentDns.bind(0, '127.0.0.1', resolve))
    await stopTestWorker()
    const previous = { url: process.env.DEMO_WEBSITES_URL, allow: process.env.ENRICH_ALLOW_HOSTS }
    try {
      Object.assign(process.env, {
        DEMO_WEBSITES_URL: slow.url,
        ENRICH_ALLOW_HOSTS: `${previous.allow},${new URL(slow.url).host}`,
        EXPORT_CONCURRENCY: '2',
        EXPORT_FAIR_WAIT_SECONDS: String(FAIR_WAIT_SECONDS),
        EMAIL_DNS_SERVERS: `127.0.0.1:${silentDns.address().port}`,
        EMAIL_DNS_TIMEOUT_MS: '4000',
      })
      await startTestWorker()
      const busy = await createUser(1000)
      const other = await createUser()
      // Three exports of the busy user: two hold both slots (in the enrichment phase), the third waits behind them.
      const batch = [await launch(busy, { email: true }), await launch(busy, { email: true }), await launch(busy, { email: true })]
      await waitFor(async () => {
        const running = await Promise.all(batch.map(async (id) => (await batchStates(id)).includes('active')))
        return running.filter(Boolean).length === 2
      }, { timeoutMs: 60_000, what: "the busy user's exports to hold both slots" })
      const small = await launch(other, { phone: true })
      await waitFor(async () => (await batchStates(small)).some((state) => state === 'active' || state === 'completed'), { timeoutMs: 30_000, what: "the other user's export to start enriching" })

      // Recorded by pg-boss in the database: when its batch was queued (its search done), and when a worker started it.
      const { rows } = await admin.query<{ waited_ms: number }>(
        `select extract(epoch from started_on - created_on) * 1000 as waited_ms from pgboss.job where name = $1 and data->>'exportId' = $2 and started_on is not null order by started_on limit 1`,
        [exportQueueNames().batch, small],
      )
      const waited = Number(rows[0]!.waited_ms)
      console.info(`fairness: the other user's export waited ${Math.round(waited)} ms for a slot (EXPORT_FAIR_WAIT_SECONDS=${FAIR_WAIT_SECONDS})`)
      expect(logs.some((line) => /yields its slot/.test(line))).toBe(true)
      expect(waited).toBeLessThanOrEqual(FAIR_WAIT_SECONDS * 1_000 + MARGIN_MS)
      expect((await waitForStatus(small, ['completed', 'failed', 'interrupted'], 60_000)).status).toBe('completed')
    } finally {
      await stopTestWorker()
      Object.assign(process.env, { DEMO_WEBSITES_URL: previous.url, ENRICH_ALLOW_HOSTS: previous.allow })
      for (const name of ['EXPORT_CONCURRENCY', 'EXPORT_FAIR_WAIT_SECONDS', 'EMAIL_DNS_SERVERS', 'EMAIL_DNS_TIMEOUT_MS']) delete process.env[name]
      silentDns.close()
      await slow.stop()
      await startTestWorker()
    }
  })
})

describe('ownership (RLS)', () => {
  it("another user's export is not_found for resume, add enrichment and delete, and stays untouched", async () => {
    const owner = await createUser(3)
    const other = await createUser()
    const exportId = await launch(owner, { email: true, website: true, social: true })
    const row = await waitForStatus(exportId, ['interrupted', 'completed'])
    expect(row.status).toBe('interrupted')
    expect(await resumeExport({ user: other, exportId })).toEqual({ ok: false, status: 404, code: 'not_found' })
    expect(await addEnrichment({ user: other, exportId, options: ['phone'] })).toEqual({ ok: false, status: 404, code: 'not_found' })
    expect(await deleteExport({ user: other, exportId })).toEqual({ ok: false, status: 404, code: 'not_found' })
    expect(await deleteExport({ user: other, exportId: 'not-a-uuid' })).toEqual({ ok: false, status: 404, code: 'not_found' })
    expect(await exportRow(exportId)).toMatchObject({ status: 'interrupted', can_resume: true })
    // The owner's own add-enrichment on a non-completed export.
    expect(await addEnrichment({ user: owner, exportId, options: ['phone'] })).toEqual({ ok: false, status: 409, code: 'not_completed' })
  })
})

describe('validation (SPEC §5)', () => {
  it('answers error codes and saves nothing', async () => {
    const user = await createUser()
    const base = { user, name: 'ok', criteria: LYON, enrichmentOptions: { ...NO_ENRICHMENT, email: true }, idempotencyKey: randomUUID(), lang: 'fr' as const }
    expect(await createExport({ ...base, name: '  ' })).toEqual({ ok: false, status: 400, code: 'name_required' })
    expect(await createExport({ ...base, name: 'x'.repeat(121) })).toEqual({ ok: false, status: 400, code: 'name_too_long' })
    expect(await createExport({ ...base, enrichmentOptions: NO_ENRICHMENT })).toEqual({ ok: false, status: 400, code: 'no_enrichment' })
    expect(await createExport({ ...base, criteria: { sector: 'boulangerie', country: '', region: '', department: '', city: '' } })).toEqual({
      ok: false,
      status: 400,
      code: 'no_geography',
    })
    expect(await createExport({ ...base, user: null })).toEqual({ ok: false, status: 401, code: 'unauthenticated' })
    expect(await addEnrichment({ user, exportId: randomUUID(), options: [] })).toEqual({ ok: false, status: 400, code: 'add_enrichment_none' })
    expect(await resumeExport({ user, exportId: randomUUID() })).toEqual({ ok: false, status: 404, code: 'not_found' })
    const { rows } = await admin.query('select count(*)::int as n from public.exports where user_id = $1', [user.id])
    expect(rows[0].n).toBe(0)
  })
})

describe('crash', () => {
  it('a worker process killed mid-export (SIGKILL) loses nothing: another worker finishes it, nothing charged twice', { timeout: 120_000 }, async () => {
    const user = await createUser(1000)
    const slow = await startDemoWebsites({ latencyMs: 60 })
    await stopTestWorker()
    let child: ChildProcess | null = null
    const previous = { url: process.env.DEMO_WEBSITES_URL, allow: process.env.ENRICH_ALLOW_HOSTS }
    try {
      process.env.DEMO_WEBSITES_URL = slow.url
      process.env.ENRICH_ALLOW_HOSTS = `${previous.allow},${new URL(slow.url).host}`
      // A dead worker's claim lapses after the heartbeat (10 s is pg-boss's minimum).
      process.env.EXPORT_HEARTBEAT_SECONDS = '10'
      const childOutput: string[] = []
      child = spawn(process.execPath, ['--import', 'tsx', 'server/worker.ts'], {
        cwd: ROOT,
        env: { ...process.env, EXPORT_CONCURRENCY: '2', EXPORT_MAX_LEADS: '40' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      child.stdout?.on('data', (chunk) => childOutput.push(String(chunk)))
      child.stderr?.on('data', (chunk) => childOutput.push(String(chunk)))
      await waitFor(async () => childOutput.join('').includes('Worker started') || null, { timeoutMs: 30_000, what: `the worker process (${childOutput.join('')})` })

      const exportId = await launch(user, { email: true, website: true, social: true, phone: true })
      await waitFor(async () => ((await taskStats(exportId)).successes >= 6 ? true : null), { timeoutMs: 30_000, what: 'the child to make progress' })
      child.kill('SIGKILL')
      await new Promise((resolve) => child?.once('exit', resolve))
      const atCrash = await taskStats(exportId)
      expect(atCrash.pending).toBeGreaterThan(0)
      await expectJobStates(exportId, ['completed'])
      await expectBatchStates(exportId, ['active'])

      // Another worker (this process) takes over once the dead one's heartbeat lapses.
      process.env.EXPORT_MAX_LEADS = '40'
      await startTestWorker()
      const done = await waitForStatus(exportId, ['completed', 'failed', 'interrupted'], 90_000)
      expect(done.status).toBe('completed')
      const stats = await taskStats(exportId)
      expect(stats).toMatchObject({ links: 40, pending: 0 })
      expect(done.lead_count).toBe(40)
      expect(done.total_credits_used).toBe(stats.successes)
      expect(await ledger(exportId)).toEqual({ rows: stats.successes, charged: stats.successes, keys: stats.successes })
      await expectBalanced(user.id)
      await expectBatchStates(exportId, ['completed'])
    } finally {
      if (child && child.exitCode === null) child.kill('SIGKILL')
      await stopTestWorker()
      process.env.DEMO_WEBSITES_URL = previous.url
      process.env.ENRICH_ALLOW_HOSTS = previous.allow
      process.env.EXPORT_MAX_LEADS = String(MAX_LEADS)
      delete process.env.EXPORT_HEARTBEAT_SECONDS
      await slow.stop()
      await startTestWorker()
    }
  })
})
