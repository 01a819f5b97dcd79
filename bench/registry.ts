// Registry-first export (issue 22 item 8): how long the registry's count + preview takes, and an export of 1 000
// registry establishments through the real command and pipeline (createExport, then processExport: registry pages at
// the real 7 requests/s budget, matched to the map, then the phone and website enrichment), against the map-first
// export of the same place and category in the same run. Fresh embedded Postgres; the demo registry and the demo
// websites are child processes (loopback only). The budget is the deployment's (registry/limiter.ts) set to
// REGISTRY_REQUESTS_PER_SECOND (default 7, what the public registry allows), so the demo registry is held to it.
// No timed assertion: figures only.
// Fair conditions for both sides: one untimed warm-up export first (the first export of a process pays for loading
// and compiling the crawler's technology rules, seconds on this machine), and the account-wide results store
// (enrichment_results) emptied before each timed export, so each crawls every site it delivers instead of reusing the
// crawls of the export before it (reuse is by business, and the registry-first leads found online are map businesses).
// The demo map holds a few hundred businesses of one category in a department, so the 1 000 establishments are those of
// four categories (their NAF codes in one registry search); the map-first side is one export per category, summed.
//   REGISTRY_REQUESTS_PER_SECOND=7 npx tsx bench/registry.ts        (BENCH_LEADS, default 1000; BENCH_DEPARTMENT, default 75)
import { randomUUID } from 'node:crypto'
import os from 'node:os'
import pg from 'pg'
import { closeDb } from '#app/.server/db.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import { createExport } from '#app/.server/exports/service.ts'
import { parseEnv } from '#app/.server/env.server.ts'
import { createRegistryLimiter, registryLimiterKey } from '#app/.server/registry/limiter.ts'
import { previewRegistry } from '#app/.server/registry/preview.ts'
import { createRegistrySearchClient } from '#app/.server/registry/search.ts'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import { setExportQueueBoss } from '#app/.server/exports/queue.ts'
import { resolveCategory } from '#app/.server/search/preview.ts'
import { franceData } from '#app/.server/geo/france.ts'
import { NO_ENRICHMENT } from '#app/domain/enrichment.ts'
import { registryFiltersSchema } from '#app/domain/registry-search.ts'
import { benchAccount } from './lib/accounts.ts'
import { startBenchDatabase } from './lib/database.ts'
import { startDemoProcess } from './lib/demo-process.ts'
import { printTable } from './lib/table.ts'
import { timed } from './lib/timing.ts'

const LEADS = Number(process.env.BENCH_LEADS ?? 1000)
const DEPARTMENT = process.env.BENCH_DEPARTMENT ?? '75'
const REQUESTS_PER_SECOND = Number(process.env.REGISTRY_REQUESTS_PER_SECOND ?? 7)
const CATEGORIES = ['restaurant', 'hairdresser', 'bakery', 'pharmacy']
const OPTIONS = { ...NO_ENRICHMENT, phone: true, website: true }
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits

