// Saved searches against the real (embedded) Postgres: runs deliver only businesses the user never received (by
// source id and by SIRET/SIREN), the plan and the per-run budget are checked at each run (a refusal is recorded and
// told), and the scheduler — driven by pg-boss with an injected clock — runs each date once across a restart and with
// two consumers. The API's two operations go through the client typed by the OpenAPI document.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import type { PgBoss } from 'pg-boss'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { closeDb, withUser } from '#app/.server/db.ts'
import { parseEnv } from '#app/.server/env.server.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import { createBoss } from '#app/.server/exports/queue.ts'
import { runSavedSearch } from '#app/.server/saved-searches/run.ts'
import { registerSavedSearchJobs, runDueSavedSearches, SAVED_SEARCH_QUEUE } from '#app/.server/saved-searches/scheduler.ts'
import { createSavedSearch, getSavedSearch, listSavedSearches, setPaused, updateSavedSearch } from '#app/.server/saved-searches/store.ts'
import type { Business, LeadSource } from '#app/.server/sources/types.ts'
import { NO_FILTERS } from '#app/domain/search-filters.ts'
import type { UpdateSavedSearch } from '#app/domain/saved-search-commands.ts'
import { createApiUser } from '#tests/support/api-client.ts'
import { resetLimit } from '#app/.server/rate-limit.ts'
import { saveSearchCommand } from '#app/.server/saved-searches/save-command.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

let admin: pg.Pool
let enrichers: Enrichers

beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  process.env.LEADS_SOURCE = 'demo'
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 4 })
  enrichers = createDefaultEnrichers(parseEnv(process.env))
})
afterAll(async () => {
  await enrichers?.close?.()
  await closeDb()
  await admin.end()
})

