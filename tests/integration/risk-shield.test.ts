// The risk shield (issue 32 item 2), driven through the real export processor (real database, demo source, demo
// websites and registry): companies the local store knows in a collective procedure or struck off are left out before
// anything of them is charged — by the registry step's fresh match, or before any task by a match stored earlier —
// and the export counts them by reason.
import fs from 'node:fs'
import path from 'node:path'
import { parse } from 'csv-parse/sync'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { adminDb, closeDb } from '#app/.server/db.ts'
import { CLOSED_MATCH_MIN_CONFIDENCE } from '#app/.server/exports/closed-leads.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import { loadApiLeadsPage } from '#app/.server/exports/api-leads.ts'
import { openExportDownload } from '#app/.server/exports/download.ts'
import { getExportDetail } from '#app/.server/exports/views.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'
import { readRisks, upsertAnnouncements } from '#app/.server/registry-events/store.ts'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import type { LeadSource } from '#app/.server/sources/types.ts'
import { readBodaccRecord } from '#app/domain/registry-risk.ts'
import { type DemoRegistry, startDemoRegistry } from '#server/demo/registry.ts'
import { type DemoWebsites, startDemoWebsites } from '#server/demo/websites.ts'
import { parseEnv } from '#app/.server/env.server.ts'
import { createUserWithCredits } from '#tests/support/credited-user.ts'

const LEADS = 30
const REGISTRY = { admin_fr_info: true, phone: true }
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/bodacc')
let admin: pg.Pool
let sites: DemoWebsites
let registry: DemoRegistry
let enrichers: Enrichers
let source: LeadSource

const createUser = () => createUserWithCredits(admin, 10_000)

async function runExport(userId: string, options: object, filters: object = {}) {
  const { rows } = await admin.query(
    `insert into public.exports (user_id, name, status, search_status, enrichment_status, search_params, enrichment_options, country, city, business_types)
     values ($1, 'risk', 'processing', 'pending', 'pending', $2, $3, 'France', 'Nantes', '{boulangerie}') returning id`,
    [userId, { sector: 'boulangerie', country: 'France', countryCode: 'FR', city: 'Nantes', lang: 'fr', filters }, options],
  )
  const exportId: string = rows[0].id
  const result = await processExport(exportId, { enrichers, source, maxLeads: LEADS, concurrency: 4 })
  expect(result.outcome).toBe('completed')
  return exportId
}

/** The SIREN of each linked lead's confident registry match, by lead id. */
async function matchedSirens(exportId: string): Promise<Map<string, string>> {
  const { rows } = await admin.query(
    `select l.id, l.admin_fr_info -> 'results' -> 0 ->> 'siren' as siren
       from public.export_leads el join public.leads l on l.id = el.lead_id
      where el.export_id = $1 and (l.admin_fr_info ->> 'confidence')::numeric >= $2 order by el.position`,
    [exportId, CLOSED_MATCH_MIN_CONFIDENCE],
  )
  return new Map(rows.filter((row) => row.siren).map((row) => [row.id as string, row.siren as string]))
}

async function accounts(exportId: string) {
  const { rows } = await admin.query(
    `select e.excluded, e.total_credits_used as used, e.lead_count,
            (select coalesce(-sum(delta), 0)::int from public.credit_ledger where export_id = e.id) as charged
       from public.exports e where e.id = $1`,
    [exportId],
  )
  return rows[0] as { excluded: Record<string, number>; used: number; charged: number; lead_count: number }
}

async function linkedIds(exportId: string): Promise<Set<string>> {
  const { rows } = await admin.query('select lead_id from public.export_leads where export_id = $1', [exportId])
  return new Set(rows.map((row) => row.lead_id as string))
}

/** A recorded BODACC fixture's announcement, about `siren` instead of its own company, under a fresh id. */
function announcementAbout(fixture: string, siren: string, id: string) {
  const record = JSON.parse(fs.readFileSync(path.join(FIXTURES, `${fixture}.json`), 'utf8')).records[0] as Record<string, unknown>
  const spaced = `${siren.slice(0, 3)} ${siren.slice(3, 6)} ${siren.slice(6)}`
  const url = `https://www.bodacc.fr/pages/annonces-commerciales-detail/?q.id=id:${id}`
  const text = JSON.stringify({ ...record, id, url_complete: url }).replaceAll('833 310 592', spaced).replaceAll('833310592', siren)
  return readBodaccRecord(JSON.parse(text)) ?? expect.unreachable(`${fixture} should read`)
}

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 4 })
  sites = await startDemoWebsites({ latencyMs: 5 })
  registry = await startDemoRegistry()
  enrichers = createDefaultEnrichers(parseEnv({ DEMO_WEBSITES_URL: sites.url, REGISTRY_URL: registry.url, ENRICH_ALLOW_HOSTS: `${new URL(sites.url).host},${new URL(registry.url).host}` }))
  source = createDemoSource({ websitesBaseUrl: sites.url })
})

afterAll(async () => {
  await enrichers?.close?.()
  await registry?.stop()
  await sites?.stop()
  await closeDb()
  await admin?.end()
})

