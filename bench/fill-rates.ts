// Observed fill rate per enrichment type on demo data (README "Cost estimate": the defaults of
// app/domain/enrichment-types.ts `defaultFillRate`). Runs the real export pipeline (search, then the real engine with
// email verification against the demo mail zone, and the charging SQL) on a fresh embedded Postgres against the demo
// websites and registry, for several searches, and prints each type's successes / decided tasks beside its default.
//
//   npx tsx bench/fill-rates.ts [leadsPerSearch=300]
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { closeDb } from '#app/.server/db.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import { ENRICHMENT_TABLE } from '#app/domain/enrichment-types.ts'
import { startDemoRegistry } from '#server/demo/registry.ts'
import { startDemoWebsites } from '#server/demo/websites.ts'
import { startBenchDatabase } from './lib/database.ts'
import { printTable } from './lib/table.ts'

const LEADS = Number(process.argv[2] ?? 300)
const ALL = Object.fromEntries(ENRICHMENT_TABLE.map((entry) => [entry.key, true]))
/** Searches of different sectors and places: the demo generates other businesses for each. */
const SEARCHES = [
  { sector: 'boulangerie', region: 'Île-de-France', department: 'Paris', city: 'Paris' },
  { sector: 'restaurant', region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon' },
  { sector: 'plombier', region: 'Bretagne', department: 'Finistère', city: 'Brest' },
]

async function runSearch(admin: pg.Pool, search: (typeof SEARCHES)[number]) {
  const userId = randomUUID()
  await admin.query('insert into auth.users (id, email) values ($1, $2)', [userId, `${userId}@bench.test`])
  await admin.query(`select public.apply_credit_change($1, 1000000, 'adjustment', $2)`, [userId, `bench:${userId}`])
  const { rows } = await admin.query(
    `insert into public.exports (user_id, name, status, search_status, enrichment_status, search_params, enrichment_options, country, region, department, city)
     values ($1, 'fill rates', 'processing', 'pending', 'pending', $2, $3, 'France', $4, $5, $6) returning id`,
    [userId, { ...search, country: 'France', countryCode: 'FR', lang: 'fr' }, ALL, search.region, search.department, search.city],
  )
  const enrichers = createDefaultEnrichers()
  try {
    // No reuse: every task is decided by the engine, not read from the results store.
    const result = await processExport(rows[0].id, { enrichers, maxLeads: LEADS, concurrency: 16, reuseDays: 0 })
    if (result.outcome !== 'completed') throw new Error(`export ${search.sector}: ${result.outcome}`)
  } finally {
    await enrichers.close?.()
  }
  return rows[0].id as string
}

/** Per type: successes and decided tasks (success, not_found, failed) over the exports. */
async function tally(admin: pg.Pool, exportIds: string[]) {
  return Promise.all(
    ENRICHMENT_TABLE.map(async (entry) => {
      const { rows } = await admin.query<{ successes: number; decided: number }>(
        `select count(*) filter (where ${entry.statusColumn} = 'success')::int as successes,
                count(*) filter (where ${entry.statusColumn} in ('success', 'not_found', 'failed'))::int as decided
           from public.export_leads where export_id = any($1)`,
        [exportIds],
      )
      return { entry, ...rows[0]! }
    }),
  )
}

/** Leads whose delivered addresses include a valid one (not only risky). */
async function validEmailLeads(admin: pg.Pool, exportIds: string[]): Promise<number> {
  const { rows } = await admin.query<{ count: number }>(
    `select count(*)::int as count from public.export_leads el join public.leads l on l.id = el.lead_id
      where el.export_id = any($1) and el.email_status = 'success'
        and exists (select 1 from jsonb_each(l.email_sources) s where s.value -> 'check' ->> 'status' = 'valid')`,
    [exportIds],
  )
  return rows[0]?.count ?? 0
}

async function main() {
  const db = await startBenchDatabase('leadatlas-bench-fill-')
  const sites = await startDemoWebsites({ latencyMs: 0 })
  const registry = await startDemoRegistry()
  const admin = new pg.Pool({ connectionString: db.url, max: 2 })
  admin.on('error', () => {}) // the database stops at the end while idle clients may still be open
  try {
    Object.assign(process.env, {
      DATABASE_URL: db.url,
      LEADS_SOURCE: 'demo',
      DEMO_WEBSITES_URL: sites.url,
      REGISTRY_URL: registry.url,
      ENRICH_ALLOW_HOSTS: [new URL(sites.url).host, new URL(registry.url).host].join(','),
    })
    const exportIds: string[] = []
    for (const search of SEARCHES) exportIds.push(await runSearch(admin, search))
    const rates = await tally(admin, exportIds)
    console.log(`\nFill rates on demo data: ${SEARCHES.length} searches × up to ${LEADS} leads, every enrichment on, no reuse\n`)
    printTable(
      ['type', 'successes', 'decided', 'observed', 'defaultFillRate'],
      rates.map(({ entry, successes, decided }) => [entry.key, successes, decided, decided ? `${((100 * successes) / decided).toFixed(1)} %` : '—', entry.defaultFillRate]),
    )
    const email = rates.find((rate) => rate.entry.key === 'email')
    if (email?.decided) console.log(`\nemail with at least one valid (not only risky) address: ${((100 * (await validEmailLeads(admin, exportIds))) / email.decided).toFixed(1)} %`)
  } finally {
    await closeDb().catch(() => {})
    await admin.end().catch(() => {})
    await registry.stop()
    await sites.stop()
    await db.stop()
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
