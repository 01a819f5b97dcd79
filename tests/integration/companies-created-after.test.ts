// "Created after" on /companies (issue 32 item 3), served from the local registry store: the real database (rows
// written with upsertEstablishments, as the daily import writes them), the demo map source and demo websites. The
// count, the preview and a registry-first export of the same filters read the store, not the registry's API (no
// registry server runs here); labels are refused with the creation window; the store's
// freshness is the last Sirene day imported. Creation days are in 2033, which no other test's data reaches (the watch's test uses 2031).
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { Kysely, PostgresDialect } from 'kysely'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { closeDb, type Database } from '#app/.server/db.ts'
import { parseEnv } from '#app/.server/env.server.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import { registryExportCriteria } from '#app/.server/exports/registry-criteria.ts'
import { createExport } from '#app/.server/exports/service.ts'
import { createLocalRegistrySearch, registryStoreFreshness } from '#app/.server/registry-events/local-search.ts'
import { upsertEstablishments } from '#app/.server/registry-events/store.ts'
import { searchCompanies } from '#app/.server/registry/companies-search.ts'
import { REGISTRY_MATCHED_ON_MAP, REGISTRY_NOT_ONLINE } from '#app/.server/registry/map-match.ts'
import { searchParamsOf } from '#app/.server/search/resolve-criteria.ts'
import { resolveCategory } from '#app/.server/search/preview.ts'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import type { Business, LeadSource } from '#app/.server/sources/types.ts'
import { readCompaniesQuery } from '#app/domain/companies-form.ts'
import { NO_ENRICHMENT } from '#app/domain/enrichment.ts'
import type { RegistryEstablishmentRecord } from '#app/domain/registry-establishment.ts'
import { registryFiltersSchema } from '#app/domain/registry-search.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'
import { type DemoWebsites, startDemoWebsites } from '#server/demo/websites.ts'

let admin: pg.Pool
let db: Kysely<Database>
let sites: DemoWebsites
let source: LeadSource
let enrichers: Enrichers
let onMap: Business[]

const BAKERY = '10.71C'
const BREST = { kind: 'commune' as const, code: '29019' }

let serial = 0
/** A store row; SIRETs made unique per run (the store is shared with the other test files). */
function record(overrides: Partial<RegistryEstablishmentRecord>): RegistryEstablishmentRecord {
  serial++
  const siren = String(700_000_000 + Math.floor(Math.random() * 90_000_000) + serial).slice(0, 9)
  return {
    siret: `${siren}00017`,
    siren,
    name: `Fournil Zorbak ${serial}`,
    naf: BAKERY,
    legalForm: '5710',
    headcount: '01',
    postcode: '29200',
    commune: '29019',
    city: 'Brest',
    address: `${serial} rue de Siam 29200 Brest`,
    state: 'A',
    createdOn: '2033-03-10',
    headOffice: true,
    processedAt: '2033-03-11T08:00:00Z',
    ...overrides,
  }
}

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 4 })
  db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: admin }) })
  sites = await startDemoWebsites({ latencyMs: 2 })
  enrichers = createDefaultEnrichers(parseEnv({ DEMO_WEBSITES_URL: sites.url, ENRICH_ALLOW_HOSTS: new URL(sites.url).host }))
  source = createDemoSource({ websitesBaseUrl: sites.url })
  const criteria = registryExportCriteria(registryFiltersSchema.parse({ nafCodes: [BAKERY], place: BREST }))!
  onMap = []
  for await (const business of source.search(searchParamsOf(criteria, 'fr'), resolveCategory('bakery', 'fr'), { limit: 50 })) onMap.push(business)
})

afterAll(async () => {
  await enrichers?.close?.()
  await sites?.stop()
  await closeDb()
  await db?.destroy()
})

