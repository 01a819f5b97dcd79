// Enrichment benchmark (ARCHITECTURE §9: ≥ 50 leads/s on this 2-core machine, demo sites with 50 ms latency, all
// enrichments on). Runs the real export pipeline (processExport: search, then enrichment with the real engine and
// the credit-charging SQL) on a fresh embedded Postgres, against the demo websites and the demo registry served by
// child processes (so this process's CPU figures are the pipeline's own), and a naive sequential baseline (one lead
// at a time, same engine, same database writes) in the same run.
//
//   npx tsx bench/enrichment.ts [leads=400] [baselineLeads=60] [concurrency=16]
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { closeDb } from '#app/.server/db.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import { STATUS_COLUMNS } from '#app/domain/enrichment-types.ts'
import { startBenchDatabase } from './lib/database.ts'
import { printTable } from './lib/table.ts'

const ROOT = path.resolve(import.meta.dirname, '..')
const LEADS = Number(process.argv[2] ?? 400)
const BASELINE_LEADS = Number(process.argv[3] ?? 60)
const CONCURRENCY = Number(process.argv[4] ?? 16)
const LATENCY_MS = 50
const ALL = { phone: true, website: true, email: true, technologies: true, social: true, admin_fr_info: true }

/** Starts one of our standalone demo servers in a child process and returns its URL. */
async function startServer(file: string, env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const match = /at (http:\/\/[^\s)]+)/.exec(out)
      if (match) resolve(match[1] as string)
    })
    child.once('exit', (code) => reject(new Error(`${file} exited (${code}): ${out}`)))
  })
  return { url, child }
}

async function newExport(admin: pg.Pool, name: string): Promise<string> {
  const userId = randomUUID()
  await admin.query('insert into auth.users (id, email) values ($1, $2)', [userId, `${userId}@bench.test`])
  await admin.query(`select public.apply_credit_change($1, 1000000, 'adjustment', $2)`, [userId, `bench:${userId}`])
  const { rows } = await admin.query(
    `insert into public.exports (user_id, name, status, search_status, enrichment_status, search_params, enrichment_options, country, region)
     values ($1, $2, 'processing', 'pending', 'pending', $3, $4, 'France', 'Île-de-France') returning id`,
    [userId, name, { sector: '', country: 'France', countryCode: 'FR', region: 'Île-de-France', department: '', city: '', lang: 'fr' }, ALL],
  )
  return rows[0].id as string
}

const SUCCESSES_SQL = STATUS_COLUMNS.map((column) => `(${column} = 'success')::int`).join(' + ')

/** One export run end to end, checked (completed, credits = successes) and measured. */
async function run(admin: pg.Pool, enrichers: Enrichers, label: string, leads: number, concurrency: number) {
  const exportId = await newExport(admin, label)
  let enrichStart = 0
  const cpu = process.cpuUsage()
  const start = performance.now()
  const result = await processExport(exportId, {
    enrichers,
    maxLeads: leads,
    concurrency,
    // Every run enriches the same demo businesses: without this the later runs would read the results store
    // instead of crawling, and measure the store.
    reuseDays: 0,
    onPhase: (phase) => {
      if (phase === 'enrichment') enrichStart = performance.now()
    },
  })
  const seconds = (performance.now() - start) / 1000
  const used = process.cpuUsage(cpu)
  const { rows } = await admin.query(
    `select e.status, e.lead_count, e.total_credits_used,
            (select count(*) from public.export_leads el join public.leads l on l.id = el.lead_id where el.export_id = e.id and l.website is not null)::int as with_website,
            (select coalesce(sum(${SUCCESSES_SQL}), 0) from public.export_leads where export_id = e.id)::int as successes
       from public.exports e where e.id = $1`,
    [exportId],
  )
  const row = rows[0]
  if (row.status !== 'completed' || row.total_credits_used !== row.successes) throw new Error(`${label}: ${JSON.stringify(row)} ${result.outcome}`)
  const enrichSeconds = (performance.now() - enrichStart) / 1000
  return {
    label,
    leads: row.lead_count as number,
    withWebsite: row.with_website as number,
    seconds,
    enrichSeconds,
    cpuMsPerLead: (used.user + used.system) / 1000 / row.lead_count,
    successes: row.successes as number,
  }
}

async function main() {
  const db = await startBenchDatabase('leadatlas-bench-enrich-')
  const sites = await startServer('server/demo/websites.ts', { LATENCY_MS: String(LATENCY_MS) })
  const registry = await startServer('server/demo/registry.ts', {})
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
    // One engine for every run, as a worker keeps one for its lifetime (connection pool, robots.txt cache).
    const enrichers = createDefaultEnrichers()

    // Warm-up: loads the technology fingerprints and JIT-compiles the hot paths for both runs alike.
    await run(admin, enrichers, 'warm-up', 20, CONCURRENCY)
    const pipeline = await run(admin, enrichers, `pipeline (${CONCURRENCY} leads in flight)`, LEADS, CONCURRENCY)
    const baseline = await run(admin, enrichers, 'naive sequential (1 lead at a time)', BASELINE_LEADS, 1)

    const load = os.loadavg().map((value) => round(value, 1))
    console.log(`\nEnrichment benchmark: ${os.cpus().length} CPUs (load average ${load.join(' / ')}), demo sites with ${LATENCY_MS} ms latency, all six enrichments on (admin_fr_info via the demo registry)\n`)
    printTable(
      ['scenario', 'leads', 'with site', 'seconds', 'leads/s', 'enrich-phase leads/s', 'CPU ms/lead', 'successes (=credits)'],
      [pipeline, baseline].map((r) => [
        r.label,
        r.leads,
        r.withWebsite,
        round(r.seconds, 2),
        round(r.leads / r.seconds, 1),
        round(r.leads / r.enrichSeconds, 1),
        round(r.cpuMsPerLead, 2),
        r.successes,
      ]),
    )
    await enrichers.close?.()
    const rate = pipeline.leads / pipeline.seconds
    console.log(`\nBudget ≥ 50 leads/s end to end: ${rate >= 50 ? 'met' : 'NOT met'} (${round(rate, 1)} leads/s, ${round(rate / (baseline.leads / baseline.seconds), 1)}× the sequential baseline)`)
    // The pipeline's own CPU bounds it at 1000 / (CPU ms per lead) leads/s on one free core: the figure to compare
    // when the machine is shared (a load average far above the CPU count means this process waited for a core).
    console.log(`CPU-bound ceiling of this process on one free core: ${round(1000 / pipeline.cpuMsPerLead, 0)} leads/s`)
  } finally {
    await closeDb().catch(() => {})
    await admin.end().catch(() => {})
    sites.child.kill('SIGTERM')
    registry.child.kill('SIGTERM')
    await db.stop()
  }
}

function round(value: number, digits: number) {
  const f = 10 ** digits
  return Math.round(value * f) / f
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
