// Count, cap and filters before spending (issue "Credits users can trust"): the free match count of the preview,
// the user's max leads as the search cap, the filters as a lead gate, and a failed export that charges only what
// it delivered. Real database, real enrichment engine against the demo websites and registry; sources replayed
// from recorded fixtures.
import fs from 'node:fs'
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { sql } from 'kysely'
import { closeDb, getDb } from '#app/.server/db.ts'
import { defaultFillRates, MIN_OBSERVED_TASKS, observedFillRates } from '#app/.server/exports/fill-rates.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import { openExportDownload } from '#app/.server/exports/download.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import { COUNT_SCAN_LIMIT, scanMatches } from '#app/.server/search/match-count.ts'
import { runPreview } from '#app/.server/search/preview.ts'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import { createGoogleSource } from '#app/.server/sources/google.ts'
import { clearOverpassCache, createOsmSource } from '#app/.server/sources/osm.ts'
import type { Business, LeadSource, SearchParams } from '#app/.server/sources/types.ts'
import { canDownload } from '#app/domain/exports.ts'
import { matchesFilters, NO_FILTERS, type SearchFilters } from '#app/domain/search-filters.ts'
import { startFixtureServer, type FixtureServer } from '#tests/support/fixture-server.ts'
import type { DemoWebsites } from '#server/demo/websites.ts'
import type { Env } from '#app/.server/env.server.ts'
import { type DemoServices, startDemoServices } from '#tests/support/demo-services.ts'
import { createUserWithCredits } from '#tests/support/credited-user.ts'
import { resolvedParams } from '#tests/support/lead-source.ts'

const TASK_COLUMNS = ['phone', 'website', 'email', 'technologies', 'social_media', 'admin_fr_info'].map((t) => `${t}_status`)
const PARIS = resolvedParams({ sector: 'shop/bakery', country: 'France', countryCode: 'FR', region: 'Île-de-France', department: 'Paris', city: 'Paris', lang: 'en' })
const BAKERY = { id: 'shop/bakery', label: 'Bakery', osm: { key: 'shop', value: 'bakery' } }
const PARIS_CRITERIA = { sector: 'shop/bakery', country: 'France', region: 'Île-de-France', department: 'Paris', city: 'Paris' }

let admin: pg.Pool
let sites: DemoWebsites
let demoServices: DemoServices | undefined
let env: Env
let demo: LeadSource
const openEnrichers: Enrichers[] = []
const servers: FixtureServer[] = []

function enrichers(): Enrichers {
  const created = createDefaultEnrichers(env)
  openEnrichers.push(created)
  return created
}

async function everything(source: LeadSource, params: SearchParams, limit?: number): Promise<Business[]> {
  const all: Business[] = []
  for await (const business of source.search(params, BAKERY, { limit })) all.push(business)
  return all
}

const createUser = (credits: number) => createUserWithCredits(admin, credits)

/** An export as createExport leaves it (search_params with the cap and the filters), without its job. */
async function insertExport(userId: string, options: object, extra: { maxLeads?: number; filters?: object }): Promise<string> {
  const { rows } = await admin.query(
    `insert into public.exports (user_id, name, status, search_status, enrichment_status, search_params, enrichment_options, country, region, department, city, business_types)
     values ($1, 'cost', 'processing', 'pending', 'pending', $2, $3, 'France', 'Île-de-France', 'Paris', 'Paris', '{shop/bakery}') returning id`,
    [userId, { ...PARIS_CRITERIA, countryCode: 'FR', lang: 'en', ...extra }, options],
  )
  return rows[0].id
}

async function state(exportId: string) {
  const successes = TASK_COLUMNS.map((c) => `(${c} = 'success')::int`).join(' + ')
  const { rows } = await admin.query(
    `select e.status, e.lead_count, e.total_credits_used, e.excluded,
            (select count(*)::int from public.export_leads where export_id = e.id) as links,
            (select coalesce(sum(${successes}), 0)::int from public.export_leads where export_id = e.id) as successes,
            (select coalesce(-sum(delta), 0)::int from public.credit_ledger where export_id = e.id) as charged,
            (select remaining_credits from public.user_credits where user_id = e.user_id) as remaining
       from public.exports e where e.id = $1`,
    [exportId],
  )
  return rows[0]
}

async function linkedLeads(exportId: string) {
  const { rows } = await admin.query(
    `select l.website, l.phone, l.rating::float as rating, l.review_count as "reviewCount", l.operational_state as "operationalState"
       from public.export_leads el join public.leads l on l.id = el.lead_id where el.export_id = $1`,
    [exportId],
  )
  return rows as Array<{ website: string | null; phone: string | null; rating: number | null; reviewCount: number | null; operationalState: string | null }>
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
  for (const server of servers) await server.stop()
  await demoServices?.stop()
  await closeDb()
  await admin?.end()
})

