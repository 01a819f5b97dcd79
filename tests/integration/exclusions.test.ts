// "Only new businesses" and the do-not-contact list, driven through the real export processor (real database,
// demo source, demo websites and registry): what they leave out is never linked nor charged, listed addresses
// never reach the results, and the export counts both by reason.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { closeDb } from '#app/.server/db.ts'
import { addDncEntries } from '#app/.server/do-not-contact/store.ts'
import { CLOSED_MATCH_MIN_CONFIDENCE } from '#app/.server/exports/closed-leads.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import type { LeadSource } from '#app/.server/sources/types.ts'
import { parseDncEntry } from '#app/domain/do-not-contact.ts'
import { type DemoRegistry, startDemoRegistry } from '#server/demo/registry.ts'
import { type DemoWebsites, startDemoWebsites } from '#server/demo/websites.ts'
import { parseEnv } from '#app/.server/env.server.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

const LEADS = 8
let admin: pg.Pool
let sites: DemoWebsites
let registry: DemoRegistry
let enrichers: Enrichers
let source: LeadSource
let demoSource: LeadSource

function withDomains(inner: LeadSource): LeadSource {
  return {
    name: inner.name,
    async *search(params, category, options) {
      for await (const business of inner.search(params, category, options)) {
        const slug = business.website?.split('/').filter(Boolean).pop()
        yield { ...business, website: slug ? `https://www.${slug}.fr/` : null }
      }
    },
  }
}

async function createUser(): Promise<string> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email) values ($1, $2)', [id, `${id}@example.test`])
  await admin.query(`select public.apply_credit_change($1, 10000, 'adjustment', $2)`, [id, `test:${randomUUID()}`])
  return id
}

async function runExport(userId: string, options: object, extra: object = {}, maxLeads = LEADS) {
  const { rows } = await admin.query(
    `insert into public.exports (user_id, name, status, search_status, enrichment_status, search_params, enrichment_options, country, city, business_types)
     values ($1, 'gates', 'processing', 'pending', 'pending', $2, $3, 'France', 'Lyon', '{boulangerie}') returning id`,
    [userId, { sector: 'boulangerie', country: 'France', countryCode: 'FR', city: 'Lyon', lang: 'fr', ...extra }, options],
  )
  const exportId: string = rows[0].id
  const result = await processExport(exportId, { enrichers, source, maxLeads, concurrency: 4 })
  expect(result.outcome).toBe('completed')
  return exportId
}

async function linkedLeads(exportId: string) {
  const { rows } = await admin.query(
    `select l.id, l.source, l.place_id, l.website, l.phone, l.email, el.email_status
       from public.export_leads el join public.leads l on l.id = el.lead_id where el.export_id = $1 order by el.position`,
    [exportId],
  )
  return rows as Array<{ id: string; source: string; place_id: string; website: string | null; phone: string | null; email: string[] | null; email_status: string }>
}

/** What the export says it left out, and whether what it charged is exactly its successes (one ledger row each). */
async function accounts(exportId: string) {
  const { rows } = await admin.query(
    `select e.excluded, e.total_credits_used as used,
            (select coalesce(-sum(delta), 0)::int from public.credit_ledger where export_id = e.id) as charged
       from public.exports e where e.id = $1`,
    [exportId],
  )
  return rows[0] as { excluded: Record<string, number>; used: number; charged: number }
}

/** Lists entries as the settings page does (as the user, through RLS). */
async function list(userId: string, ...raw: string[]) {
  const entries = raw.map((text) => parseDncEntry(text) ?? expect.unreachable(`not an entry: ${text}`))
  const added = await addDncEntries(personalSession(userId, `${userId}@example.test`), entries)
  expect(added).toEqual({ ok: true, added: entries.length })
}

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 4 })
  sites = await startDemoWebsites({ latencyMs: 5 })
  registry = await startDemoRegistry()
  enrichers = createDefaultEnrichers(parseEnv({ DEMO_WEBSITES_URL: sites.url, REGISTRY_URL: registry.url, ENRICH_ALLOW_HOSTS: `${new URL(sites.url).host},${new URL(registry.url).host}` }))
  demoSource = createDemoSource({ websitesBaseUrl: sites.url })
  source = demoSource
})

afterAll(async () => {
  await enrichers?.close?.()
  await registry?.stop()
  await sites?.stop()
  await closeDb()
  await admin?.end()
})

describe('only new businesses', () => {
  it('leaves out every business of an earlier export, uncharged and counted; without the option they come back', async () => {
    const userId = await createUser()
    const first = await linkedLeads(await runExport(userId, { phone: true }))
    expect(first).toHaveLength(LEADS)
    const onlyNewId = await runExport(userId, { phone: true }, { onlyNew: true })
    const onlyNew = await linkedLeads(onlyNewId)
    const firstIds = new Set(first.map((lead) => lead.id))
    expect(onlyNew.length).toBeGreaterThan(0)
    expect(onlyNew.filter((lead) => firstIds.has(lead.id))).toEqual([])
    const { excluded, used, charged } = await accounts(onlyNewId)
    expect(excluded.already_exported).toBe(LEADS)
    expect(charged).toBe(used)

    const again = await linkedLeads(await runExport(userId, { phone: true }))
    expect(again.filter((lead) => firstIds.has(lead.id)).length).toBe(LEADS)
  })
})

