// CRM push end to end on the server (issue 30): real database, real enrichment of demo sites, the API's doors, the
// push job, and local fakes of HubSpot and Pipedrive. Pushing an export twice creates nothing the second time; the
// do-not-contact list holds as it is at push time; an opt-out in HubSpot is added to the team's list; the secret is
// stored encrypted and never readable by the signed-in role; two workers share one CRM account's budget.
import crypto, { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { closeDb } from '#app/.server/db.ts'
import type { SessionUser } from '#app/.server/auth.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import { createCrmHttp } from '#app/.server/integrations/crm-http.ts'
import { syncConnectionOptOuts } from '#app/.server/integrations/opt-outs.ts'
import { pipedrive } from '#app/.server/integrations/providers/pipedrive.ts'
import { runCrmPush } from '#app/.server/integrations/push-run.ts'
import { sweepPushes } from '#app/.server/integrations/push-queue.ts'
import { getExportQueueBoss } from '#app/.server/exports/queue.ts'
import { openSecret } from '#app/.server/integrations/secrets.ts'
import { createGlobalLimits } from '#app/.server/limits/global.ts'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import type { LeadSource } from '#app/.server/sources/types.ts'
import { toCrmRecord, DEFAULT_CRM_MAPPING } from '#app/domain/crm.ts'
import { createApiUser, type ApiClient } from '#tests/support/api-client.ts'
import { startFakeHubspot, type FakeHubspot } from '#tests/support/crm-fakes/hubspot.ts'
import { FAKE_PIPEDRIVE_TOKEN, startFakePipedrive, type FakePipedrive } from '#tests/support/crm-fakes/pipedrive.ts'
import { startDemoServices, type DemoServices } from '#tests/support/demo-services.ts'
import { apiLead } from '#tests/support/crm-leads.ts'

const HUBSPOT_TOKEN = 'pat-eu1-fake-token'
const LEADS = 8

let admin: pg.Pool
let services: DemoServices
let hubspotFake: FakeHubspot
let pipedriveFake: FakePipedrive
let demo: LeadSource
const engines: Enrichers[] = []

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  process.env.INTEGRATIONS_ENCRYPTION_KEY = crypto.randomBytes(32).toString('base64')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 4 })
  services = await startDemoServices({ latencyMs: 0 })
  hubspotFake = await startFakeHubspot({ token: HUBSPOT_TOKEN })
  pipedriveFake = await startFakePipedrive()
  process.env.HUBSPOT_API_URL = hubspotFake.url
  process.env.PIPEDRIVE_API_URL = pipedriveFake.url
  demo = createDemoSource({ websitesBaseUrl: services.sites.url })
})

afterAll(async () => {
  for (const engine of engines) await engine.close?.()
  await hubspotFake?.close()
  await pipedriveFake?.close()
  await services?.stop()
  await closeDb()
  await admin?.end()
})

/** The demo businesses under place ids of their own: nothing another test stored is reused. */
function ownBusinesses(): LeadSource {
  const token = randomUUID()
  return { name: demo.name, async *search(params, category, options) { for await (const business of demo.search(params, category, options)) yield { ...business, placeId: `${token}:${business.placeId}` } } }
}

async function enrich(exportId: string, source: LeadSource) {
  const engine = createDefaultEnrichers(services.env)
  engines.push(engine)
  return processExport(exportId, { enrichers: engine, source, maxLeads: LEADS, concurrency: 4 })
}