const BREST = { sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest' }

async function createUser({ plan, credits = 1000 }: { plan?: 'professional'; credits?: number } = {}): Promise<SessionUser> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@example.test`, {}])
  if (plan) {
    await admin.query(`insert into public.user_subscriptions (user_id, plan_id, status, frequency, current_period_end) values ($1, $2, 'active', 'monthly', now() + interval '20 days')`, [id, plan])
  }
  await admin.query(`select public.apply_credit_change($1, $2 - (select remaining_credits from public.user_credits where user_id = $1), 'adjustment', $3)`, [id, credits, `test:${randomUUID()}`])
  return personalSession(id, `${id}@example.test`)
}

// A fresh object per call: the credits summary (and so the plan) is cached per SessionUser, as for one request.
const fresh = (user: SessionUser): SessionUser => ({ ...user })

function business(placeId: string, siret: string | null = null): Business {
  return {
    source: 'demo',
    placeId,
    name: `Boulangerie ${placeId}`,
    address: '1 rue de Siam, 29200 Brest',
    fullAddressArray: ['1 rue de Siam', '29200 Brest'],
    city: 'Brest',
    postalCode: '29200',
    countryCode: 'FR',
    latitude: 48.39,
    longitude: -4.49,
    businessTypes: ['bakery'],
    website: null,
    phone: `+33 2 98 ${String(placeId.length).padStart(2, '0')} ${placeId.slice(-2).padStart(2, '0')} 00`,
    email: [],
    rating: null,
    reviewCount: null,
    googleMapsUrl: null,
    openingHours: null,
    operationalState: null,
    socialMedia: {},
    siret,
  }
}

/** The same few businesses for any search: a place where every business fits in one run. */
function fixedSource(businesses: Business[]): LeadSource {
  return {
    name: 'demo',
    async *search() {
      for (const found of businesses) yield { ...found }
    },
  }
}

async function save(user: SessionUser, overrides: Partial<Parameters<typeof createSavedSearch>[1]> = {}) {
  const saved = await createSavedSearch(fresh(user), { name: 'Bakeries – Brest', criteria: BREST, filters: NO_FILTERS, enrichments: ['phone'], preset: 'contacts', maxLeads: null, lang: 'fr', ...overrides })
  if (!saved.ok) throw new Error(`save: refused (${saved.code})`)
  return saved.id
}

async function run(user: SessionUser, id: string) {
  const result = await runSavedSearch({ user: fresh(user), id, idempotencyKey: randomUUID() })
  if (!result.ok) throw new Error(`run refused: ${result.code}`)
  return result.exportId
}

async function exportOf(id: string) {
  const { rows } = await admin.query(
    `select e.status, e.lead_count, e.total_credits_used, e.saved_search_id, e.search_params, e.excluded,
            (select coalesce(-sum(delta), 0)::int from public.credit_ledger where export_id = e.id) as charged
       from public.exports e where e.id = $1`,
    [id],
  )
  return rows[0] as { status: string; lead_count: number; total_credits_used: number; saved_search_id: string; search_params: Record<string, unknown>; excluded: Record<string, number>; charged: number }
}

async function notifications(userId: string) {
  const { rows } = await admin.query(`select kind, data from public.notifications where user_id = $1 order by created_at, id`, [userId])
  return rows as Array<{ kind: string; data: Record<string, unknown> }>
}

async function runsOf(savedSearchId: string): Promise<number> {
  const { rows } = await admin.query<{ n: number }>('select count(*)::int as n from public.exports where saved_search_id = $1', [savedSearchId])
  return rows[0]!.n
}

describe('only new businesses', () => {
  test('a second run right after the first delivers 0 leads for 0 credits; the list says so', async () => {
    const user = await createUser()
    const id = await save(user)
    const source = fixedSource([business('node/1'), business('node/2'), business('node/3')])

    const first = await run(user, id)
    await processExport(first, { enrichers, source })
    expect(await exportOf(first)).toMatchObject({ status: 'completed', lead_count: 3, saved_search_id: id, search_params: { onlyNew: true } })
    const paid = await exportOf(first)
    expect(paid.charged).toBe(paid.total_credits_used)
    expect((await getSavedSearch(user, id))?.lastRun).toMatchObject({ exportId: first, status: 'completed', newCount: 3 })
    expect(await notifications(user.id)).toEqual([{ kind: 'saved_search.new_businesses', data: expect.objectContaining({ savedSearchId: id, exportId: first, name: 'Bakeries – Brest', newCount: 3 }) }])

    const second = await run(user, id)
    await processExport(second, { enrichers, source })
    const again = await exportOf(second)
    expect(again).toMatchObject({ status: 'completed', lead_count: 0, total_credits_used: 0, charged: 0, excluded: { already_exported: 3 } })
    expect((await getSavedSearch(user, id))?.lastRun).toMatchObject({ exportId: second, newCount: 0, credits: 0 })
    // Nothing new, nothing told: not even "export ready" (a run's end is told as the saved search's news only).
    expect(await notifications(user.id)).toHaveLength(1)

    // A new business appears: the next run delivers it alone.
    const third = await run(user, id)
    await processExport(third, { enrichers, source: fixedSource([business('node/1'), business('node/4'), business('node/3')]) })
    expect(await exportOf(third)).toMatchObject({ lead_count: 1, excluded: { already_exported: 2 } })
  })

  test('a business received under another source id is left out by its SIRET, or by its SIREN when only that is known', async () => {
    const user = await createUser()
    const id = await save(user)
    const first = await run(user, id)
    await processExport(first, { enrichers, source: fixedSource([business('node/10'), business('node/11')]) })
    // The registry matched them (admin_fr_info): one establishment, and one company known by its SIREN only.
    await admin.query(`update public.leads set admin_fr_info = $2 where user_id = $1 and place_id = 'node/10'`, [user.id, { results: [{ siren: '732829320', siret: '73282932000074' }] }])
    await admin.query(`update public.leads set admin_fr_info = $2 where user_id = $1 and place_id = 'node/11'`, [user.id, { results: [{ siren: '552100554', siret: null }] }])

    const second = await run(user, id)
    await processExport(second, {
      enrichers,
      source: fixedSource([
        business('way/10', '73282932000074'), // the same establishment, listed anew
        business('way/11', '55210055400013'), // an establishment of the company known by SIREN
        business('way/12', '73282932000025'), // another establishment of a company received by SIRET: new
        business('way/13'),
      ]),
    })
    expect(await exportOf(second)).toMatchObject({ lead_count: 2, excluded: { already_exported: 2 } })
    const { rows } = await admin.query(`select l.place_id from public.export_leads el join public.leads l on l.id = el.lead_id where el.export_id = $1 order by l.place_id`, [second])
    expect(rows.map((row) => row.place_id)).toEqual(['way/12', 'way/13'])
  })
})

describe('rules checked at each run', () => {
  test('a plan downgraded since saving is refused, recorded and told; nothing is created', async () => {
    const user = await createUser({ plan: 'professional' })
    // A region-wide search: allowed on Professional, not on the free trial.
    const id = await save(user, { criteria: { ...BREST, department: '', city: '' } })
    const allowed = await run(user, id)
    expect(allowed).toBeTruthy()
    await admin.query(`update public.user_subscriptions set current_period_end = now() - interval '1 day' where user_id = $1`, [user.id])

    const refused = await runSavedSearch({ user: fresh(user), id, idempotencyKey: randomUUID() })
    expect(refused).toMatchObject({ ok: false, code: 'plan_restricted' })
    expect(await runsOf(id)).toBe(1)
    expect((await getSavedSearch(user, id))?.lastRun).toMatchObject({ status: 'refused', refusal: 'plan_restricted', exportId: null })
    expect(await notifications(user.id)).toContainEqual({ kind: 'saved_search.refused', data: { savedSearchId: id, name: 'Bakeries – Brest', reason: 'plan_restricted' } })
  })

  test('the credit budget caps the leads of a run, and a budget below one lead refuses it', async () => {
    const user = await createUser()
    const id = await save(user, { enrichments: ['phone', 'website'], maxLeads: 40 })
    await updateSavedSearch(fresh(user), id, edit({ options: ['phone', 'website'], maxLeads: 40, creditBudget: 7 }), { lang: 'fr' })
    const capped = await run(user, id)
    // Two enrichments: at most 2 credits a lead, so 7 credits pay for 3 leads.
    expect((await exportOf(capped)).search_params).toMatchObject({ maxLeads: 3, onlyNew: true })

    await updateSavedSearch(fresh(user), id, edit({ options: ['phone', 'website'], creditBudget: 1 }), { lang: 'fr' })
    expect(await runSavedSearch({ user: fresh(user), id, idempotencyKey: randomUUID() })).toMatchObject({ ok: false, code: 'budget_too_small' })
    expect(await runsOf(id)).toBe(1)
    expect(await notifications(user.id)).toContainEqual({ kind: 'saved_search.refused', data: expect.objectContaining({ savedSearchId: id, reason: 'budget_too_small' }) })
  })

  test('no credits left: refused and told', async () => {
    const user = await createUser({ credits: 0 })
    const id = await save(user)
    expect(await runSavedSearch({ user: fresh(user), id, idempotencyKey: randomUUID() })).toMatchObject({ ok: false, code: 'insufficient_credits' })
    expect((await getSavedSearch(user, id))?.lastRun).toMatchObject({ refusal: 'insufficient_credits' })
  })

  test('row-level security: another user reads and changes nothing; the owner cannot move the search or its owner', async () => {
    const owner = await createUser()
    const other = await createUser()
    const id = await save(owner)
    const asOther = await withUser(other.claims, async (trx) => ({
      seen: await trx.selectFrom('saved_searches').select('id').where('id', '=', id).execute(),
      paused: await trx.updateTable('saved_searches').set({ paused: true }).where('id', '=', id).executeTakeFirst(),
      deleted: await trx.deleteFrom('saved_searches').where('id', '=', id).executeTakeFirst(),
    }))
    expect(asOther).toMatchObject({ seen: [], paused: { numUpdatedRows: 0n }, deleted: { numDeletedRows: 0n } })
    // The search is fixed once saved (only what a run delivers and when may change), and stays its owner's.
    await expect(withUser(owner.claims, (trx) => trx.updateTable('saved_searches').set({ criteria: { ...BREST, city: 'Quimper' } }).where('id', '=', id).execute())).rejects.toThrow(/permission denied/)
    await expect(withUser(owner.claims, (trx) => trx.updateTable('saved_searches').set({ user_id: other.id }).where('id', '=', id).execute())).rejects.toThrow(/permission denied/)
    expect((await getSavedSearch(owner, id))?.criteria.city).toBe('Brest')
  })

  test('another user’s saved search is not found', async () => {
    const owner = await createUser()
    const other = await createUser()
    const id = await save(owner)
    expect(await runSavedSearch({ user: fresh(other), id, idempotencyKey: randomUUID() })).toEqual({ ok: false, code: 'not_found' })
    expect(await getSavedSearch(other, id)).toBeNull()
    expect(await listSavedSearches(other)).toEqual([])
    expect(await runsOf(id)).toBe(0)
  })
})

function edit(overrides: Partial<UpdateSavedSearch> = {}): UpdateSavedSearch {
  return { intent: 'update', name: 'Bakeries – Brest', options: ['phone'], preset: 'contacts', scheduleKind: 'none', hour: 8, timeZone: 'Europe/Paris', pushTo: [], ...overrides }
}

describe('schedules', () => {
  // Saturday 28 November 2026, 11:00 in Paris. Weekly on Monday 08:00 Paris = 07:00 UTC (winter time).
  const SATURDAY = new Date('2026-11-28T10:00:00Z')
  const MONDAY = new Date('2026-11-30T07:00:20Z')
  const NEXT_MONDAY = new Date('2026-12-07T07:00:40Z')

  async function weekly(user: SessionUser) {
    const id = await save(user)
    await updateSavedSearch(fresh(user), id, edit({ scheduleKind: 'weekly', weekday: 1, hour: 8 }), { lang: 'fr', now: SATURDAY })
    expect((await getSavedSearch(user, id))?.nextRunAt).toBe('2026-11-30T07:00:00.000Z')
    return id
  }

  /** One tick of the schedule's job on this pg-boss instance, waited for. */
  async function tick(boss: PgBoss): Promise<void> {
    const jobId = await boss.send(SAVED_SEARCH_QUEUE, {})
    if (!jobId) throw new Error('tick not sent')
    const deadline = Date.now() + 30_000
    for (;;) {
      const job = await boss.getJobById(SAVED_SEARCH_QUEUE, jobId)
      if (job?.state === 'completed') return
      if (job?.state === 'failed' || Date.now() > deadline) throw new Error(`tick ${job?.state ?? 'lost'}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  async function startConsumer(clock: () => Date): Promise<PgBoss> {
    const boss = createBoss({ worker: true, connectionString: inject('databaseUrl'), config: parseEnv(process.env) })
    await boss.start()
    await registerSavedSearchJobs(boss, { clock })
    return boss
  }

  test('a weekly run happens once across a consumer restart, and never twice with two consumers', async () => {
    const user = await createUser()
    const id = await weekly(user)
    let now = new Date('2026-11-29T12:00:00Z')
    const clock = () => now
    let first = await startConsumer(clock)
    const second = await startConsumer(clock)
    try {
      await Promise.all([tick(first), tick(second)])
      expect(await runsOf(id)).toBe(0)

      now = MONDAY
      // Several ticks at once on two consumers (as when one is slow and the next minute's arrives).
      await Promise.all([tick(first), tick(second), tick(first), tick(second)])
      expect(await runsOf(id)).toBe(1)
      expect((await getSavedSearch(user, id))?.nextRunAt).toBe('2026-12-07T07:00:00.000Z')

      // A restart: the first consumer stops, a new one starts; a minute later nothing runs again.
      await first.stop({ graceful: true, timeout: 5_000 })
      first = await startConsumer(clock)
      now = new Date(MONDAY.getTime() + 60_000)
      await Promise.all([tick(first), tick(second)])
      expect(await runsOf(id)).toBe(1)

      now = NEXT_MONDAY
      await Promise.all([tick(first), tick(second)])
      expect(await runsOf(id)).toBe(2)
      expect((await getSavedSearch(user, id))?.nextRunAt).toBe('2026-12-14T07:00:00.000Z')
      const { rows } = await admin.query(`select name from public.exports where saved_search_id = $1 order by created_at`, [id])
      expect(rows.map((row) => row.name)).toEqual(['Bakeries – Brest – 2026-11-30', 'Bakeries – Brest – 2026-12-07'])
    } finally {
      await Promise.all([first.stop({ graceful: false }), second.stop({ graceful: false })])
    }
  })

  test('concurrent checks claim a due saved search once', async () => {
    const user = await createUser()
    const id = await weekly(user)
    const results = await Promise.all([runDueSavedSearches(MONDAY), runDueSavedSearches(MONDAY), runDueSavedSearches(MONDAY)])
    expect(await runsOf(id)).toBe(1)
    expect(results.reduce((sum, summary) => sum + summary.ran, 0)).toBeGreaterThanOrEqual(1)
  })

  test('paused: no run; resumed: the next date counts from now, missed dates are not caught up', async () => {
    const user = await createUser()
    const id = await weekly(user)
    await setPaused(fresh(user), id, true, SATURDAY)
    expect((await getSavedSearch(user, id))?.nextRunAt).toBeNull()
    await runDueSavedSearches(NEXT_MONDAY)
    expect(await runsOf(id)).toBe(0)
    await setPaused(fresh(user), id, false, NEXT_MONDAY)
    expect((await getSavedSearch(user, id))?.nextRunAt).toBe('2026-12-14T07:00:00.000Z')
  })

  test('scheduled runs count against the export-creation limit: past it a run is put off (not dropped), then runs', async () => {
    const user = await createUser({ plan: 'professional' })
    const ids: string[] = []
    for (let i = 0; i < 12; i++) ids.push(await weekly(user))
    const summary = await runDueSavedSearches(MONDAY)
    const runs = await Promise.all(ids.map(runsOf))
    // RATE_LIMIT_EXPORT_CREATE=10/600, the same count as the search page's "Export" and "Run now".
    expect(runs.filter((n) => n === 1)).toHaveLength(10)
    expect(summary.postponed).toBeGreaterThanOrEqual(2)
    const putOff = ids.filter((_, i) => runs[i] === 0)
    expect(putOff).toHaveLength(2)
    for (const id of putOff) {
      const saved = await getSavedSearch(user, id)
      // Put off to when the limit allows it (within its 10-minute window), not to next week; nothing recorded or told.
      const next = new Date(saved!.nextRunAt!).getTime()
      expect(next).toBeGreaterThan(MONDAY.getTime())
      expect(next).toBeLessThanOrEqual(MONDAY.getTime() + 601_000)
      expect(saved?.lastRun).toBeNull()
    }
    expect(await notifications(user.id)).toEqual([])
    // Once the limit allows (its window over), the runs put off happen.
    await resetLimit('exportCreate', user.id)
    await runDueSavedSearches(new Date(MONDAY.getTime() + 700_000))
    expect(await Promise.all(putOff.map(runsOf))).toEqual([1, 1])
  })

  test('a scheduled run refused by the plan is told, and the schedule moves on', async () => {
    const user = await createUser({ plan: 'professional' })
    const id = await save(user, { criteria: { ...BREST, department: '', city: '' } })
    await updateSavedSearch(fresh(user), id, edit({ scheduleKind: 'monthly', day: 31, hour: 9 }), { lang: 'en', now: SATURDAY })
    expect((await getSavedSearch(user, id))?.nextRunAt).toBe('2026-11-30T08:00:00.000Z')
    await admin.query(`update public.user_subscriptions set current_period_end = now() - interval '1 day' where user_id = $1`, [user.id])
    await runDueSavedSearches(new Date('2026-11-30T08:00:05Z'))
    expect(await runsOf(id)).toBe(0)
    expect(await notifications(user.id)).toEqual([{ kind: 'saved_search.refused', data: expect.objectContaining({ savedSearchId: id, reason: 'plan_restricted' }) }])
    expect((await getSavedSearch(user, id))?.nextRunAt).toBe('2026-12-31T08:00:00.000Z')
  })
})