describe('closed in the registry', () => {
  const REGISTRY = { admin_fr_info: true, phone: true }
  const MANY = 150
  const closedMatches = async (exportId: string) => {
    const { rows } = await admin.query(
      `select count(*)::int as n from public.export_leads el join public.leads l on l.id = el.lead_id
        where el.export_id = $1 and (l.admin_fr_info ->> 'confidence')::numeric >= $2
          and l.admin_fr_info -> 'results' -> 0 ->> 'etat_administratif' in ('F', 'C')`,
      [exportId, CLOSED_MATCH_MIN_CONFIDENCE],
    )
    return rows[0].n as number
  }

  it('"Exclude permanently closed" leaves out a lead the registry says is closed, before anything of it is charged', async () => {
    // About one demo company in twenty is closed in the demo registry: 150 bakeries hold a few.
    const plain = await runExport(await createUser(), REGISTRY, {}, MANY)
    const closed = await closedMatches(plain)
    expect(closed).toBeGreaterThan(0)

    const exportId = await runExport(await createUser(), REGISTRY, { filters: { excludeClosed: true } }, MANY)
    expect(await closedMatches(exportId)).toBe(0)
    expect(await linkedLeads(exportId)).toHaveLength(MANY - closed)
    const { excluded, used, charged } = await accounts(exportId)
    expect(excluded.registry_closed).toBe(closed)
    expect(charged).toBe(used)
    const { rows } = await admin.query('select lead_count from public.exports where id = $1', [exportId])
    expect(rows[0].lead_count).toBe(MANY - closed)
  })

  it('a lead holding results in the export already is flagged, not removed', async () => {
    const userId = await createUser()
    const exportId = await runExport(userId, { phone: true }, { filters: { excludeClosed: true } }, MANY)
    // The registry added afterwards: the closed ones keep their phone (paid) and stay listed.
    await admin.query(`update public.exports set status = 'processing', enrichment_options = $2 where id = $1`, [exportId, REGISTRY])
    await admin.query(`update public.export_leads set admin_fr_info_status = 'pending' where export_id = $1`, [exportId])
    expect((await processExport(exportId, { enrichers, source, maxLeads: MANY, concurrency: 4 })).outcome).toBe('completed')
    expect(await linkedLeads(exportId)).toHaveLength(MANY)
    expect(await closedMatches(exportId)).toBeGreaterThan(0)
    expect((await accounts(exportId)).excluded.registry_closed).toBeUndefined()
  })
})

describe('do-not-contact list', () => {
  it('leaves out listed businesses, domains and phones before enrichment (never linked nor charged) and says why', async () => {
    const userId = await createUser()
    // The demo websites are served from 127.0.0.1: give the businesses real-looking domains (only phones are enriched).
    source = withDomains(demoSource)
    const seen = await linkedLeads(await runExport(userId, { phone: true }))
    const withSite = seen.find((lead) => lead.website)
    const withPhone = seen.find((lead) => lead.phone && lead !== withSite)
    const business = seen.find((lead) => lead !== withSite && lead !== withPhone)
    if (!withSite?.website || !withPhone?.phone || !business) throw new Error('the demo source should give websites and phones')
    await list(userId, withSite.website, withPhone.phone, `${business.source}:${business.place_id}`)

    const laterId = await runExport(userId, { phone: true })
    const later = await linkedLeads(laterId)
    const listed = new Set([withSite.id, withPhone.id, business.id])
    expect(later.length).toBe(LEADS)
    expect(later.filter((lead) => listed.has(lead.id))).toEqual([])
    const { excluded, used, charged } = await accounts(laterId)
    expect(excluded).toMatchObject({ dnc_domain: expect.any(Number), dnc_phone: expect.any(Number), dnc_business: 1 })
    expect(charged).toBe(used)
    const { rows } = await admin.query('select count(*)::int as n from public.credit_ledger where export_id = $1 and lead_id = any($2)', [laterId, [...listed]])
    expect(rows[0].n).toBe(0)
    source = demoSource
  })

  it('removes listed addresses from the email results before they are recorded, and counts them', async () => {
    const userId = await createUser()
    const seen = await linkedLeads(await runExport(userId, { email: true }))
    const found = seen.filter((lead) => lead.email_status === 'success' && lead.email?.length)
    expect(found.length).toBeGreaterThan(0)
    const addresses = found.flatMap((lead) => lead.email ?? [])
    const domain = addresses[0]?.split('@')[1] ?? expect.unreachable('an address was found')
    await list(userId, ...addresses.slice(1), domain)

    const laterId = await runExport(userId, { email: true })
    const later = await linkedLeads(laterId)
    const again = later.filter((lead) => found.some((before) => before.id === lead.id))
    expect(again.length).toBeGreaterThan(0)
    for (const lead of again) {
      expect((lead.email ?? []).filter((address) => addresses.includes(address) || address.endsWith(`@${domain}`))).toEqual([])
      expect(lead.email_status).not.toBe('success')
    }
    const { excluded, used, charged } = await accounts(laterId)
    expect(excluded.dnc_email).toBeGreaterThanOrEqual(addresses.length)
    expect(charged).toBe(used)
  })
})