describe('the free match count', () => {
  it('counts every business of a finite demo search exactly, and those the filters keep', async () => {
    const all = await everything(demo, PARIS)
    expect(all.length).toBeGreaterThan(20)
    const plain = await scanMatches(demo, PARIS, BAKERY, NO_FILTERS)
    expect(plain.count).toEqual({ value: all.length, exact: true })
    expect(plain.preview.map((b) => b.placeId)).toEqual(all.slice(0, 20).map((b) => b.placeId))

    const filters: SearchFilters = { ...NO_FILTERS, hasWebsite: true, minRating: 4 }
    const kept = all.filter((business) => matchesFilters(business, filters))
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.length).toBeLessThan(all.length)
    const filtered = await scanMatches(demo, PARIS, BAKERY, filters)
    expect(filtered.count).toEqual({ value: kept.length, exact: true })
    expect(filtered.preview.map((b) => b.placeId)).toEqual(kept.slice(0, 20).map((b) => b.placeId))
    for (const business of filtered.preview) expect(business.website && business.rating !== null && business.rating >= 4).toBeTruthy()
  })

  it('says "at least" beyond what it reads for free', async () => {
    // A source larger than the scan (a country-wide Overpass answer): the demo businesses, over and over.
    const base = await everything(demo, PARIS)
    const endless: LeadSource = {
      name: 'osm',
      async *search(_params, _category, options) {
        for (let i = 0; i < (options.limit ?? Number.POSITIVE_INFINITY); i++) {
          const business = base[i % base.length] as Business
          yield { ...business, placeId: `${business.placeId}-${i}` }
        }
      },
    }
    const big = await scanMatches(endless, PARIS, BAKERY, NO_FILTERS)
    expect(big.count).toEqual({ value: COUNT_SCAN_LIMIT, exact: false })
    expect(big.preview).toHaveLength(20)
  })

  it('counts an Overpass answer from the one query the preview makes', async () => {
    const server = await startFixtureServer(() => ({ body: fs.readFileSync(new URL('../fixtures/osm/bakeries-lyon.json', import.meta.url), 'utf8'), headers: { 'Content-Type': 'application/json' } }))
    servers.push(server)
    const osm = createOsmSource({ endpoint: `${server.url}/api/interpreter`, userAgent: 'LeadAtlas/0.1' })
    const lyon = { ...PARIS, region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon' }
    const all = await everything(osm, lyon)
    // That answer is cached by area + category: forget it, so the preview's own query is the one counted.
    clearOverpassCache()
    const before = server.requests.length
    const scan = await scanMatches(osm, lyon, BAKERY, NO_FILTERS)
    expect(scan.count).toEqual({ value: all.length, exact: true })
    expect(server.requests.length - before).toBe(1)
  })

  it('reads no more Google Places pages than the preview itself (every page is billed)', async () => {
    const page = JSON.parse(fs.readFileSync(new URL('../fixtures/google/plumbers-lyon-page1.json', import.meta.url), 'utf8'))
    const server = await startFixtureServer(() => ({ body: { ...page, nextPageToken: 'more' } }))
    servers.push(server)
    const google = createGoogleSource({ apiKey: 'test-key', baseUrl: server.url })
    // What the preview alone reads: its 20 businesses.
    const previewOnly = await everything(google, PARIS, 20)
    const previewPages = server.requests.length
    const scan = await scanMatches(google, PARIS, BAKERY, NO_FILTERS)
    expect(server.requests.length - previewPages).toBe(previewPages)
    expect(scan.preview.map((b) => b.placeId)).toEqual(previewOnly.map((b) => b.placeId))
    // The source has more pages (nextPageToken): never an exact count from a full preview.
    expect(scan.count).toEqual({ value: previewOnly.length, exact: false })
  })

  it('runPreview applies the filters to the preview and its count', async () => {
    process.env.DEMO_WEBSITES_URL = sites.url
    const criteria = { ...PARIS_CRITERIA, countryCode: 'FR' }
    const plain = await runPreview(criteria, { lang: 'en', plan: 'premium' })
    const filtered = await runPreview(criteria, { lang: 'en', plan: 'premium', filters: { ...NO_FILTERS, hasWebsite: true, minReviews: 20 } })
    expect(plain.ok && filtered.ok).toBe(true)
    if (!plain.ok || !filtered.ok) return
    expect(filtered.count.value).toBeLessThan(plain.count.value)
    expect(filtered.results.length).toBeGreaterThan(0)
    for (const lead of filtered.results) expect(lead.website && (lead.reviewCount ?? 0) >= 20).toBeTruthy()
  })
})

describe('max leads', () => {
  it('caps the export, so a free-trial balance (100 credits) completes it', async () => {
    const userId = await createUser(100)
    const options = { phone: true, website: true, email: true, social: true }
    const exportId = await insertExport(userId, options, { maxLeads: 20 })
    const result = await processExport(exportId, { enrichers: enrichers(), source: demo, concurrency: 4 })
    expect(result.outcome).toBe('completed')
    const s = await state(exportId)
    expect(s).toMatchObject({ status: 'completed', links: 20, lead_count: 20 })
    expect(s.charged).toBe(s.successes)
    expect(s.total_credits_used).toBe(s.successes)
    expect(s.remaining).toBe(100 - s.successes)
  })
})

