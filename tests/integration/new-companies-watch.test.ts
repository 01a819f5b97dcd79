// The new-companies watch (issue 32 item 3) through its real doors: saved from the /companies form's schema and from
// POST /api/v1/saved-searches, run by the saved-search run command with an injected clock, exported by the real
// processor against the demo map source (plus one listing that appears on the map later) and the local registry store
// (rows written with upsertEstablishments). Creation days are in 2031, which no other test's data reaches.
import { randomUUID } from 'node:crypto'
import { parseWithZod } from '@conform-to/zod/v4'
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
import { upsertEstablishments } from '#app/.server/registry-events/store.ts'
import { REGISTRY_MATCHED_ON_MAP, REGISTRY_NOT_ONLINE } from '#app/.server/registry/map-match.ts'
import { runSavedSearch } from '#app/.server/saved-searches/run.ts'
import { getSavedSearch } from '#app/.server/saved-searches/store.ts'
import { updateSavedSearchCommand } from '#app/.server/saved-searches/commands.ts'
import { UpdateSavedSearchSchema } from '#app/domain/saved-search-commands.ts'
import { saveWatch } from '#app/.server/saved-searches/watch-commands.ts'
import { resolveCategory } from '#app/.server/search/preview.ts'
import { searchParamsOf } from '#app/.server/search/resolve-criteria.ts'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import type { Business, LeadSource } from '#app/.server/sources/types.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'
import type { RegistryEstablishmentRecord } from '#app/domain/registry-establishment.ts'
import { registryFiltersSchema } from '#app/domain/registry-search.ts'
import { WatchNewCompaniesSchema } from '#app/domain/saved-search-commands.ts'
import { createApiUser } from '#tests/support/api-client.ts'
import { type DemoWebsites, startDemoWebsites } from '#server/demo/websites.ts'

let admin: pg.Pool
let db: Kysely<Database>
let sites: DemoWebsites
let demo: LeadSource
let enrichers: Enrichers
let onMap: Business[]

const BAKERY = '10.71C'
const FILTERS = { nafCodes: [BAKERY], place: { kind: 'commune', code: '29019' }, headcountBands: [], legalForms: [], activeOnly: true, labels: [] }

let serial = 0
function record(overrides: Partial<RegistryEstablishmentRecord>): RegistryEstablishmentRecord {
  serial++
  const siren = String(600_000_000 + Math.floor(Math.random() * 90_000_000) + serial).slice(0, 9)
  return {
    siret: `${siren}00011`,
    siren,
    name: `Quimlet Varnisk ${serial}`,
    naf: BAKERY,
    legalForm: '5499',
    headcount: null,
    postcode: '29200',
    commune: '29019',
    city: 'Brest',
    address: `${serial} rue Jean Jaurès 29200 Brest`,
    state: 'A',
    createdOn: '2031-05-01',
    headOffice: true,
    processedAt: '2031-05-20T08:00:00Z',
    ...overrides,
  }
}

/** The demo map, and listings that appeared on it since (a business now online). */
function mapWith(extra: Business[]): LeadSource {
  return {
    ...demo,
    async *search(params, category, options) {
      yield* demo.search(params, category, options)
      for (const business of extra) yield { ...business }
    },
  }
}

function listing(name: string, placeId: string): Business {
  const template = onMap[0]!
  return { ...template, placeId, name, postalCode: '29200', address: '3 rue Jean Jaurès, 29200 Brest', latitude: null, longitude: null, website: null, phone: '+33 2 98 11 22 33', siret: null }
}

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 4 })
  db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: admin }) })
  sites = await startDemoWebsites({ latencyMs: 2 })
  enrichers = createDefaultEnrichers(parseEnv({ DEMO_WEBSITES_URL: sites.url, ENRICH_ALLOW_HOSTS: new URL(sites.url).host }))
  demo = createDemoSource({ websitesBaseUrl: sites.url })
  const criteria = registryExportCriteria(registryFiltersSchema.parse(FILTERS))!
  onMap = []
  for await (const business of demo.search(searchParamsOf(criteria, 'fr'), resolveCategory('bakery', 'fr'), { limit: 50 })) onMap.push(business)
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

/** "Watch new companies" as the /companies form posts it. */
async function saveFromForm(user: SessionUser, now: Date) {
  const form = new FormData()
  for (const [name, value] of Object.entries({ intent: 'watch-new-companies', name: 'Nouvelles boulangeries – Brest', filters: JSON.stringify(FILTERS), scheduleKind: 'weekly', weekday: '1', hour: '8', timeZone: 'Europe/Paris' })) form.set(name, value)
  form.append('options', 'phone')
  const submission = parseWithZod(form, { schema: WatchNewCompaniesSchema })
  if (submission.status !== 'success') throw new Error(JSON.stringify(submission.error))
  const saved = await saveWatch({ ...user }, submission.value, { lang: 'fr', now })
  if (!saved.ok) throw new Error(saved.reason)
  return saved.id
}

