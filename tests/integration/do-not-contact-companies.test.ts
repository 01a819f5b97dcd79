// The do-not-contact list's SIREN and SIRET entries against every way an export learns who a business is (issue 22
// item 4: "the do-not-contact list applies"), through the real processor: real database, demo map source, demo
// websites and demo registry. A business is caught before anything is spent on it when its identity is known then
// (a registry-first establishment, a registry match stored by an earlier export), and gives nothing, uncharged, when
// it is learnt during its own enrichment; an establishment whose SIRET is unknown is caught by its company's SIREN.
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
import { personalSession } from '#app/.server/workspaces/current.ts'

let admin: pg.Pool
let sites: DemoWebsites
let registry: DemoRegistry
let enrichers: Enrichers
let source: LeadSource
let client: RegistrySearchClient
let filters: RegistryFilters

const BLANK = { sector: '', country: 'France', region: '', department: '', city: '' }
const MAP_OPTIONS = { ...NO_ENRICHMENT, phone: true, website: true, admin_fr_info: true }
const REGISTRY_OPTIONS = { ...NO_ENRICHMENT, phone: true, website: true }

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 4 })
  sites = await startDemoWebsites({ latencyMs: 2 })
  registry = await startDemoRegistry()
  enrichers = createDefaultEnrichers(parseEnv({ DEMO_WEBSITES_URL: sites.url, REGISTRY_URL: registry.url, ENRICH_ALLOW_HOSTS: `${new URL(sites.url).host},${new URL(registry.url).host}` }))
  source = createDemoSource({ websitesBaseUrl: sites.url })
  const limiter = createRegistryLimiter({ pool: admin, key: registryLimiterKey(registry.url), requestsPerSecond: 1000 })
  client = createRegistrySearchClient({ baseUrl: registry.url, pool: admin, limiter, cacheSeconds: 0 })
  // Brest's bakeries, as registry-export.test.ts: the map holds about 70 % of the registry's.
  filters = registryFiltersSchema.parse({ nafCodes: resolveCategory('bakery', 'fr')?.naf, place: { kind: 'commune', code: '29019' }, activeOnly: false })
})

afterAll(async () => {
  await enrichers?.close?.()
  await registry?.stop()
  await sites?.stop()
  await closeDb()
  await admin?.end()
})

