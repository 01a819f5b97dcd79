// Registry-first exports (issue 22 item 4) through the real command and processor: real database, demo map source,
// demo websites and demo registry (the map is about 70 % of the registry). Every establishment is delivered with its
// registry data; those the map does not know say "not found online" and cost nothing; the do-not-contact list and
// "only new" apply; a business paid for in a map-first export is not paid again in a registry-first one (nor the other
// way round); the API door runs the same command.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { closeDb } from '#app/.server/db.ts'
import { addDncEntries } from '#app/.server/do-not-contact/store.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import { createExport } from '#app/.server/exports/service.ts'
import { getExportDetail } from '#app/.server/exports/views.ts'
import { parseEnv } from '#app/.server/env.server.ts'
import { createRegistryLimiter, registryLimiterKey } from '#app/.server/registry/limiter.ts'
import { REGISTRY_MATCHED_ON_MAP, REGISTRY_NOT_ONLINE } from '#app/.server/registry/map-match.ts'
import { createRegistrySearchClient, type RegistrySearchClient } from '#app/.server/registry/search.ts'
import { resolveCategory } from '#app/.server/search/preview.ts'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import type { LeadSource } from '#app/.server/sources/types.ts'
import { parseDncEntry } from '#app/domain/do-not-contact.ts'
import { NO_ENRICHMENT } from '#app/domain/enrichment.ts'
import { registryFiltersSchema, type RegistryFilters } from '#app/domain/registry-search.ts'
import { type DemoRegistry, startDemoRegistry } from '#server/demo/registry.ts'
import { type DemoWebsites, startDemoWebsites } from '#server/demo/websites.ts'
import { createApiUser } from '#tests/support/api-client.ts'
import { closedPortUrl } from '#tests/support/closed-port.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

let admin: pg.Pool
let sites: DemoWebsites
let registry: DemoRegistry
let enrichers: Enrichers
let source: LeadSource
let client: RegistrySearchClient
let filters: RegistryFilters

const OPTIONS = { ...NO_ENRICHMENT, phone: true, website: true }
const BLANK = { sector: '', country: 'France', region: '', department: '', city: '' }

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 4 })
  sites = await startDemoWebsites({ latencyMs: 2 })
  registry = await startDemoRegistry()
  enrichers = createDefaultEnrichers(parseEnv({ DEMO_WEBSITES_URL: sites.url, REGISTRY_URL: registry.url, ENRICH_ALLOW_HOSTS: `${new URL(sites.url).host},${new URL(registry.url).host}` }))
  source = createDemoSource({ websitesBaseUrl: sites.url })
  const limiter = createRegistryLimiter({ pool: admin, key: registryLimiterKey(registry.url), requestsPerSecond: 1000 })
  client = createRegistrySearchClient({ baseUrl: registry.url, pool: admin, limiter, cacheSeconds: 0 })
  // Brest's bakeries: the demo registry's universe test checks the map holds about 70 % of them.
  filters = registryFiltersSchema.parse({ nafCodes: resolveCategory('bakery', 'fr')?.naf, place: { kind: 'commune', code: '29019' }, activeOnly: false })
})

afterAll(async () => {
  await enrichers?.close?.()
  await registry?.stop()
  await sites?.stop()
  await closeDb()
  await admin?.end()
})