/** A completed export of LEADS demo bakeries in Lyon, enriched with phone, website and emails. */
async function completedExport(userId: string): Promise<string> {
  const { rows } = await admin.query<{ id: string }>(
    `insert into public.exports (user_id, name, status, search_status, enrichment_status, search_params, enrichment_options, country, region, department, city, business_types)
     values ($1, 'Bakeries – Lyon', 'processing', 'pending', 'pending', $2, $3, 'France', 'Auvergne-Rhône-Alpes', 'Rhône', 'Lyon', '{boulangerie}') returning id`,
    [userId, { sector: 'boulangerie', country: 'France', countryCode: 'FR', region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon', lang: 'fr' }, { phone: true, website: true, email: true }],
  )
  const engine = createDefaultEnrichers(services.env)
  engines.push(engine)
  const result = await processExport(rows[0]!.id, { enrichers: engine, source: ownBusinesses(), maxLeads: LEADS, concurrency: 4 })
  expect(result.outcome).toBe('completed')
  return rows[0]!.id
}

interface Team {
  user: SessionUser
  api: ApiClient
  exportId: string
}

async function team(): Promise<Team> {
  const { user, api } = await createApiUser(admin, 1000)
  return { user, api, exportId: await completedExport(user.id) }
}

type ConnectBody = { provider: 'hubspot' | 'pipedrive' | 'brevo' | 'sheets'; label: string; secret: string; spreadsheet?: string }

async function connect(api: ApiClient, body: ConnectBody) {
  const { data, response } = await api.POST('/api/v1/crm-connections', { body })
  expect(response.status).toBe(201)
  return data!
}

const startPush = (api: ApiClient, exportId: string, body: { connection_id: string; lead_ids?: string[] }, headers: Record<string, string> = {}) =>
  api.POST('/api/v1/exports/{id}/crm-pushes', { params: { path: { id: exportId }, header: headers }, body })

const skippedItems = async (api: ApiClient, pushId: string) =>
  (await api.GET('/api/v1/crm-pushes/{id}/items', { params: { path: { id: pushId }, query: { outcome: 'skipped' } } })).data!.data

/** Starts a push through the API and runs its job here (the worker's part). */
async function push(api: ApiClient, exportId: string, connectionId: string, extra: { lead_ids?: string[] } = {}, headers: Record<string, string> = {}) {
  const { data, response } = await startPush(api, exportId, { connection_id: connectionId, ...extra }, headers)
  if (response.status === 202) expect(await runCrmPush(data!.id)).toMatchObject({ outcome: 'completed' })
  const read = await api.GET('/api/v1/crm-pushes/{id}', { params: { path: { id: data!.id } } })
  return { status: response.status, push: read.data! }
}

const companiesOfExport = (fake: FakeHubspot, leadIds: readonly string[]) => [...fake.companies.values()].filter((company) => leadIds.includes(company.properties.leadatlas_id ?? ''))

const leadIdsOf = async (exportId: string) => (await admin.query<{ lead_id: string }>('select lead_id from public.export_leads where export_id = $1', [exportId])).rows.map((row) => row.lead_id)

describe('pushing an export to HubSpot', () => {
  it('creates each company once: the second push of the same export creates nothing and the report says why', async () => {
    const { api, exportId } = await team()
    const connection = await connect(api, { provider: 'hubspot', label: 'Sales HubSpot', secret: HUBSPOT_TOKEN })
    expect(connection.secret_hint).toBe('pat-…oken')
    const leads = await leadIdsOf(exportId)

    const first = await push(api, exportId, connection.id)
    expect(first.push).toMatchObject({ status: 'completed', total: LEADS, created: LEADS, failed: 0 })
    expect(companiesOfExport(hubspotFake, leads)).toHaveLength(LEADS)
    const contacts = hubspotFake.contacts.size
    expect(contacts).toBeGreaterThan(0)

    const second = await push(api, exportId, connection.id)
    expect(second.push).toMatchObject({ status: 'completed', created: 0, failed: 0 })
    expect(second.push.skipped + second.push.updated).toBe(LEADS)
    expect(companiesOfExport(hubspotFake, leads)).toHaveLength(LEADS)
    expect(hubspotFake.contacts.size).toBe(contacts)

    const report = await skippedItems(api, second.push.id)
    expect(report.length).toBe(second.push.skipped)
    expect(report.every((item) => item.reason === 'unchanged' && item.remote_id)).toBe(true)
  })

  it('pushes only the chosen leads, replays an Idempotency-Key, and refuses the same key for another request', async () => {
    const { api, exportId } = await team()
    const connection = await connect(api, { provider: 'hubspot', label: 'Chosen', secret: HUBSPOT_TOKEN })
    const [one, two] = await leadIdsOf(exportId)
    const first = await push(api, exportId, connection.id, { lead_ids: [one!] }, { 'Idempotency-Key': 'push-1' })
    expect(first.push).toMatchObject({ total: 1, created: 1 })
    const again = await startPush(api, exportId, { connection_id: connection.id, lead_ids: [one!] }, { 'Idempotency-Key': 'push-1' })
    expect(again.response.status).toBe(200)
    expect(again.data!.id).toBe(first.push.id)
    const conflict = await startPush(api, exportId, { connection_id: connection.id, lead_ids: [two!] }, { 'Idempotency-Key': 'push-1' })
    expect(conflict.response.status).toBe(409)
    expect((conflict.error as { code: string }).code).toBe('idempotency_conflict')
    const foreign = await startPush(api, exportId, { connection_id: connection.id, lead_ids: [randomUUID()] })
    expect(foreign.response.status).toBe(422)
  })

  it('never pushes what the do-not-contact list holds now, and reads HubSpot opt-outs back into it', async () => {
    const { user, api, exportId } = await team()
    const connection = await connect(api, { provider: 'hubspot', label: 'Opt-outs', secret: HUBSPOT_TOKEN })
    const { rows } = await admin.query<{ id: string; source: string; place_id: string; email: string[] | null }>(
      `select l.id, l.source, l.place_id, l.email from public.leads l join public.export_leads el on el.lead_id = l.id where el.export_id = $1 order by el.position`,
      [exportId],
    )
    const banned = rows[0]!
    // Added after the export ran: the push reads the list as it is now.
    const added = await api.POST('/api/v1/do-not-contact', { body: { entries: [`${banned.source}:${banned.place_id}`] } })
    expect(added.response.status).toBe(201)
    const pushed = await push(api, exportId, connection.id)
    expect(pushed.push.skipped).toBeGreaterThanOrEqual(1)
    expect(companiesOfExport(hubspotFake, [banned.id])).toHaveLength(0)
    const items = await skippedItems(api, pushed.push.id)
    expect(items).toContainEqual(expect.objectContaining({ lead_id: banned.id, reason: 'do_not_contact' }))

    const withEmail = rows.find((row) => row.id !== banned.id && row.email?.length)
    expect(withEmail).toBeDefined()
    hubspotFake.optOut(withEmail!.email![0]!)
    await syncConnectionOptOuts(user.workspace.id, connection.id)
    const { rows: listed } = await admin.query<{ source: string }>(`select source from public.do_not_contact where user_id = $1 and kind = 'email' and value = $2`, [user.workspace.id, withEmail!.email![0]!.toLowerCase()])
    expect(listed).toEqual([{ source: 'hubspot' }])
  })

  it('runs one push per team at a time: the next waits queued and is handed on when the first ends', async () => {
    const { api, exportId } = await team()
    const connection = await connect(api, { provider: 'hubspot', label: 'One at a time', secret: HUBSPOT_TOKEN })
    const [one, two] = await leadIdsOf(exportId)
    const first = (await startPush(api, exportId, { connection_id: connection.id, lead_ids: [one!] })).data!
    const second = (await startPush(api, exportId, { connection_id: connection.id, lead_ids: [two!] })).data!
    const results = await Promise.all([runCrmPush(first.id), runCrmPush(second.id)])
    const outcomes = results.map((result) => result.outcome).sort()
    expect(outcomes).toEqual(['busy', 'completed'])
    const waiting = results[0]!.outcome === 'busy' ? first.id : second.id
    expect(results.find((result) => result.outcome === 'completed')!.next).toBe(waiting)
    expect(await runCrmPush(waiting)).toMatchObject({ outcome: 'completed' })
  })

  it('stores the credential encrypted under this connection only, and never grants it to the signed-in role', async () => {
    const { user, api } = await team()
    const connection = await connect(api, { provider: 'hubspot', label: 'Secret', secret: HUBSPOT_TOKEN })
    const { rows } = await admin.query<{ secret_ciphertext: string }>('select secret_ciphertext from public.crm_connections where id = $1', [connection.id])
    expect(rows[0]!.secret_ciphertext).not.toContain(HUBSPOT_TOKEN)
    expect(openSecret(rows[0]!.secret_ciphertext, connection.id)).toBe(HUBSPOT_TOKEN)
    expect(() => openSecret(rows[0]!.secret_ciphertext, randomUUID())).toThrow()
    const listed = await api.GET('/api/v1/crm-connections', {})
    expect(JSON.stringify(listed.data)).not.toContain(HUBSPOT_TOKEN)
    const client = await admin.connect()
    try {
      await client.query('begin')
      await client.query(`select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)`, [JSON.stringify({ sub: user.id, role: 'authenticated' })])
      await expect(client.query('select secret_ciphertext from public.crm_connections')).rejects.toThrow(/permission denied/)
    } finally {
      await client.query('rollback')
      client.release()
    }
  })

  it('refuses a credential the CRM refuses, with its reason, and stores nothing', async () => {
    const { user, api } = await team()
    const { response, error } = await api.POST('/api/v1/crm-connections', { body: { provider: 'hubspot', label: 'Wrong', secret: 'pat-eu1-not-the-right-one' } })
    expect(response.status).toBe(422)
    expect((error as { code: string }).code).toBe('crm_refused')
    const { rows } = await admin.query('select 1 from public.crm_connections where user_id = $1', [user.workspace.id])
    expect(rows).toHaveLength(0)
  })
})

describe('pushing to Pipedrive', () => {
  it('creates organizations once and persons once per email, across two pushes', async () => {
    const { api, exportId } = await team()
    const connection = await connect(api, { provider: 'pipedrive', label: 'Pipedrive', secret: FAKE_PIPEDRIVE_TOKEN })
    const before = pipedriveFake.organizations.size
    const first = await push(api, exportId, connection.id)
    expect(first.push).toMatchObject({ created: LEADS, failed: 0 })
    const persons = pipedriveFake.persons.size
    const second = await push(api, exportId, connection.id)
    expect(second.push.created).toBe(0)
    expect(pipedriveFake.organizations.size).toBe(before + LEADS)
    expect(pipedriveFake.persons.size).toBe(persons)
  })

  it('keeps one CRM account within its documented burst when two workers push at once', async () => {
    const fake = await startFakePipedrive({ burstPer2s: 20 })
    const pools = [new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 }), new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 })]
    try {
      const limitKey = `pipedrive:two-workers:${randomUUID()}`
      const adapters = pools.map((pool, index) =>
        pipedrive.create({
          secret: FAKE_PIPEDRIVE_TOKEN,
          baseUrl: fake.url,
          http: (headers) => createCrmHttp({ baseUrl: fake.url, headers, limitKey, budgets: pipedrive.budgets, account: `worker-${index}`, limits: createGlobalLimits(pool), retryBaseDelayMs: 50 }),
        }),
      )
      const settings = await adapters[0]!.prepare({})
      const records = (worker: number) =>
        Array.from({ length: 8 }, (_, index) => toCrmRecord(apiLead({ id: randomUUID(), name: `Boulangerie ${worker}-${index}`, website: `https://w${worker}-${index}-${randomUUID().slice(0, 6)}.example`, emails: [] })))
      const results = await Promise.all(adapters.map((adapter, worker) => adapter.upsert(records(worker), DEFAULT_CRM_MAPPING, settings)))
      expect(results.flat().every((row) => row.outcome === 'created')).toBe(true)
      // The fake answered 429 to nothing: the two workers counted their requests in one shared window.
      expect(fake.throttled).toBe(0)
    } finally {
      await fake.close()
      for (const pool of pools) await pool.end()
    }
  }, 60_000)
})