describe('risk shield', () => {
  it('leaves out companies in liquidation and struck off, uncharged and counted by reason; each filter on its own', async () => {
    const userId = await createUser()
    const plain = await runExport(userId, REGISTRY)
    const sirens = [...(await matchedSirens(plain)).entries()]
    expect(sirens.length).toBeGreaterThanOrEqual(3)
    const [liquidated, alsoLiquidated, struckOff] = sirens
    const suffix = String(Date.now()).slice(-7)
    await upsertAnnouncements(adminDb(), [
      announcementAbout('liquidation', liquidated![1], `A2026${suffix}1`),
      announcementAbout('liquidation', alsoLiquidated![1], `A2026${suffix}2`),
      announcementAbout('radiation-company-active', struckOff![1], `B2026${suffix}3`),
    ])
    const today = new Date().toISOString().slice(0, 10)
    const risks = await readRisks(adminDb(), sirens.map(([, siren]) => siren), today)
    expect([risks.get(liquidated![1])?.status, risks.get(struckOff![1])?.status]).toEqual(['liquidation', 'radiee'])

    // The export made before the announcements shows them now: the table, the API and the file read the store.
    const user = personalSession(userId, `${userId}@example.test`)
    const detail = await getExportDetail(user, plain, 1)
    const shown = new Map(detail?.leads.map((lead) => [lead.id, lead.risk]))
    expect(shown.get(liquidated![0])).toMatchObject({ status: 'liquidation', tribunal: 'TRIBUNAL DE COMMERCE DE BORDEAUX', url: expect.stringContaining('bodacc.fr') })
    const api = await loadApiLeadsPage(user.claims, plain, { lang: 'fr', limit: 100 })
    const apiLead = api?.data.find((lead) => lead.id === liquidated![0])
    expect(apiLead?.enrichments.admin_fr_info).toMatchObject({ risk_code: 'liquidation', risk: 'Liquidation judiciaire', risk_tribunal: 'TRIBUNAL DE COMMERCE DE BORDEAUX' })
    const apiRisks = api?.data.flatMap((lead) => lead.enrichments.admin_fr_info?.risk_code ?? []).sort()
    expect(apiRisks).toEqual(['liquidation', 'liquidation', 'radiee'])
    const file = await openExportDownload({ claims: user.claims, exportId: plain, format: 'csv', lang: 'fr' })
    const csv = await new Response(file?.body).text()
    const records = parse(csv, { delimiter: ';', bom: true, columns: true }) as Array<Record<string, string>>
    expect(records.map((record) => record['Risque (BODACC)']).filter(Boolean).sort()).toEqual(['Liquidation judiciaire', 'Liquidation judiciaire', 'Radiée'])
    expect(records.find((record) => record['Risque (BODACC)'] === 'Radiée')?.['Annonce BODACC']).toContain('https://www.bodacc.fr/')

    // Another user: the account-wide results store holds the matches, so the gate leaves them out before any task
    // and the search takes the next businesses instead.
    const shielded = await runExport(await createUser(), REGISTRY, { excludeInsolvent: true, excludeRadiated: true })
    const shieldedSirens = new Set((await matchedSirens(shielded)).values())
    expect([liquidated![1], alsoLiquidated![1], struckOff![1]].filter((siren) => shieldedSirens.has(siren))).toEqual([])
    const counted = await accounts(shielded)
    expect(counted.excluded).toMatchObject({ risk_insolvency: 2, risk_radiated: 1 })
    expect(counted.charged).toBe(counted.used)
    expect(counted.lead_count).toBe(LEADS)

    // With no match stored anywhere, the registry step's fresh match decides, before the lead is recorded.
    const places = await admin.query('select place_id from public.leads where id = any($1)', [[liquidated![0], alsoLiquidated![0], struckOff![0]]])
    await admin.query(`delete from public.enrichment_results where task = 'admin_fr_info' and place_id = any($1)`, [places.rows.map((row) => row.place_id)])
    const fresh = await runExport(await createUser(), REGISTRY, { excludeInsolvent: true, excludeRadiated: true })
    const freshCounted = await accounts(fresh)
    expect(freshCounted.excluded).toEqual({ risk_insolvency: 2, risk_radiated: 1 })
    expect(freshCounted.lead_count).toBe(LEADS - 3)
    expect(freshCounted.charged).toBe(freshCounted.used)
    const { rows: freshDebits } = await admin.query(
      `select count(*)::int as n from public.credit_ledger c join public.leads l on l.id = c.lead_id where c.export_id = $1 and l.place_id = any($2)`,
      [fresh, places.rows.map((row) => row.place_id)],
    )
    expect(freshDebits[0].n).toBe(0)

    // Only one of the two filters: the other risk stays in.
    const insolventOnly = await runExport(await createUser(), REGISTRY, { excludeInsolvent: true })
    const kept = new Set((await matchedSirens(insolventOnly)).values())
    expect(kept.has(struckOff![1])).toBe(true)
    expect(kept.has(liquidated![1])).toBe(false)
    expect((await accounts(insolventOnly)).excluded).toEqual({ risk_insolvency: 2 })

    // The first user's own leads carry the matches: a phone-only export leaves the three out before any task.
    const phoneOnly = await runExport(userId, { phone: true }, { excludeInsolvent: true, excludeRadiated: true })
    const linked = await linkedIds(phoneOnly)
    expect([liquidated![0], alsoLiquidated![0], struckOff![0]].filter((id) => linked.has(id))).toEqual([])
    const gated = await accounts(phoneOnly)
    expect(gated.excluded).toMatchObject({ risk_insolvency: 2, risk_radiated: 1 })
    const { rows } = await admin.query('select count(*)::int as n from public.credit_ledger where export_id = $1 and lead_id = any($2)', [phoneOnly, [liquidated![0], alsoLiquidated![0], struckOff![0]]])
    expect(rows[0].n).toBe(0)
  })
})