describe('the plan cap', () => {
  test('a free trial keeps 3 saved searches: the 4th is refused with the cap, a paid plan keeps more', async () => {
    const user = await createUser()
    for (let i = 0; i < 3; i++) await save(user)
    expect(await createSavedSearch(fresh(user), { name: 'One more', criteria: BREST, filters: NO_FILTERS, enrichments: ['phone'], preset: 'contacts', maxLeads: null, lang: 'fr' })).toEqual({
      ok: false,
      code: 'saved_search_limit',
      limit: 3,
      plan: 'free_trial',
    })
    const paid = await createUser({ plan: 'professional' })
    for (let i = 0; i < 4; i++) await save(paid)
    const { rows } = await admin.query<{ n: number }>('select count(*)::int as n from public.saved_searches where user_id = $1', [paid.id])
    expect(rows[0]!.n).toBe(4)
  })

  test('parallel saves cannot pass the cap together', async () => {
    const user = await createUser()
    const results = await Promise.all(
      Array.from({ length: 12 }, () => createSavedSearch(fresh(user), { name: 'Burst', criteria: BREST, filters: NO_FILTERS, enrichments: ['phone'], preset: 'contacts', maxLeads: null, lang: 'fr' })),
    )
    expect(results.filter((result) => result.ok)).toHaveLength(3)
    const { rows } = await admin.query<{ n: number }>('select count(*)::int as n from public.saved_searches where user_id = $1', [user.id])
    expect(rows[0]!.n).toBe(3)
  })

  test('the save dialog refuses past the cap with a localized 403 that links to the plans', async () => {
    const user = await createUser()
    for (let i = 0; i < 3; i++) await save(user)
    const form = new FormData()
    for (const [name, value] of Object.entries({ intent: 'save-search', name: 'Fourth', options: 'phone', preset: 'contacts', timeZone: 'Europe/Paris', ...BREST })) form.append(name, value)
    const t = (key: string, values?: Record<string, unknown>) => `${key}:${JSON.stringify(values ?? {})}`
    const refused = await saveSearchCommand({ user: fresh(user), formData: form, lang: 'en', t })
    expect(refused).toMatchObject({ ok: false, status: 403, state: { upgrade: true, error: 'savedSearches.errors.limitReached:{"count":3,"plan":"plans.free_trial:{}"}' } })
  })
})