describe('a saved search that pushes every run', () => {
  it('pushes each run that found new businesses once, and nothing for a run that found none', async () => {
    const { user, api } = await createApiUser(admin, 1000)
    const connection = await connect(api, { provider: 'hubspot', label: 'Every Monday', secret: HUBSPOT_TOKEN })
    const created = await api.POST('/api/v1/saved-searches', {
      body: {
        name: 'Bakeries – Lyon, weekly',
        criteria: { sector: 'shop-bakery', country: 'France', region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon' },
        enrichments: ['phone'],
        schedule: { kind: 'weekly', weekday: 1, hour: 8, time_zone: 'Europe/Paris' },
        push_connection_ids: [connection.id, randomUUID()],
      },
    })
    expect(created.response.status).toBe(201)
    // Another team's id (or a removed one) is dropped, the team's own is kept.
    expect(created.data!.push_connection_ids).toEqual([connection.id])
    // Five businesses in all: the first run delivers them, the next finds none new.
    const all = ownBusinesses()
    const source: LeadSource = {
      name: all.name,
      async *search(params, category, options) {
        let given = 0
        for await (const business of all.search(params, category, options)) {
          if (given++ >= 5) return
          yield business
        }
      },
    }
    const run = async (key: string) => {
      const started = await api.POST('/api/v1/saved-searches/{id}/runs', { params: { path: { id: created.data!.id }, header: { 'Idempotency-Key': key } } })
      expect(started.response.status).toBe(202)
      await enrich(started.data!.id, source)
      return started.data!.id
    }
    const pushesOf = async () => (await admin.query<{ id: string; export_id: string; status: string }>('select id, export_id, status from public.crm_pushes where user_id = $1 order by created_at', [user.workspace.id])).rows

    const firstExport = await run('monday-1')
    const [queued] = await pushesOf()
    expect(queued).toMatchObject({ export_id: firstExport, status: 'queued' })
    // The sweep hands the trigger's push to pg-boss (once, however often it runs).
    const boss = await getExportQueueBoss()
    await sweepPushes(boss)
    await sweepPushes(boss)
    const { rows: jobs } = await admin.query("select id from pgboss.job where name = 'crm-push' and singleton_key = $1", [queued!.id])
    expect(jobs).toHaveLength(1)
    expect(await runCrmPush(queued!.id)).toMatchObject({ outcome: 'completed' })
    const first = await api.GET('/api/v1/crm-pushes/{id}', { params: { path: { id: queued!.id } } })
    expect(first.data!.created).toBeGreaterThan(0)

    // The next Monday finds no new business: an export of nothing, and no push.
    await run('monday-2')
    expect(await pushesOf()).toHaveLength(1)
  })
})