async function runAt(user: SessionUser, id: string, now: string, source: LeadSource) {
  const result = await runSavedSearch({ user: { ...user }, id, idempotencyKey: randomUUID(), now: new Date(now) })
  if (!result.ok) throw new Error(`run refused: ${result.code}`)
  expect((await processExport(result.exportId, { enrichers, source, concurrency: 2 })).outcome).toBe('completed')
  const { rows } = await admin.query<{ id: string; siret: string; matched_by: string; phone_status: string }>(
    `select l.id, l.admin_fr_info -> 'results' -> 0 ->> 'siret' as siret, l.admin_fr_info ->> 'matched_by' as matched_by, el.phone_status
       from public.export_leads el join public.leads l on l.id = el.lead_id where el.export_id = $1`,
    [result.exportId],
  )
  const { rows: ledger } = await admin.query<{ lead_id: string; delta: number }>('select lead_id, delta from public.credit_ledger where export_id = $1', [result.exportId])
  const { rows: exp } = await admin.query<{ search_params: { registry: { createdAfter: string; createdBefore: string } } }>('select search_params from public.exports where id = $1', [result.exportId])
  return { exportId: result.exportId, leads: rows, ledger, window: exp[0]!.search_params.registry }
}

async function waiting(id: string) {
  const { rows } = await admin.query<{ siret: string; due_on: string; final_on: string; attempts: number }>(
    `select siret, due_on::text as due_on, final_on::text as final_on, attempts from public.saved_search_watch_retries where saved_search_id = $1 order by siret`,
    [id],
  )
  return rows
}

const sirets = (leads: Array<{ siret: string }>) => leads.map((lead) => lead.siret).sort()