console.log(`Registry-first export: ${LEADS} establishments, department ${DEPARTMENT}, registry budget ${REQUESTS_PER_SECOND} requests/s; ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`)
const database = await startBenchDatabase('leadatlas-bench-registry-')
const sites = await startDemoProcess('server/demo/websites.ts', { LATENCY_MS: '50' })
const registry = await startDemoProcess('server/demo/registry.ts', {})
process.env.DATABASE_URL = database.url
const admin = new pg.Pool({ connectionString: database.superuserUrl, max: 2 })
const pool = new pg.Pool({ connectionString: database.url, max: 4 })
const engine = createDefaultEnrichers(parseEnv({ DEMO_WEBSITES_URL: sites.url, REGISTRY_URL: registry.url, ENRICH_ALLOW_HOSTS: `${new URL(sites.url).host},${new URL(registry.url).host}` }))
let crawls = 0
// Counts the site crawls of each export (a result reused from the store is no crawl).
const enrichers = { ...engine, crawl: (...args: Parameters<typeof engine.crawl>) => (crawls++, engine.crawl(...args)) }
try {
  const limiter = createRegistryLimiter({ pool, key: registryLimiterKey(registry.url), requestsPerSecond: REQUESTS_PER_SECOND })
  let requests = 0
  const client = createRegistrySearchClient({
    baseUrl: registry.url,
    pool,
    limiter,
    // Counts the registry's answers (the cache answers the rest).
    fetch: (input, init) => {
      requests++
      return fetch(input, init)
    },
  })
  const source = createDemoSource({ websitesBaseUrl: sites.url })

  const newUser = () => benchAccount(admin)

  const nafCodes = [...new Set(CATEGORIES.flatMap((id) => resolveCategory(id, 'fr')?.naf ?? []))]
  const filters = registryFiltersSchema.parse({ nafCodes, place: { kind: 'department', code: DEPARTMENT }, activeOnly: false })
  const department = franceData().departments.find((d) => d.code === DEPARTMENT)!
  const region = franceData().regions.find((r) => r.code === department.region)!
  const cold = await timed(() => previewRegistry(filters, { plan: 'free_trial', client }))
  if (!cold.result.ok) throw new Error(`preview refused: ${cold.result.error}`)
  const warm = await timed(() => previewRegistry(filters, { plan: 'free_trial', client }))
  const previewRequests = requests

  async function exportRun(label: string, registryFilters: typeof filters | undefined, sector = '', maxLeads = LEADS) {
    const created = await createExport({
      user: await newUser(),
      name: label,
      criteria: { sector, country: 'France', region: region.nom, department: department.nom, city: '' },
      ...(registryFilters ? { registry: registryFilters } : {}),
      enrichmentOptions: OPTIONS,
      idempotencyKey: randomUUID(),
      lang: 'fr',
      maxLeads,
    })
    if (!created.ok) throw new Error(`${label}: ${created.code}`)
    let searchDone = 0
    await admin.query('truncate public.enrichment_results')
    const crawlsBefore = crawls
    const before = requests
    const start = performance.now()
    const run = await timed(() =>
      processExport(created.exportId, { enrichers, source, registry: client, onPhase: (phase) => void (phase === 'enrichment' && (searchDone = performance.now())) }),
    )
    if (run.result.outcome !== 'completed') throw new Error(`${label}: ${run.result.outcome}`)
    const { rows } = await admin.query<{ leads: number; offline: number; charged: number }>(
      `select count(*)::int as leads,
              count(*) filter (where l.admin_fr_info->>'matched_by' = 'registry_not_online')::int as offline,
              (select coalesce(-sum(delta), 0)::int from public.credit_ledger where export_id = $1) as charged
         from public.export_leads el join public.leads l on l.id = el.lead_id where el.export_id = $1`,
      [created.exportId],
    )
    const { leads, offline, charged } = rows[0]!
    const search = (searchDone - start) / 1000
    return { label, leads, offline, requests: requests - before, crawls: crawls - crawlsBefore, search, seconds: run.seconds, cpu: run.cpuSeconds, charged }
  }
  type Figures = Awaited<ReturnType<typeof exportRun>>
  const perLead = (seconds: number, leads: number) => (leads ? round((seconds * 1000) / leads, 1) : '-')
  const row = (f: Figures, registryFirst: boolean) => [
    f.label,
    f.leads,
    registryFirst ? f.offline : '-',
    f.requests,
    f.crawls,
    round(f.search),
    round(f.seconds),
    perLead(f.seconds - f.search, f.leads),
    round(f.cpu),
    f.charged,
  ]

  await exportRun('warm-up (untimed)', undefined, CATEGORIES[0], 20)

  const registryRun = await exportRun(`registry-first (${CATEGORIES.join(', ')})`, filters)
  const mapRuns: Figures[] = []
  for (const sector of CATEGORIES) mapRuns.push(await exportRun(`map-first ${sector}`, undefined, sector))
  const sum = (key: 'leads' | 'requests' | 'crawls' | 'search' | 'seconds' | 'cpu' | 'charged') => mapRuns.reduce((total, f) => total + f[key], 0)
  const mapTotal: Figures = {
    label: 'map-first, the four summed (baseline)',
    leads: sum('leads'),
    offline: 0,
    requests: sum('requests'),
    crawls: sum('crawls'),
    search: sum('search'),
    seconds: sum('seconds'),
    cpu: sum('cpu'),
    charged: sum('charged'),
  }

  console.log(`\nCount + preview (registry page 1, plan check; ${previewRequests} registry request)`)
  printTable(['run', 'seconds', 'total', 'capped'], [
    ['cold (registry asked)', round(cold.seconds, 3), cold.result.total, String(cold.result.capped)],
    ['warm (day cache)', round(warm.seconds, 3), warm.result.ok ? warm.result.total : '-', '-'],
  ])
  console.log(`\nExport of up to ${LEADS} leads, department ${DEPARTMENT}, phone + website, same run`)
  printTable(['export', 'leads', 'not online', 'registry requests', 'crawls', 'search s', 'total s', 'enrichment ms/lead', 'CPU s', 'credits'], [row(registryRun, true), ...mapRuns.map((f) => row(f, false)), row(mapTotal, false)])
} finally {
  await engine.close?.()
  await pool.end()
  await admin.end()
  setExportQueueBoss(undefined)
  await closeDb()
  await registry.stop()
  await sites.stop()
  await database.stop()
}