async function createUser(credits = 1000): Promise<SessionUser> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@example.test`, {}])
  await admin.query(`select public.apply_credit_change($1, $2 - (select remaining_credits from public.user_credits where user_id = $1), 'adjustment', $3)`, [id, credits, `test:${randomUUID()}`])
  return personalSession(id, `${id}@example.test`)
}

const query = (params: Record<string, string | string[]>) => {
  const search = new URLSearchParams({ run: '1', active: '1' })
  for (const [key, value] of Object.entries(params)) for (const each of [value].flat()) search.append(key, each)
  return readCompaniesQuery(search)
}

describe('created after, from the local registry store', () => {
  const rows: Record<string, RegistryEstablishmentRecord> = {}

  beforeAll(async () => {
    // Two on the map (their demo names and postcodes), two nowhere online, and rows the filters leave out.
    const [a, b] = onMap.filter((business) => business.postalCode)
    Object.assign(rows, {
      onlineNew: record({ name: a!.name, postcode: a!.postalCode, createdOn: '2033-03-12' }),
      onlineNewer: record({ name: b!.name, postcode: b!.postalCode, createdOn: '2033-03-20' }),
      offlineNew: record({ createdOn: '2033-03-15' }),
      offlineEdge: record({ createdOn: '2033-03-02' }),
      onTheDay: record({ createdOn: '2033-03-01' }),
      before: record({ createdOn: '2033-02-20' }),
      closed: record({ createdOn: '2033-03-14', state: 'F' }),
      otherActivity: record({ createdOn: '2033-03-14', naf: '47.11B' }),
      otherDepartment: record({ createdOn: '2033-03-14', commune: '69123', postcode: '69001', city: 'Lyon' }),
      bigger: record({ createdOn: '2033-03-14', headcount: '12' }),
    })
    expect(await upsertEstablishments(db, Object.values(rows), 'flux')).toBe(Object.keys(rows).length)
  })

  const expected = () => ['onlineNew', 'onlineNewer', 'offlineNew', 'offlineEdge', 'bigger'].map((key) => rows[key]!.siret).sort()

  it('counts and previews exactly the establishments created after the day, newest first', async () => {
    const read = query({ naf: BAKERY, city: '29019', createdAfter: '2033-03-01' })
    expect(read.ok).toBe(true)
    const outcome = await searchCompanies(read.query, { plan: 'premium', lang: 'fr' })
    if (!outcome.ok) throw new Error(outcome.messageKey)
    expect(outcome.filters.createdAfter).toBe('2033-03-01')
    expect(outcome.total).toBe(5)
    expect(outcome.establishments.map((e) => e.siret).sort()).toEqual(expected())
    const days = outcome.establishments.map((e) => e.creationDate!)
    expect(days).toEqual([...days].sort().reverse())
    expect(outcome.establishments.find((e) => e.siret === rows.onlineNew!.siret)).toMatchObject({ activityCode: BAKERY, active: true, legalFormFamily: 'sas', activityLabel: expect.any(String) })
  })

  it('applies the headcount, the legal form, active-only and the place (department, region, postcode)', async () => {
    const local = createLocalRegistrySearch({ db })
    const count = async (input: object) => (await local.page(registryFiltersSchema.parse({ nafCodes: [BAKERY], createdAfter: '2033-03-01', ...input }), 1)).total
    expect(await count({ place: BREST, headcountBands: ['12'] })).toBe(1)
    expect(await count({ place: BREST, legalForms: ['sarl'] })).toBe(0)
    expect(await count({ place: BREST, activeOnly: false })).toBe(6)
    expect(await count({ place: { kind: 'department', code: '29' } })).toBeGreaterThanOrEqual(5)
    expect(await count({ place: { kind: 'region', code: '53' } })).toBeGreaterThanOrEqual(5)
    expect(await count({ place: { kind: 'postcode', code: '29200' } })).toBe(5)
    expect(await count({ place: { kind: 'department', code: '69' } })).toBeGreaterThanOrEqual(1)
    // The walk pages by keyset: a limit below the set stops there, the whole set comes once.
    const walked: string[] = []
    for await (const e of local.establishments(registryFiltersSchema.parse({ nafCodes: [BAKERY], place: BREST, createdAfter: '2033-03-01' }), { limit: 100 })) walked.push(e.siret!)
    expect(walked.sort()).toEqual(expected())
    let two = 0
    for await (const _ of local.establishments(registryFiltersSchema.parse({ nafCodes: [BAKERY], place: BREST, createdAfter: '2033-03-01' }), { limit: 2 })) two++
    expect(two).toBe(2)
  })

  it('never delivers a person who asked INSEE not to spread their data (partial diffusion): no lawful prospecting use', async () => {
    const local = createLocalRegistrySearch({ db })
    // Quimper: the other cases read Brest.
    const quimper = { commune: '29232', postcode: '29000', city: 'Quimper' }
    const filters = registryFiltersSchema.parse({ nafCodes: [BAKERY], createdAfter: '2033-06-01', place: { kind: 'commune', code: '29232' } })
    const before = (await local.page(filters, 1)).total
    await upsertEstablishments(db, [record({ ...quimper, createdOn: '2033-06-02', partialDiffusion: true, legalForm: '1000' })], 'flux')
    expect((await local.page(filters, 1)).total).toBe(before)
    await upsertEstablishments(db, [record({ ...quimper, createdOn: '2033-06-02' })], 'flux')
    expect((await local.page(filters, 1)).total).toBe(before + 1)
  })

  it('refuses labels together with a creation window, naming the date field', async () => {
    const outcome = await searchCompanies(query({ naf: BAKERY, city: '29019', createdAfter: '2033-03-01', label: 'rge' }).query, { plan: 'premium', lang: 'en' })
    expect(outcome).toMatchObject({ ok: false, status: 400, field: 'createdAfter', messageKey: 'companies.errors.labelsWithCreatedAfter' })
    expect(registryFiltersSchema.safeParse({ createdAfter: '2033-03-01', labels: ['rge'] }).success).toBe(false)
    expect(query({ createdAfter: '2033-02-30' }).ok).toBe(false)
  })

  it('exports the same establishments from the store: the map ones enriched and charged, the others free', async () => {
    const user = await createUser()
    const filters = registryFiltersSchema.parse({ nafCodes: [BAKERY], place: BREST, createdAfter: '2033-03-01' })
    const created = await createExport({ user, name: 'Nouvelles boulangeries', criteria: { sector: '', country: '', region: '', department: '', city: '' }, registry: filters, enrichmentOptions: { ...NO_ENRICHMENT, phone: true }, idempotencyKey: randomUUID(), lang: 'fr' })
    if (!created.ok) throw new Error(created.code)
    expect((await processExport(created.exportId, { enrichers, source, concurrency: 2 })).outcome).toBe('completed')
    const { rows: leads } = await admin.query<{ id: string; admin_fr_info: { matched_by: string; results: Array<{ siret: string }> }; phone_status: string }>(
      `select l.id, l.admin_fr_info, el.phone_status from public.export_leads el join public.leads l on l.id = el.lead_id where el.export_id = $1`,
      [created.exportId],
    )
    expect(leads.map((lead) => lead.admin_fr_info.results[0]!.siret).sort()).toEqual(expected())
    const offline = leads.filter((lead) => lead.admin_fr_info.matched_by === REGISTRY_NOT_ONLINE)
    expect(offline.map((lead) => lead.admin_fr_info.results[0]!.siret).sort()).toEqual([rows.offlineNew!.siret, rows.offlineEdge!.siret, rows.bigger!.siret].sort())
    expect(leads.filter((lead) => lead.admin_fr_info.matched_by === REGISTRY_MATCHED_ON_MAP)).toHaveLength(2)
    const { rows: ledger } = await admin.query<{ lead_id: string; delta: number }>('select lead_id, delta from public.credit_ledger where export_id = $1', [created.exportId])
    expect(ledger.filter((entry) => offline.some((lead) => lead.id === entry.lead_id))).toEqual([])
    expect(-ledger.reduce((sum, entry) => sum + entry.delta, 0)).toBe(leads.filter((lead) => lead.phone_status === 'success').length)
  })

  it('says how fresh the store is: the last Sirene day imported, or nothing yet', async () => {
    const before = await registryStoreFreshness(db)
    await admin.query(`insert into public.registry_imports (source, day, status, finished_at) values ('sirene', '2033-03-21', 'done', now()) on conflict do nothing`)
    await admin.query(`insert into public.registry_imports (source, day, status) values ('sirene', '2033-03-22', 'running') on conflict do nothing`)
    expect(await registryStoreFreshness(db)).toBe('2033-03-21')
    expect(before === null || before < '2033-03-21').toBe(true)
  })
})