describe('filters', () => {
  it('leave out of the export exactly what they left out of the count, charged nothing, counted as "filtered"', async () => {
    const userId = await createUser(10_000)
    const filters: SearchFilters = { ...NO_FILTERS, hasWebsite: true, minRating: 4 }
    const expected = await scanMatches(demo, PARIS, BAKERY, filters)
    const all = await everything(demo, PARIS)
    const exportId = await insertExport(userId, { phone: true }, { filters })
    const result = await processExport(exportId, { enrichers: enrichers(), source: demo, concurrency: 4 })
    expect(result.outcome).toBe('completed')
    const s = await state(exportId)
    expect(s.links).toBe(expected.count.value)
    expect(s.excluded).toEqual({ filtered: all.length - expected.count.value })
    expect(s.charged).toBe(s.successes)
    for (const lead of await linkedLeads(exportId)) expect(matchesFilters(lead, filters)).toBe(true)
  })
})

describe('a failed export', () => {
  it('charges exactly the successes it recorded, and they can be downloaded', async () => {
    const userId = await createUser(10_000)
    const exportId = await insertExport(userId, { phone: true, website: true }, { maxLeads: 30 })
    let recorded = 0
    // A server-side fault part-way through the enrichment (the run throws; the worker then marks it failed).
    const fault = new Error('disk full')
    await expect(
      processExport(exportId, {
        enrichers: enrichers(),
        source: demo,
        concurrency: 1,
        onLeadRecorded: () => {
          if (++recorded === 8) throw fault
        },
      }),
    ).rejects.toThrow('disk full')
    await admin.query(`update public.exports set status = 'failed', can_resume = true where id = $1 and status = 'processing'`, [exportId])

    const s = await state(exportId)
    expect(s.status).toBe('failed')
    expect(s.successes).toBeGreaterThan(0)
    expect(s.charged).toBe(s.successes)
    expect(s.total_credits_used).toBe(s.successes)
    expect(s.remaining).toBe(10_000 - s.successes)

    expect(canDownload(s.status)).toBe(true)
    const file = await openExportDownload({ claims: { sub: userId }, exportId, format: 'csv', lang: 'en' })
    expect(file).not.toBeNull()
    const text = await new Response(file!.body as ReadableStream).text()
    // A success is written "Found" in its status column (a whole cell).
    const successCells = text.split('\n').reduce((n, line) => n + (line.match(/(?<=^|,)"?Found"?(?=,|\r?$)/g)?.length ?? 0), 0)
    expect(successCells).toBe(s.successes)
  })
})

describe('observed fill rates', () => {
  it('are success / decided tasks per type over recent exports, with the documented default below enough history', async () => {
    // Temporary tables shadow public.exports / export_leads inside this transaction (pg_temp comes first in the
    // search path), so the rates are read over known rows only, whatever other tests write meanwhile.
    await getDb()
      .transaction()
      .execute(async (trx) => {
        await sql`create temp table exports (like public.exports including defaults) on commit drop`.execute(trx)
        await sql`create temp table export_leads (like public.export_leads including defaults) on commit drop`.execute(trx)
        const recent = randomUUID()
        const old = randomUUID()
        await sql`insert into exports (id, user_id, name, created_at) values (${recent}, ${randomUUID()}, 'recent', now()), (${old}, ${randomUUID()}, 'old', now() - interval '40 days')`.execute(trx)
        const rows: string[] = []
        const phone = [...Array(45).fill('success'), ...Array(10).fill('not_found'), ...Array(5).fill('failed'), ...Array(7).fill('pending')]
        phone.forEach((status, i) => rows.push(`('${recent}', '${randomUUID()}', '${randomUUID()}', ${i}, '${status}', '${i < 10 ? 'success' : 'not_required'}', 'not_required')`))
        // Plenty of website successes, but on an export older than the window.
        for (let i = 0; i < MIN_OBSERVED_TASKS * 2; i++) rows.push(`('${old}', '${randomUUID()}', '${randomUUID()}', ${i}, 'not_required', 'not_found', 'success')`)
        await sql.raw(`insert into export_leads (export_id, lead_id, user_id, position, phone_status, email_status, website_status) values ${rows.join(', ')}`).execute(trx)

        const rates = await observedFillRates(trx)
        const defaults = defaultFillRates()
        expect(rates.phone).toBeCloseTo(45 / 60)
        // 10 decided email tasks are too few to trust: the default stays.
        expect(rates.email).toBe(defaults.email)
        expect(rates.website).toBe(defaults.website)
        expect(rates.admin_fr_info).toBe(defaults.admin_fr_info)
      })
  })
})
