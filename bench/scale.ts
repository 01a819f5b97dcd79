// Scale-out benchmark (issue 23): ONE export of 2 000 leads enriched by 1, 2 and 4 `npm run worker` processes on one
// embedded Postgres, the sites at realistic latency (LATENCY_PROFILE=realistic: median 1.8 s, p90 3.1 s, 5 % never
// answer), the registry a fake in this process that timestamps every request. For each worker count: leads/s, CPU ms
// per lead (every worker process, pidusage), the registry's peak requests in any 1 s window (must stay within
// REGISTRY_REQUESTS_PER_SECOND, a budget shared by all workers through the database), and the ledger check (nothing
// lost, nothing charged twice). The 1-worker run is the baseline of the same run.
//
// The leads are seeded (a demo search finds at most 400 businesses): the export starts with its search done, so the
// run job only plans its batches and the figures are the enrichment's.
//
//   npx tsx bench/scale.ts [--leads 2000] [--workers 1,2,4] [--registry-rate 50] [--batch-size <EXPORT_BATCH_SIZE>]
import { randomUUID } from 'node:crypto'
import os from 'node:os'
import { parseArgs } from 'node:util'
import pg from 'pg'
import pidusage from 'pidusage'
import { createBoss, ensureExportQueues, exportQueueNames } from '#app/.server/exports/queue.ts'
import { parseEnv } from '#app/.server/env.server.ts'
import { startDemoRegistry } from '#server/demo/registry.ts'
import { accountProblems, exportAccount, peakInWindow } from '#tests/support/export-checks.ts'
import { startWorkerProcesses, stopWorkerProcesses } from '#tests/support/worker-processes.ts'
import { startBenchDatabase } from './lib/database.ts'
import { startDemoProcess } from './lib/demo-process.ts'
import { printTable } from './lib/table.ts'

const { values } = parseArgs({
  options: {
    leads: { type: 'string', default: '2000' },
    workers: { type: 'string', default: '1,2,4' },
    // The public registry allows 7/s, which would make every run last leads / 7 s whatever the workers: the bench
    // uses a larger budget, still enforced across all workers, and checks it at the registry's side.
    'registry-rate': { type: 'string', default: '50' },
    'batch-size': { type: 'string' },
  },
})
const LEADS = Number(values.leads)
const WORKER_COUNTS = values.workers.split(',').map(Number)
const REGISTRY_RATE = Number(values['registry-rate'])
const ENRICHMENT = { phone: true, website: true, email: true, technologies: true, social: true, admin_fr_info: true }
const PENDING_COLUMNS = ['phone_status', 'website_status', 'email_status', 'technologies_status', 'social_media_status', 'admin_fr_info_status']

interface Figures {
  workers: number
  seconds: number
  leadsPerSecond: number
  cpuMsPerLead: number
  registryRequests: number
  registryPeak: number
  successes: number
  ledger: string
}