async function createUser(credits = 10_000): Promise<SessionUser> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@example.test`, {}])
  await admin.query(`select public.apply_credit_change($1, $2 - (select remaining_credits from public.user_credits where user_id = $1), 'adjustment', $3)`, [id, credits, `test:${randomUUID()}`])
  return personalSession(id, `${id}@example.test`)
}

async function run(exportId: string) {
  const result = await processExport(exportId, { enrichers, source, registry: client, concurrency: 4 })
  expect(result.outcome).toBe('completed')
}

async function registryExport(user: SessionUser, extra: { onlyNew?: boolean } = {}): Promise<string> {
  const created = await createExport({ user: { ...user }, name: 'Boulangeries du registre', criteria: BLANK, registry: filters, enrichmentOptions: OPTIONS, idempotencyKey: randomUUID(), lang: 'fr', ...extra })
  if (!created.ok) throw new Error(`createExport refused: ${created.code}`)
  await run(created.exportId)
  return created.exportId
}

interface LeadRow {
  place_id: string
  source: string
  phone: string | null
  website: string | null
  admin_fr_info: { matched_by: string; confidence: number | null; results: Array<{ siren: string; siret: string | null }> }
  phone_status: string
  website_status: string
  admin_fr_info_status: string
}

async function leadsOf(exportId: string): Promise<LeadRow[]> {
  const { rows } = await admin.query<LeadRow>(
    `select l.place_id, l.source, l.phone, l.website, l.admin_fr_info, el.phone_status, el.website_status, el.admin_fr_info_status
       from public.export_leads el join public.leads l on l.id = el.lead_id where el.export_id = $1 order by el.position`,
    [exportId],
  )
  return rows
}

/** What the export charged (its ledger rows), what it says it used, and what it left out. */
async function accounts(exportId: string) {
  const { rows } = await admin.query<{ used: number; charged: number; excluded: Record<string, number> | null; lead_count: number }>(
    `select e.total_credits_used as used, e.excluded, e.lead_count,
            (select coalesce(-sum(delta), 0)::int from public.credit_ledger where export_id = e.id) as charged
       from public.exports e where e.id = $1`,
    [exportId],
  )
  return rows[0]!
}

const successes = (leads: LeadRow[]) => leads.reduce((n, lead) => n + Number(lead.phone_status === 'success') + Number(lead.website_status === 'success'), 0)

async function registrySize(): Promise<number> {
  let count = 0
  for await (const _ of client.establishments(filters, { limit: 10_000 })) count++
  return count
}

describe('registry-first export', () => {
  let user: SessionUser
  let firstExport = ''
  let first: LeadRow[] = []

  it('delivers every establishment with its registry data; about 30 % not found online, and they cost nothing', async () => {
    user = await createUser()
    firstExport = await registryExport(user)
    first = await leadsOf(firstExport)
    expect(first.length).toBe(await registrySize())
    expect(first.every((lead) => lead.admin_fr_info_status === 'success' && /^\d{9}$/.test(lead.admin_fr_info.results[0]!.siren))).toBe(true)

    const offline = first.filter((lead) => lead.admin_fr_info.matched_by === REGISTRY_NOT_ONLINE)
    const online = first.filter((lead) => lead.admin_fr_info.matched_by === REGISTRY_MATCHED_ON_MAP)
    expect(offline.length + online.length).toBe(first.length)
    expect(offline.length / first.length).toBeGreaterThan(0.2)
    expect(offline.length / first.length).toBeLessThan(0.4)
    // Not found online: registry data only, no phone nor site, nothing charged for the tasks that found nothing.
    expect(offline.every((lead) => lead.place_id.startsWith('registry-') && lead.phone === null && lead.website === null)).toBe(true)
    expect(offline.every((lead) => lead.admin_fr_info.confidence === null && lead.phone_status !== 'success' && lead.website_status !== 'success')).toBe(true)
    // Found on the map: the map's own business (its phone, site, rating), with the match's confidence.
    expect(online.every((lead) => !lead.place_id.startsWith('registry-') && (lead.admin_fr_info.confidence ?? 0) >= 0.5)).toBe(true)
    expect(online.filter((lead) => lead.phone !== null).length).toBeGreaterThan(online.length / 2)

    // The export page says so on each lead (its registry cell), as the file's "Identified by" column does.
    const pageSize = (await getExportDetail({ ...user }, firstExport, 1))!.leads.length
    const index = first.findIndex((lead) => lead.admin_fr_info.matched_by === REGISTRY_NOT_ONLINE)
    const pageNumber = Math.floor(index / pageSize) + 1
    const page = (await getExportDetail({ ...user }, firstExport, pageNumber))!.leads.map((lead) => lead.notFoundOnline)
    const start = (pageNumber - 1) * pageSize
    expect(page).toEqual(first.slice(start, start + pageSize).map((lead) => lead.admin_fr_info.matched_by === REGISTRY_NOT_ONLINE))
    expect(page).toContain(true)

    // The ledger holds exactly one credit per phone or website found; the registry data is free.
    const { used, charged } = await accounts(firstExport)
    expect(charged).toBe(successes(first))
    expect(used).toBe(charged)
    expect(charged).toBeGreaterThan(0)
  })

  it('a second export with "only new" is empty and free', async () => {
    const again = await registryExport(user, { onlyNew: true })
    expect(await leadsOf(again)).toEqual([])
    const { charged, used, excluded } = await accounts(again)
    expect([charged, used]).toEqual([0, 0])
    expect(excluded?.already_exported).toBe(first.length)
  })

  it('an establishment whose SIREN is on the do-not-contact list is left out, uncharged and counted', async () => {
    const other = await createUser()
    const listed = first.find((lead) => lead.admin_fr_info.matched_by === REGISTRY_NOT_ONLINE)!.admin_fr_info.results[0]!.siren
    const listedOnline = first.find((lead) => lead.admin_fr_info.matched_by === REGISTRY_MATCHED_ON_MAP)!.admin_fr_info.results[0]!.siren
    const entries = [listed, listedOnline].map((siren) => parseDncEntry(siren) ?? expect.unreachable(siren))
    expect(await addDncEntries({ ...other }, entries)).toEqual({ ok: true, added: 2 })
    const exportId = await registryExport(other)
    const leads = await leadsOf(exportId)
    const sirens = new Set(leads.map((lead) => lead.admin_fr_info.results[0]!.siren))
    expect(sirens.has(listed) || sirens.has(listedOnline)).toBe(false)
    expect(leads.length).toBe(first.length - 2)
    const { excluded, charged } = await accounts(exportId)
    expect(excluded?.dnc_siren).toBe(2)
    expect(charged).toBe(successes(leads))
  })

  it('never pays twice for a business across a map-first and a registry-first export, in either order', async () => {
    const mapCriteria = { sector: 'bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest' }
    const mapExport = async (owner: SessionUser) => {
      const created = await createExport({ user: { ...owner }, name: 'Boulangeries de la carte', criteria: mapCriteria, enrichmentOptions: OPTIONS, idempotencyKey: randomUUID(), lang: 'fr' })
      if (!created.ok) throw new Error(`createExport refused: ${created.code}`)
      await run(created.exportId)
      return created.exportId
    }
    const paidLeads = async (exportId: string) => {
      const { rows } = await admin.query<{ lead_id: string }>('select distinct lead_id from public.credit_ledger where export_id = $1 and delta < 0', [exportId])
      return new Set(rows.map((row) => row.lead_id))
    }
    const linked = async (exportId: string) => {
      const { rows } = await admin.query<{ lead_id: string }>('select lead_id from public.export_leads where export_id = $1', [exportId])
      return new Set(rows.map((row) => row.lead_id))
    }

    for (const order of [['map', 'registry'], ['registry', 'map']] as const) {
      const owner = await createUser()
      const [firstId, secondId] = order[0] === 'map' ? [await mapExport(owner), await registryExport(owner)] : [await registryExport(owner), await mapExport(owner)]
      const paidFirst = await paidLeads(firstId)
      const both = [...(await linked(secondId))].filter((leadId) => paidFirst.has(leadId))
      // The map's businesses are the same leads in both (the registry-first one found them on the map).
      expect(both.length, order.join(' then ')).toBeGreaterThan(paidFirst.size / 2)
      const paidAgain = [...(await paidLeads(secondId))].filter((leadId) => paidFirst.has(leadId))
      expect(paidAgain, order.join(' then ')).toEqual([])
      const { charged, used } = await accounts(secondId)
      expect(charged).toBe(used)
    }
  })

  it('"only new" after a map-first export leaves out every establishment it delivered, by place or by SIRET', async () => {
    const owner = await createUser()
    const mapCriteria = { sector: 'bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest' }
    const created = await createExport({ user: { ...owner }, name: 'Carte', criteria: mapCriteria, enrichmentOptions: { ...OPTIONS, admin_fr_info: true }, idempotencyKey: randomUUID(), lang: 'fr' })
    if (!created.ok) throw new Error(created.code)
    await run(created.exportId)
    const delivered = await leadsOf(created.exportId)
    const sirets = new Set(delivered.flatMap((lead) => (lead.admin_fr_info_status === 'success' && lead.admin_fr_info.results[0]?.siret) || []))
    expect(sirets.size).toBeGreaterThan(delivered.length / 2)

    const again = await registryExport(owner, { onlyNew: true })
    const fresh = await leadsOf(again)
    expect(fresh.filter((lead) => sirets.has(lead.admin_fr_info.results[0]!.siret ?? '') || delivered.some((old) => old.place_id === lead.place_id))).toEqual([])
    expect(fresh.length).toBeGreaterThan(0)
    const { excluded, charged, used } = await accounts(again)
    expect(excluded?.already_exported).toBeGreaterThanOrEqual(sirets.size)
    expect(charged).toBe(used)
  })

  it('the API door runs the same command: same leads, stored filters, plan rules', async () => {
    const { api, user: apiUser } = await createApiUser(admin, 5_000)
    const body = { naf_codes: filters.nafCodes, place: { kind: 'commune' as const, code: '29019' }, active_only: false }
    const { data, response } = await api.POST('/api/v1/exports', { body: { name: 'Registre via API', registry: body, enrichments: ['phone', 'website'] } })
    expect(response.status).toBe(202)
    const { rows } = await admin.query<{ search_params: { registry: RegistryFilters; city: string } }>('select search_params from public.exports where id = $1', [data!.id])
    expect(rows[0]!.search_params.registry).toEqual(filters)
    expect(rows[0]!.search_params.city).toBe('Brest')
    await run(data!.id)
    const leads = await leadsOf(data!.id)
    expect(leads.map((lead) => lead.admin_fr_info.results[0]!.siren).sort()).toEqual(first.map((lead) => lead.admin_fr_info.results[0]!.siren).sort())
    expect((await accounts(data!.id)).charged).toBe(successes(leads))

    // Both doors or neither: a 422 naming the field.
    const both = await api.POST('/api/v1/exports', { body: { name: 'x', registry: body, criteria: { sector: 'bakery', country: 'France' }, enrichments: ['phone'] } })
    expect(both.response.status).toBe(422)
    // A free trial cannot export a whole region, from the registry as from the map.
    const region = await api.POST('/api/v1/exports', { body: { name: 'x', registry: { ...body, place: { kind: 'region', code: '53' } }, enrichments: ['phone'] } })
    expect(region.response.status).toBe(403)
    const { rows: count } = await admin.query<{ n: number }>('select count(*)::int as n from public.exports where user_id = $1', [apiUser.id])
    expect(count[0]!.n).toBe(1)
  })

  it('a registry that cannot be reached is retried by the queue, then fails the export resumable, nothing charged', async () => {
    const down = await createUser()
    const created = await createExport({ user: { ...down }, name: 'Registre injoignable', criteria: BLANK, registry: filters, enrichmentOptions: OPTIONS, idempotencyKey: randomUUID(), lang: 'fr' })
    if (!created.ok) throw new Error(created.code)
    const limiter = createRegistryLimiter({ pool: admin, key: 'closed.test', requestsPerSecond: 1000 })
    const unreachable = createRegistrySearchClient({ baseUrl: await closedPortUrl(), pool: admin, limiter, cacheSeconds: 0, maxRetries: 0 })
    await expect(processExport(created.exportId, { enrichers, source, registry: unreachable, finalAttempt: false })).rejects.toThrow(/registry search failed/)
    const last = await processExport(created.exportId, { enrichers, source, registry: unreachable })
    expect(last.outcome).toBe('failed')
    const { rows } = await admin.query<{ status: string; can_resume: boolean }>('select status, can_resume from public.exports where id = $1', [created.exportId])
    expect(rows[0]).toEqual({ status: 'failed', can_resume: true })
    expect((await accounts(created.exportId)).charged).toBe(0)
  })
})