describe('the API', () => {
  test('lists saved searches and runs one: 202 with the export, a replayed key 200, someone else’s 404', async () => {
    const { user, api } = await createApiUser(admin, 500)
    const id = await save(user)
    const listed = await api.GET('/api/v1/saved-searches')
    expect(listed.response.status).toBe(200)
    expect(listed.data?.data).toEqual([
      expect.objectContaining({ id, name: 'Bakeries – Brest', criteria: { sector: 'shop-bakery', country: 'France', country_code: 'FR', region: 'Bretagne', department: 'Finistère', city: 'Brest' }, preset: 'contacts', enrichments: ['phone'], lang: 'fr', last_run: null, next_run_at: null }),
    ])
    expect(listed.data?.next_cursor).toBeNull()

    const started = await api.POST('/api/v1/saved-searches/{id}/runs', { params: { path: { id }, header: { 'Idempotency-Key': 'weekly-1' } } })
    expect(started.response.status).toBe(202)
    expect(started.data).toMatchObject({ status: 'processing', enrichments: ['phone'] })
    const replay = await api.POST('/api/v1/saved-searches/{id}/runs', { params: { path: { id }, header: { 'Idempotency-Key': 'weekly-1' } } })
    expect(replay.response.status).toBe(200)
    expect(replay.data?.id).toBe(started.data?.id)
    expect(await runsOf(id)).toBe(1)
    const after = await api.GET('/api/v1/saved-searches')
    expect(after.data?.data[0]?.last_run).toMatchObject({ export_id: started.data?.id, status: 'processing' })

    const stranger = await createApiUser(admin, 500)
    const hidden = await stranger.api.POST('/api/v1/saved-searches/{id}/runs', { params: { path: { id } } })
    expect(hidden.response.status).toBe(404)
    expect(hidden.error?.code).toBe('not_found')
    expect((await stranger.api.GET('/api/v1/saved-searches')).data?.data).toEqual([])
  })

  test('pages with a cursor, and a run the plan refuses is 403 plan_restricted', async () => {
    const { user, api } = await createApiUser(admin, 500)
    const ids = [await save(user, { name: 'A' }), await save(user, { name: 'B' }), await save(user, { name: 'C', criteria: { ...BREST, department: '', city: '' } })]
    const page1 = await api.GET('/api/v1/saved-searches', { params: { query: { limit: 2 } } })
    expect(page1.data?.data.map((saved) => saved.name)).toEqual(['C', 'B'])
    const page2 = await api.GET('/api/v1/saved-searches', { params: { query: { limit: 2, cursor: page1.data!.next_cursor! } } })
    expect(page2.data).toMatchObject({ data: [{ name: 'A' }], next_cursor: null })
    const bad = await api.GET('/api/v1/saved-searches', { params: { query: { cursor: 'nope' } } })
    expect(bad.response.status).toBe(400)

    const refused = await api.POST('/api/v1/saved-searches/{id}/runs', { params: { path: { id: ids[2]! } } })
    expect(refused.response.status).toBe(403)
    expect(refused.error?.code).toBe('plan_restricted')
  })
})