async function createUser(): Promise<SessionUser> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@example.test`, {}])
  await admin.query(`select public.apply_credit_change($1, 10000, 'adjustment', $2)`, [id, `test:${randomUUID()}`])
  return personalSession(id, `${id}@example.test`)
}

/** Lists entries as the settings page does (as the user, through RLS). */
async function list(user: SessionUser, ...raw: string[]) {
  const entries = raw.map((text) => parseDncEntry(text) ?? expect.unreachable(`not an entry: ${text}`))
  expect(await addDncEntries({ ...user }, entries)).toEqual({ ok: true, added: entries.length })
}

async function exportOf(user: SessionUser, kind: 'map' | 'registry', registryClient = client): Promise<string> {
  const created = await createExport({
    user: { ...user },
    name: 'Boulangeries',
    criteria: kind === 'map' ? { sector: 'bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest' } : BLANK,
    ...(kind === 'registry' ? { registry: filters } : {}),
    enrichmentOptions: kind === 'map' ? MAP_OPTIONS : REGISTRY_OPTIONS,
    idempotencyKey: randomUUID(),
    lang: 'fr',
  })
  if (!created.ok) throw new Error(`createExport refused: ${created.code}`)
  const result = await processExport(created.exportId, { enrichers, source, registry: registryClient, concurrency: 4 })
  expect(result.outcome).toBe('completed')
  return created.exportId
}

interface LeadRow {
  lead_id: string
  place_id: string
  admin_fr_info: { matched_by?: string; results?: Array<{ siren: string; siret: string | null }> } | null
  statuses: string[]
}

async function leadsOf(exportId: string): Promise<LeadRow[]> {
  const { rows } = await admin.query<LeadRow>(
    `select l.id as lead_id, l.place_id, l.admin_fr_info,
            array[el.phone_status::text, el.website_status::text, el.admin_fr_info_status::text] as statuses
       from public.export_leads el join public.leads l on l.id = el.lead_id where el.export_id = $1 order by el.position`,
    [exportId],
  )
  return rows
}

async function accounts(exportId: string) {
  const { rows } = await admin.query<{ excluded: Record<string, number>; used: number; charged: number }>(
    `select e.excluded, e.total_credits_used as used,
            (select coalesce(-sum(delta), 0)::int from public.credit_ledger where export_id = e.id) as charged
       from public.exports e where e.id = $1`,
    [exportId],
  )
  return rows[0]!
}

async function chargedFor(exportId: string, leadIds: string[]): Promise<number> {
  const { rows } = await admin.query<{ n: number }>('select count(*)::int as n from public.credit_ledger where export_id = $1 and lead_id = any($2)', [exportId, leadIds])
  return rows[0]!.n
}

const best = (lead: LeadRow) => lead.admin_fr_info?.results?.[0] ?? null

describe('map-first exports: the registry match', () => {
  let first: LeadRow[] = []
  let matched: LeadRow[] = []

  it('a first export matches its leads in the registry', async () => {
    first = await leadsOf(await exportOf(await createUser(), 'map'))
    matched = first.filter((lead) => lead.statuses[2] === 'success' && best(lead)?.siret)
    expect(matched.length).toBeGreaterThanOrEqual(3)
  })

  it('a match stored by any earlier export catches the business by SIRET or SIREN before it is linked (the reuse path)', async () => {
    const user = await createUser()
    const [bySiret, bySiren] = matched
    await list(user, best(bySiret!)!.siret!, best(bySiren!)!.siren)
    const exportId = await exportOf(user, 'map')
    const placeIds = (await leadsOf(exportId)).map((lead) => lead.place_id)
    expect(placeIds).not.toContain(bySiret!.place_id)
    expect(placeIds).not.toContain(bySiren!.place_id)
    expect(placeIds.length).toBe(first.length - 2)
    const { excluded, used, charged } = await accounts(exportId)
    expect(excluded).toMatchObject({ dnc_siret: 1, dnc_siren: 1 })
    expect(charged).toBe(used)
  })

  it('the user\'s own lead\'s stored match catches it too, when the results store has forgotten it', async () => {
    const user = await createUser()
    const lead = matched[2]!
    const earlier = await leadsOf(await exportOf(user, 'map'))
    expect(earlier.map((row) => row.place_id)).toContain(lead.place_id)
    await admin.query(`delete from public.enrichment_results where place_id = $1`, [lead.place_id])
    await list(user, best(lead)!.siret!)
    const exportId = await exportOf(user, 'map')
    expect((await leadsOf(exportId)).map((row) => row.place_id)).not.toContain(lead.place_id)
    expect((await accounts(exportId)).excluded).toMatchObject({ dnc_siret: 1 })
  })

  it('a SIRET learnt only during the enrichment: the lead gives nothing (every task not found), nothing of it is charged, and it is counted', async () => {
    const user = await createUser()
    const lead = matched[0]!
    // A business no export matched yet: neither the store nor the user's leads know its SIRET.
    await admin.query(`delete from public.enrichment_results where place_id = $1`, [lead.place_id])
    await list(user, best(lead)!.siret!)
    const exportId = await exportOf(user, 'map')
    const leads = await leadsOf(exportId)
    const caught = leads.find((row) => row.place_id === lead.place_id) ?? expect.unreachable('linked: its SIRET was unknown at the search')
    expect(caught.statuses).toEqual(['not_found', 'not_found', 'not_found'])
    expect(await chargedFor(exportId, [caught.lead_id])).toBe(0)
    const { excluded, used, charged } = await accounts(exportId)
    expect(excluded.dnc_registry).toBeGreaterThanOrEqual(1)
    expect(charged).toBe(used)
    expect(charged).toBeGreaterThan(0)
  })

  it('a SIRET learnt during the enrichment also withholds the phone and website the results store already held', async () => {
    const user = await createUser()
    const { rows: withSite } = await admin.query<{ place_id: string }>(
      `select place_id from public.enrichment_results where task = 'website' and place_id = any($1)`,
      [matched.map((row) => row.place_id)],
    )
    const lead = matched.find((row) => row.place_id === withSite[0]?.place_id) ?? expect.unreachable('a matched business with a website')
    // The store still holds this business's website (and phone), but not its registry match: that one is looked up.
    await admin.query(`delete from public.enrichment_results where place_id = $1 and task = 'admin_fr_info'`, [lead.place_id])
    await list(user, best(lead)!.siret!)
    const exportId = await exportOf(user, 'map')
    const caught = (await leadsOf(exportId)).find((row) => row.place_id === lead.place_id) ?? expect.unreachable('linked: its SIRET was unknown at the search')
    expect(caught.statuses).toEqual(['not_found', 'not_found', 'not_found'])
    expect(await chargedFor(exportId, [caught.lead_id])).toBe(0)
  })
})

describe('registry-first exports', () => {
  let first: LeadRow[] = []

  it('a SIRET entry leaves out its establishment, found online or not, before it is linked', async () => {
    first = await leadsOf(await exportOf(await createUser(), 'registry'))
    const offline = first.find((lead) => lead.admin_fr_info?.matched_by === REGISTRY_NOT_ONLINE)!
    const online = first.find((lead) => lead.admin_fr_info?.matched_by === REGISTRY_MATCHED_ON_MAP)!
    const user = await createUser()
    await list(user, best(offline)!.siret!, best(online)!.siret!)
    const exportId = await exportOf(user, 'registry')
    const sirets = (await leadsOf(exportId)).map((lead) => best(lead)?.siret)
    expect(sirets).not.toContain(best(offline)!.siret)
    expect(sirets).not.toContain(best(online)!.siret)
    expect(sirets.length).toBe(first.length - 2)
    const { excluded, used, charged } = await accounts(exportId)
    expect(excluded).toMatchObject({ dnc_siret: 2 })
    expect(charged).toBe(used)
  })

  it('an establishment the registry gives no SIRET for is caught by its SIREN, found online or not', async () => {
    const offline = first.find((lead) => lead.admin_fr_info?.matched_by === REGISTRY_NOT_ONLINE)!
    const online = first.find((lead) => lead.admin_fr_info?.matched_by === REGISTRY_MATCHED_ON_MAP)!
    const hidden = new Set([best(offline)!.siret, best(online)!.siret])
    // The registry withholds these two SIRETs (only their companies are known).
    const withoutSirets: RegistrySearchClient = {
      page: (...args) => client.page(...args),
      async *establishments(...args) {
        for await (const establishment of client.establishments(...args)) yield hidden.has(establishment.siret) ? { ...establishment, siret: null } : establishment
      },
    }
    const user = await createUser()
    await list(user, best(offline)!.siren, best(online)!.siren)
    const exportId = await exportOf(user, 'registry', withoutSirets)
    const sirens = (await leadsOf(exportId)).map((lead) => best(lead)?.siren)
    expect(sirens).not.toContain(best(offline)!.siren)
    expect(sirens).not.toContain(best(online)!.siren)
    const { excluded, used, charged } = await accounts(exportId)
    expect(excluded.dnc_siren).toBeGreaterThanOrEqual(2)
    expect(charged).toBe(used)
  })
})
