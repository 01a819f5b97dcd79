// Never pay twice (README "Product decisions", Credits): a success for a business and type the user paid for within
// the reuse window is free and marked reused; results found for one user spare the next one a crawl, but each user
// pays once. Real database, real enrichment engine, demo websites and registry; the businesses get place ids of
// their own per test, so nothing another test stored is reused here.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { closeDb } from '#app/.server/db.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import type { LeadSource } from '#app/.server/sources/types.ts'
import type { DemoWebsites } from '#server/demo/websites.ts'
import type { Env } from '#app/.server/env.server.ts'
import { type DemoServices, startDemoServices } from '#tests/support/demo-services.ts'
import { createUserWithCredits } from '#tests/support/credited-user.ts'

const LEADS = 12
const TASKS = ['phone', 'website', 'email', 'technologies', 'social_media', 'admin_fr_info']
const ALL = { phone: true, website: true, email: true, technologies: true, social: true, admin_fr_info: true }

let admin: pg.Pool
let sites: DemoWebsites
let demoServices: DemoServices | undefined
let env: Env
let demo: LeadSource
const openEnrichers: Enrichers[] = []

/** The engine, counting its website crawls. */
function enrichers(): Enrichers & { crawls: number } {
  const inner = createDefaultEnrichers(env)
  openEnrichers.push(inner)
  const counted = {
    ...inner,
    crawls: 0,
    crawl: (url: string, options: Parameters<Enrichers['crawl']>[1]) => {
      counted.crawls++
      return inner.crawl(url, options)
    },
  }
  return counted
}

/** The demo businesses under place ids no other test uses. */
function businessesOf(token: string): LeadSource {
  return {
    name: demo.name,
    async *search(params, category, options) {
      for await (const business of demo.search(params, category, options)) yield { ...business, placeId: `${token}:${business.placeId}` }
    },
  }
}

const createUser = (credits: number) => createUserWithCredits(admin, credits)

async function insertExport(userId: string, options: object = ALL): Promise<string> {
  const { rows } = await admin.query(
    `insert into public.exports (user_id, name, status, search_status, enrichment_status, search_params, enrichment_options, country, region, department, city, business_types)
     values ($1, 'reuse', 'processing', 'pending', 'pending', $2, $3, 'France', 'Auvergne-Rhône-Alpes', 'Rhône', 'Lyon', '{boulangerie}') returning id`,
    [userId, { sector: 'boulangerie', country: 'France', countryCode: 'FR', region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon', lang: 'fr' }, options],
  )
  return rows[0].id
}

function run(exportId: string, source: LeadSource, engine = enrichers(), reuseDays = 90) {
  return processExport(exportId, { enrichers: engine, source, maxLeads: LEADS, concurrency: 4, reuseDays })
}

/** Per (lead, task) of an export: its status and reused mark. */
async function tasksOf(exportId: string) {
  const { rows } = await admin.query<{ lead_id: string; task: string; status: string; reused_at: string | null }>(
    `select el.lead_id, t.task, to_jsonb(el) ->> (t.task || '_status') as status, el.reused ->> t.task as reused_at
       from public.export_leads el cross join unnest($2::text[]) as t(task) where el.export_id = $1`,
    [exportId, TASKS],
  )
  return rows
}

async function ledgerOf(userId: string) {
  const { rows } = await admin.query<{ export_id: string; lead_id: string; enrichment_type: string; delta: number }>(
    `select export_id, lead_id, enrichment_type, delta from public.credit_ledger where user_id = $1 and reason = 'enrichment'`,
    [userId],
  )
  return rows
}

/** balance = sum of the ledger, and each export's credits used = its ledger debits. */
async function expectLedgerIsTheTruth(userId: string, exportIds: string[]) {
  const { rows } = await admin.query(
    `select (select coalesce(sum(delta), 0)::int from public.credit_ledger where user_id = $1) as ledger,
            (select remaining_credits from public.user_credits where user_id = $1) as remaining`,
    [userId],
  )
  expect(rows[0].remaining).toBe(rows[0].ledger)
  for (const exportId of exportIds) {
    const { rows: used } = await admin.query(
      `select total_credits_used as used, (select coalesce(-sum(delta), 0)::int from public.credit_ledger where export_id = $1) as debited
         from public.exports where id = $1`,
      [exportId],
    )
    expect(used[0].used).toBe(used[0].debited)
  }
}

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 4 })
  demoServices = await startDemoServices({ latencyMs: 5 })
  ;({ sites, env } = demoServices)
  demo = createDemoSource({ websitesBaseUrl: sites.url })
})

afterAll(async () => {
  for (const created of openEnrichers) await created.close?.()
  await demoServices?.stop()
  await closeDb()
  await admin?.end()
})