describe('a weekly new-companies watch', () => {
  const rows: Record<string, RegistryEstablishmentRecord> = {}
  let user: SessionUser
  let id = ''

  beforeAll(async () => {
    const [a, b] = onMap.filter((business) => business.postalCode)
    Object.assign(rows, {
      before: record({ createdOn: '2031-04-20' }),
      firstOnline: record({ name: a!.name, postcode: a!.postalCode, createdOn: '2031-04-30' }),
      firstOffline: record({ name: 'Zeltrinox Quabbe', createdOn: '2031-05-01' }),
      neverOnline: record({ name: 'Wubblodrom Ympho', createdOn: '2031-05-04' }),
      runDay: record({ name: 'Krostavel Oxbrinn', createdOn: '2031-05-05' }),
      secondOnline: record({ name: b!.name, postcode: b!.postalCode, createdOn: '2031-05-08' }),
    })
    await upsertEstablishments(db, Object.values(rows), 'flux')
    user = await createUser()
    id = await saveFromForm(user, new Date('2031-05-01T10:00:00Z'))
  })

  it('is listed as a weekly new-companies saved search with its registry filters', async () => {
    const saved = (await getSavedSearch({ ...user }, id))!
    expect(saved).toMatchObject({ kind: 'new_companies', schedule: { kind: 'weekly', weekday: 1, hour: 8 }, watchWaiting: 0, criteria: { city: 'Brest', country: 'France' } })
    expect(saved.registryFilters).toMatchObject({ nafCodes: [BAKERY], place: { kind: 'commune', code: '29019' } })
    expect(saved.enrichments.sort()).toEqual(['admin_fr_info', 'phone'])
    expect(saved.nextRunAt).toBe('2031-05-05T06:00:00.000Z')
  })

  it('keeps a schedule: its edit cannot make it "never by itself" (it delivers what was registered since its last run)', async () => {
    const input = UpdateSavedSearchSchema.parse({ intent: 'update', name: 'Boulangeries', options: ['phone'], preset: 'all', scheduleKind: 'none', timeZone: 'Europe/Paris' })
    expect(await updateSavedSearchCommand({ ...user }, id, input, { lang: 'fr' })).toEqual({ ok: false, reason: 'watch_schedule' })
    expect((await getSavedSearch({ ...user }, id))!.schedule.kind).toBe('weekly')
  })

  it('first run: the last 7 days; the ones found online charged, the others free and waiting for D+7', async () => {
    const run = await runAt(user, id, '2031-05-05T06:00:00Z', mapWith([]))
    expect(run.window).toMatchObject({ createdAfter: '2031-04-27', createdBefore: '2031-05-04' })
    expect(sirets(run.leads)).toEqual(sirets([rows.firstOnline!, rows.firstOffline!, rows.neverOnline!]))
    const offline = run.leads.filter((lead) => lead.matched_by === REGISTRY_NOT_ONLINE)
    expect(sirets(offline)).toEqual(sirets([rows.firstOffline!, rows.neverOnline!]))
    // Nothing charged for them, the registry data neither; the map one's phone is.
    expect(run.ledger.filter((entry) => offline.some((lead) => lead.id === entry.lead_id))).toEqual([])
    expect(-run.ledger.reduce((sum, entry) => sum + entry.delta, 0)).toBe(run.leads.filter((lead) => lead.phone_status === 'success').length)
    expect(run.leads.find((lead) => lead.siret === rows.firstOnline!.siret)?.phone_status).toBe('success')
    expect(await waiting(id)).toEqual(
      sirets(offline).map((siret) => ({ siret, due_on: '2031-05-12', final_on: '2031-06-04', attempts: 0 })),
    )
    expect((await getSavedSearch({ ...user }, id))!.watchWaiting).toBe(2)
    const { rows: told } = await admin.query(`select data from public.notifications where user_id = $1 and kind = 'saved_search.new_businesses'`, [user.id])
    expect(told).toEqual([{ data: expect.objectContaining({ savedSearchId: id, newCount: 3 }) }])
  })

  it('D+7: the new week, once; the one now on the map delivered and charged then; the other waits for D+30', async () => {
    const run = await runAt(user, id, '2031-05-12T06:00:00Z', mapWith([listing('Zeltrinox Quabbe', 'demo/new-listing-1')]))
    expect(run.window).toMatchObject({ createdAfter: '2031-05-04', createdBefore: '2031-05-11' })
    expect(sirets(run.leads)).toEqual(sirets([rows.runDay!, rows.secondOnline!, rows.firstOffline!]))
    const found = run.leads.find((lead) => lead.siret === rows.firstOffline!.siret)!
    expect(found).toMatchObject({ matched_by: REGISTRY_MATCHED_ON_MAP, phone_status: 'success' })
    expect(run.ledger.filter((entry) => entry.lead_id === found.id).map((entry) => entry.delta)).toEqual([-1])
    expect(await waiting(id)).toEqual([
      { siret: rows.neverOnline!.siret, due_on: '2031-06-04', final_on: '2031-06-04', attempts: 1 },
      { siret: rows.runDay!.siret, due_on: '2031-05-19', final_on: '2031-06-11', attempts: 0 },
    ].sort((x, y) => (x.siret < y.siret ? -1 : 1)))
  })

  it('a week with nothing new delivers nothing, for nothing; after D+30 the one never found is dropped', async () => {
    const quiet = await runAt(user, id, '2031-05-26T06:00:00Z', mapWith([]))
    // runDay's retry was due (D+7) and not found: it waits for its D+30.
    expect(quiet.leads).toEqual([])
    expect(quiet.ledger).toEqual([])
    const late = await runAt(user, id, '2031-06-09T06:00:00Z', mapWith([]))
    expect(late.leads).toEqual([])
    expect(await waiting(id)).toEqual([{ siret: rows.runDay!.siret, due_on: '2031-06-11', final_on: '2031-06-11', attempts: 1 }])
    expect((await getSavedSearch({ ...user }, id))!.watchWaiting).toBe(1)
    await runAt(user, id, '2031-06-16T06:00:00Z', mapWith([]))
    expect(await waiting(id)).toEqual([])
  })

  it('the API saves the same watch as the form', async () => {
    const { api, user: apiUser } = await createApiUser(admin, 100)
    const { data, response } = await api.POST('/api/v1/saved-searches', {
      params: { query: { lang: 'fr' } },
      body: {
        name: 'Nouvelles boulangeries – Brest',
        kind: 'new_companies',
        registry: { naf_codes: [BAKERY], place: { kind: 'commune', code: '29019' } },
        enrichments: ['phone'],
        schedule: { kind: 'weekly', weekday: 1, hour: 8, time_zone: 'Europe/Paris' },
      },
    })
    expect(response.status).toBe(201)
    expect(data).toMatchObject({ kind: 'new_companies', registry: { naf_codes: [BAKERY], place: { kind: 'commune', code: '29019' } }, waiting_online: 0, schedule: { kind: 'weekly', weekday: 1 } })
    const columns = 'kind, registry_filters, criteria, enrichments, schedule_kind, schedule_weekday, schedule_hour, time_zone, lang'
    const { rows: both } = await admin.query(`select ${columns} from public.saved_searches where id = any($1::uuid[]) order by user_id = $2`, [[id, data!.id], apiUser.id])
    expect(both[1]).toEqual(both[0])
    const refused = await api.POST('/api/v1/saved-searches', {
      params: { query: { lang: 'en' } },
      body: { name: 'Labels', kind: 'new_companies', registry: { naf_codes: [BAKERY], place: { kind: 'commune', code: '29019' }, labels: ['rge'] }, enrichments: ['phone'], schedule: { kind: 'weekly', weekday: 1 } },
    })
    expect(refused.response.status).toBe(422)
  })
})