/** A user with credits and one export of `leads` seeded leads (distinct demo sites per run: no reuse between runs). */
async function seedExport(admin: pg.Pool, run: number): Promise<{ userId: string; exportId: string }> {
  const userId = randomUUID()
  await admin.query('insert into auth.users (id, email) values ($1, $2)', [userId, `${userId}@bench.test`])
  await admin.query(`select public.apply_credit_change($1, 1000000, 'adjustment', $2)`, [userId, `bench:${userId}`])
  const { rows } = await admin.query(
    `insert into public.exports (user_id, name, status, search_status, enrichment_status, search_params, enrichment_options, country, region, city, lead_count)
     values ($1, 'Scale bench', 'processing', 'completed', 'pending', $2, $3, 'France', 'Auvergne-Rhône-Alpes', 'Lyon', $4) returning id`,
    [userId, { sector: 'boulangerie', country: 'France', countryCode: 'FR', region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon', lang: 'fr' }, ENRICHMENT, LEADS],
  )
  const exportId = rows[0].id as string
  // Slugs the demo websites serve (name-postcode-seed): each its own site, latency and contents.
  await admin.query(
    `with inserted as (
       insert into public.leads (user_id, source, place_id, name, city, postal_code, country_code, phone, website, business_types)
       select $1, 'demo', 'scale-' || g, 'Boulangerie Scale ' || g, 'Lyon', '69003', 'FR', '04 78 ' || lpad((g % 100)::text, 2, '0') || ' 00 00',
              $4 || '/sites/boulangerie-scale-' || g || '-69003-' || lpad(to_hex($3 * 100000 + g), 7, '0') || '/', array['boulangerie']
         from generate_series(0, $5::int - 1) g
       returning id, place_id)
     insert into public.export_leads (export_id, lead_id, user_id, position, ${PENDING_COLUMNS.join(', ')})
     select $2, id, $1, substr(place_id, 7)::int, ${PENDING_COLUMNS.map(() => `'pending'`).join(', ')} from inserted`,
    [userId, exportId, run, process.env.DEMO_WEBSITES_URL, LEADS],
  )
  return { userId, exportId }
}

async function cpuMs(pids: number[]): Promise<number> {
  const stats = await pidusage(pids)
  return Object.values(stats).reduce((total, stat) => total + stat.ctime, 0)
}

async function runWith(admin: pg.Pool, databaseUrl: string, workerCount: number, run: number, registryRequests: number[]): Promise<Figures> {
  const workers = await startWorkerProcesses(workerCount, {
    DATABASE_URL: databaseUrl,
    LEADS_SOURCE: 'demo',
    DEMO_WEBSITES_URL: process.env.DEMO_WEBSITES_URL as string,
    REGISTRY_URL: process.env.REGISTRY_URL as string,
    REGISTRY_REQUESTS_PER_SECOND: String(REGISTRY_RATE),
    ENRICH_ALLOW_HOSTS: process.env.ENRICH_ALLOW_HOSTS as string,
    ENRICHMENT_REUSE_DAYS: '0',
    ...(values['batch-size'] ? { EXPORT_BATCH_SIZE: values['batch-size'] } : {}),
  })
  try {
    const { userId, exportId } = await seedExport(admin, run)
    const config = parseEnv({ ...process.env, DATABASE_URL: databaseUrl })
    const boss = createBoss({ worker: false, connectionString: databaseUrl, config })
    await boss.start()
    await ensureExportQueues(boss, config)
    const pids = workers.map((worker) => worker.pid)
    const cpuBefore = await cpuMs(pids)
    const requestsBefore = registryRequests.length
    const started = performance.now()
    await boss.send(exportQueueNames(config).run, { exportId, userId }, { singletonKey: exportId, group: { id: userId } })
    for (;;) {
      const { rows } = await admin.query('select status from public.exports where id = $1', [exportId])
      if (rows[0]?.status !== 'processing') break
      if (workers.some((worker) => !worker.running)) throw new Error(`a worker exited:\n${workers.map((worker) => worker.output()).join('\n')}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    const seconds = (performance.now() - started) / 1000
    const cpu = (await cpuMs(pids)) - cpuBefore
    await boss.stop({ graceful: false, close: true })
    const account = await exportAccount(admin, exportId)
    const problems = accountProblems(account, LEADS)
    const requests = registryRequests.slice(requestsBefore)
    return {
      workers: workerCount,
      seconds: round(seconds, 1),
      leadsPerSecond: round(LEADS / seconds, 1),
      cpuMsPerLead: round(cpu / LEADS, 2),
      registryRequests: requests.length,
      registryPeak: peakInWindow(requests),
      successes: account.successes,
      ledger: problems.length ? problems.join('; ') : `ok (${account.ledgerRows} charges, ${account.ledgerKeys} keys)`,
    }
  } finally {
    await stopWorkerProcesses(workers)
  }
}

function round(value: number, digits: number): number {
  return Math.round(value * 10 ** digits) / 10 ** digits
}

const database = await startBenchDatabase('leadatlas-scale-')
const admin = new pg.Pool({ connectionString: database.superuserUrl, max: 2 })
const registryRequests: number[] = []
const registry = await startDemoRegistry({ onRequest: ({ path }) => path.startsWith('/search') && registryRequests.push(Date.now()) })
const sites = await startDemoProcess('server/demo/websites.ts', { LATENCY_PROFILE: 'realistic' })
Object.assign(process.env, {
  DEMO_WEBSITES_URL: sites.url,
  REGISTRY_URL: registry.url,
  ENRICH_ALLOW_HOSTS: [new URL(sites.url).host, new URL(registry.url).host].join(','),
})
const results: Figures[] = []
try {
  for (const [run, count] of WORKER_COUNTS.entries()) {
    console.log(`${count} worker(s): ${LEADS} leads...`)
    results.push(await runWith(admin, database.url, count, run + 1, registryRequests))
  }
} finally {
  await sites.stop()
  await registry.stop()
  await admin.end()
  await database.stop()
}

const baseline = results[0] as Figures
console.log(
  `\nOne export of ${LEADS} leads, realistic site latency, registry budget ${REGISTRY_RATE}/s shared by all workers; ${os.cpus().length} CPUs, load ${os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}\n`,
)
printTable(
  ['workers', 'seconds', 'leads/s', `× ${baseline.workers} worker`, 'CPU ms/lead', 'registry req', 'registry peak/s', 'successes', 'ledger'],
  results.map((figures) => [
    figures.workers,
    figures.seconds,
    figures.leadsPerSecond,
    round(figures.leadsPerSecond / baseline.leadsPerSecond, 2),
    figures.cpuMsPerLead,
    figures.registryRequests,
    figures.registryPeak,
    figures.successes,
    figures.ledger,
  ]),
)
if (results.some((figures) => figures.registryPeak > REGISTRY_RATE || !figures.ledger.startsWith('ok'))) process.exitCode = 1