describe('the same search exported twice', () => {
  it('charges the second export nothing: every success is reused, dated with the purchase, and nothing found is crawled again', async () => {
    const source = businessesOf(randomUUID())
    const userId = await createUser(10_000)
    const first = await insertExport(userId)
    expect(await run(first, source)).toMatchObject({ outcome: 'completed' })
    const firstTasks = await tasksOf(first)
    const firstSuccesses = firstTasks.filter((task) => task.status === 'success')
    expect(firstSuccesses.length).toBeGreaterThan(LEADS)
    expect(firstTasks.every((task) => task.reused_at === null)).toBe(true)

    const second = await insertExport(userId)
    const engine = enrichers()
    expect(await run(second, source, engine)).toMatchObject({ outcome: 'completed', charged: 0 })
    const secondTasks = await tasksOf(second)
    const successes = secondTasks.filter((task) => task.status === 'success')
    expect(successes.map((task) => `${task.lead_id}:${task.task}`).sort()).toEqual(firstSuccesses.map((task) => `${task.lead_id}:${task.task}`).sort())
    const { rows: purchases } = await admin.query(`select lead_id, task, paid_at from public.enrichment_purchases where user_id = $1`, [userId])
    const paidAt = new Map(purchases.map((row) => [`${row.lead_id}:${row.task}`, new Date(row.paid_at).toISOString()]))
    for (const task of successes) expect(task.reused_at && new Date(task.reused_at).toISOString()).toBe(paidAt.get(`${task.lead_id}:${task.task}`))
    // Only leads with something left to find are crawled again.
    const leadsWithAllFound = new Set(firstTasks.map((task) => task.lead_id))
    for (const task of firstTasks) if (task.status !== 'success') leadsWithAllFound.delete(task.lead_id)
    expect(engine.crawls).toBeLessThanOrEqual(LEADS - leadsWithAllFound.size)

    expect((await ledgerOf(userId)).filter((row) => row.export_id === second)).toEqual([])
    await expectLedgerIsTheTruth(userId, [first, second])
  })

  it("another user's export uses the stored results instead of crawling, and pays its own first time", async () => {
    const source = businessesOf(randomUUID())
    const owner = await createUser(10_000)
    const firstEngine = enrichers()
    await run(await insertExport(owner), source, firstEngine)

    const other = await createUser(10_000)
    const theirs = await insertExport(other)
    const engine = enrichers()
    const result = await run(theirs, source, engine)
    const successes = (await tasksOf(theirs)).filter((task) => task.status === 'success')
    expect(result.charged).toBe(successes.length)
    expect(successes.every((task) => task.reused_at === null)).toBe(true)
    expect(engine.crawls).toBeLessThan(firstEngine.crawls)
    await expectLedgerIsTheTruth(other, [theirs])
  })
})

describe('two exports of one user at once', () => {
  it('charge each business and type at most once between them; balance = sum of the ledger', async () => {
    const source = businessesOf(randomUUID())
    const userId = await createUser(10_000)
    const exportIds = [await insertExport(userId), await insertExport(userId)]
    await Promise.all(exportIds.map((exportId) => run(exportId, source)))

    const ledger = await ledgerOf(userId)
    const charges = new Map<string, number>()
    for (const row of ledger) charges.set(`${row.lead_id}:${row.enrichment_type}`, (charges.get(`${row.lead_id}:${row.enrichment_type}`) ?? 0) + 1)
    expect([...charges.values()].every((count) => count === 1)).toBe(true)

    // Every success of either export is paid exactly once: charged in one, reused in the other (or charged there).
    const successes = [...(await tasksOf(exportIds[0] as string)), ...(await tasksOf(exportIds[1] as string))].filter((task) => task.status === 'success')
    const reused = successes.filter((task) => task.reused_at !== null)
    expect(reused.length + ledger.length).toBe(successes.length)
    expect(new Set(successes.map((task) => `${task.lead_id}:${task.task}`)).size).toBe(ledger.length)
    await expectLedgerIsTheTruth(userId, exportIds)
  })
})

describe('record_lead_enrichment from two connections at once', () => {
  it('charges each lead and type exactly once between two exports; the other records it reused', async () => {
    const userId = await createUser(10_000)
    const exportIds = [await insertExport(userId, { phone: true, email: true }), await insertExport(userId, { phone: true, email: true })]
    const leadIds: string[] = []
    for (let position = 0; position < 20; position++) {
      const { rows } = await admin.query(`insert into public.leads (user_id, source, place_id, name) values ($1, 'demo', $2, 'Race') returning id`, [userId, `race:${randomUUID()}`])
      leadIds.push(rows[0].id)
      for (const exportId of exportIds) {
        await admin.query(`insert into public.export_leads (export_id, lead_id, user_id, position, phone_status, email_status) values ($1, $2, $3, $4, 'pending', 'pending')`, [
          exportId,
          rows[0].id,
          userId,
          position,
        ])
      }
    }
    const outcomes = { phone: 'success', email: 'success' }
    const values = { phone: '+33 2 98 00 00 00', email: ['race@example.test'] }
    const results = await Promise.all(
      leadIds.flatMap((leadId) =>
        exportIds.map(async (exportId) => {
          const { rows } = await admin.query(`select public.record_lead_enrichment($1, $2, $3, $4, $5, 90) as result`, [userId, exportId, leadId, outcomes, values])
          return rows[0].result as { charged: number; reused: number }
        }),
      ),
    )
    expect(results.reduce((total, r) => total + r.charged, 0)).toBe(leadIds.length * 2)
    expect(results.reduce((total, r) => total + r.reused, 0)).toBe(leadIds.length * 2)
    const charges = await ledgerOf(userId)
    expect(new Set(charges.map((row) => `${row.lead_id}:${row.enrichment_type}`)).size).toBe(charges.length)
    await expectLedgerIsTheTruth(userId, exportIds)
  })
})

describe('the freshness window', () => {
  it('a purchase and a stored result older than the window are paid and crawled again', async () => {
    const token = randomUUID()
    const source = businessesOf(token)
    const userId = await createUser(10_000)
    const first = await insertExport(userId)
    const firstEngine = enrichers()
    const paid = (await run(first, source, firstEngine)).charged
    await admin.query(`update public.enrichment_purchases set paid_at = now() - interval '31 days' where user_id = $1`, [userId])
    await admin.query(`update public.enrichment_results set found_at = now() - interval '31 days' where place_id like $1`, [`${token}:%`])

    // Still fresh for a 60-day window...
    const withinWindow = await insertExport(userId)
    expect(await run(withinWindow, source, enrichers(), 60)).toMatchObject({ charged: 0 })
    // ...expired for a 30-day one: everything is bought and crawled again, and the purchases renewed.
    const expired = await insertExport(userId)
    const engine = enrichers()
    expect(await run(expired, source, engine, 30)).toMatchObject({ charged: paid })
    expect(engine.crawls).toBe(firstEngine.crawls)
    expect((await tasksOf(expired)).every((task) => task.reused_at === null)).toBe(true)
    const { rows } = await admin.query(`select count(*)::int as stale from public.enrichment_purchases where user_id = $1 and paid_at < now() - interval '1 day'`, [userId])
    expect(rows[0].stale).toBe(0)
    await expectLedgerIsTheTruth(userId, [first, withinWindow, expired])
  })
})

describe('a window of 0 days', () => {
  it('never reuses, even between two exports racing on the same businesses', async () => {
    const source = businessesOf(randomUUID())
    const userId = await createUser(10_000)
    const exportIds = [await insertExport(userId), await insertExport(userId)]
    await Promise.all(exportIds.map((exportId) => run(exportId, source, enrichers(), 0)))
    const successes = [...(await tasksOf(exportIds[0] as string)), ...(await tasksOf(exportIds[1] as string))].filter((task) => task.status === 'success')
    expect(successes.length).toBeGreaterThan(0)
    expect(successes.every((task) => task.reused_at === null)).toBe(true)
    expect(await ledgerOf(userId)).toHaveLength(successes.length)
    await expectLedgerIsTheTruth(userId, exportIds)
  })
})

describe('running out of credits', () => {
  it('buys nothing it could not pay for: the unpaid type is charged on the next export, the paid one reused', async () => {
    const source = businessesOf(randomUUID())
    const userId = await createUser(1)
    const first = await insertExport(userId, { phone: true, email: true })
    expect(await run(first, source)).toMatchObject({ outcome: 'interrupted', charged: 1 })
    const { rows: purchases } = await admin.query(`select count(*)::int as n from public.enrichment_purchases where user_id = $1`, [userId])
    expect(purchases[0].n).toBe(1)

    await admin.query(`select public.apply_credit_change($1, 1000, 'adjustment', $2)`, [userId, `test:${randomUUID()}`])
    const second = await insertExport(userId, { phone: true, email: true })
    const result = await run(second, source)
    const successes = (await tasksOf(second)).filter((task) => task.status === 'success')
    expect(successes.filter((task) => task.reused_at !== null)).toHaveLength(1)
    expect(result.charged).toBe(successes.length - 1)
    await expectLedgerIsTheTruth(userId, [first, second])
  })
})

describe('adding an enrichment to a completed export', () => {
  it('reuses what the user bought for those businesses in another export', async () => {
    const source = businessesOf(randomUUID())
    const userId = await createUser(10_000)
    const withEmail = await insertExport(userId, { email: true })
    const bought = (await run(withEmail, source)).charged
    expect(bought).toBeGreaterThan(0)

    const phoneOnly = await insertExport(userId, { phone: true })
    await run(phoneOnly, source)
    // What addEnrichment (service.ts) does to the export, before its job runs the enrichment phase again.
    await admin.query(
      `update public.export_leads set email_status = case when email_status = 'not_required' then 'pending' else email_status end where export_id = $1`,
      [phoneOnly],
    )
    await admin.query(`update public.exports set status = 'processing', enrichment_status = 'pending', enrichment_options = $2 where id = $1`, [
      phoneOnly,
      { phone: true, email: true },
    ])
    expect(await run(phoneOnly, source)).toMatchObject({ outcome: 'completed', charged: 0 })
    const emails = (await tasksOf(phoneOnly)).filter((task) => task.task === 'email' && task.status === 'success')
    expect(emails).toHaveLength(bought)
    expect(emails.every((task) => task.reused_at !== null)).toBe(true)
  })
})
