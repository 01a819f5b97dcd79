// Enrichment benchmark: the real export pipeline (processExport: search, then enrichment with the real engine and the
// credit-charging SQL) on a fresh embedded Postgres, against the demo websites and the demo registry served by child
// processes, in two scenarios of the same run, each in its own process (so CPU and memory figures are its own):
//
//   50 ms       every site answers after 50 ms (ARCHITECTURE §9: ≥ 50 leads/s on this 2-core machine), with a naive
//               sequential baseline (one lead at a time, same engine, same database writes)
//   realistic   LATENCY_PROFILE=realistic (app/.server/sources/demo/site-latency.ts): median 1.8 s, p90 3.1 s, 5 % of
//               sites never answer (the crawler's timeout ends them), 3 % 404, 2 % redirect (issue 12: ≥ 30 leads/s),
//               as many exports at once as a worker runs, with the former default (16 leads in flight) as baseline
//
// Politeness: every demo site shares the demo server's host:port, so the server itself counts the requests in flight
// per site (GET /_demo/traffic) and the table prints the highest.
//
//   npx tsx bench/enrichment.ts [--scenarios 50ms,realistic] [--cpu-prof <dir>] [--leads 400] [--baseline 60] [--realistic-leads 400] [--realistic-baseline 100] [--realistic-exports <EXPORT_WORKER_JOBS>] [--concurrency <default>]
import os from 'node:os'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { closeDb } from '#app/.server/db.ts'
import { env } from '#app/.server/env.server.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import type { SiteTrafficReport } from '#server/demo/site-traffic.ts'
import { reportToParent, runInChild } from './lib/child.ts'
import { startBenchDatabase } from './lib/database.ts'
import { startDemoProcess } from './lib/demo-process.ts'
import { RSS_FRACTIONS, runExport, type RunFigures } from './lib/enrichment-run.ts'
import { printTable } from './lib/table.ts'

const SCENARIOS = {
  '50ms': { env: { LATENCY_MS: '50' }, goal: 50, describe: 'every site answers after 50 ms' },
  realistic: { env: { LATENCY_PROFILE: 'realistic' }, goal: 30, describe: 'median 1.8 s, p90 3.1 s, 5 % hang, 3 % 404, 2 % redirect' },
} as const
type ScenarioName = keyof typeof SCENARIOS

const { values } = parseArgs({
  options: {
    leads: { type: 'string', default: '400' },
    baseline: { type: 'string', default: '60' },
    // Leads of the realistic scenario's baseline run: one export, 16 in flight (EXPORT_CONCURRENCY's former default).
    'realistic-baseline': { type: 'string', default: '100' },
    'realistic-leads': { type: 'string', default: '400' },
    // Exports at once in the realistic scenario (a demo search finds at most 400 businesses; one wave of 400 would
    // measure the slowest site more than the pipeline).
    'realistic-exports': { type: 'string' }, // default: EXPORT_WORKER_JOBS, the exports one worker runs at once
    // Leads in flight; unset: the pipeline's default (EXPORT_CONCURRENCY).
    concurrency: { type: 'string' },
    scenarios: { type: 'string', default: Object.keys(SCENARIOS).join(',') },
    // A directory: each scenario's pipeline process writes a V8 CPU profile there (node --cpu-prof).
    'cpu-prof': { type: 'string' },
    child: { type: 'string' }, // internal: the scenario this process runs
  },
})

interface ScenarioResult {
  runs: RunFigures[]
  traffic?: SiteTrafficReport
}

if (values.child) await child(values.child as ScenarioName)
else await main()

// ---------------------------------------------------------------------------
// Child: one scenario's runs against the demo servers the parent started.

async function child(name: ScenarioName) {
  const admin = new pg.Pool({ connectionString: env.DATABASE_URL, max: 2 })
  // One engine for every run, as a worker keeps one for its lifetime (connection pool, robots.txt cache).
  const enrichers = createDefaultEnrichers()
  const concurrency = values.concurrency ? Number(values.concurrency) : env.EXPORT_CONCURRENCY
  try {
    // Warm-up: loads the technology fingerprints and JIT-compiles the hot paths.
    await runExport(admin, enrichers, 'warm-up', { leads: 20, concurrency })
    const realistic = name === 'realistic'
    const leads = Number(realistic ? values['realistic-leads'] : values.leads)
    const runs = [await runExport(admin, enrichers, `pipeline, ${name}`, { leads, concurrency, exports: realistic ? Number(values['realistic-exports'] ?? env.EXPORT_WORKER_JOBS) : 1 })]
    if (name === '50ms') runs.push(await runExport(admin, enrichers, 'naive sequential, 50ms', { leads: Number(values.baseline), concurrency: 1 }))
    else runs.push(await runExport(admin, enrichers, 'former default, realistic', { leads: Number(values['realistic-baseline']), concurrency: 16 }))
    reportToParent({ runs } satisfies ScenarioResult)
  } finally {
    await enrichers.close?.()
    await closeDb()
    await admin.end()
  }
  process.exit(0)
}

// ---------------------------------------------------------------------------
// Parent: database and registry, then per scenario its demo websites and one child; the figures side by side.

async function runScenario(name: ScenarioName, shared: Record<string, string>, registryHost: string): Promise<ScenarioResult> {
  const sites = await startDemoProcess('server/demo/websites.ts', SCENARIOS[name].env)
  try {
    process.stderr.write(`  running ${name}...\n`)
    const args = ['--child', name, ...Object.entries(values).flatMap(([key, value]) => (['child', 'scenarios', 'cpu-prof'].includes(key) || value === undefined ? [] : [`--${key}`, String(value)]))]
    const result = await runInChild<ScenarioResult>(import.meta.filename, args, {
      ...shared,
      DEMO_WEBSITES_URL: sites.url,
      ENRICH_ALLOW_HOSTS: [new URL(sites.url).host, registryHost].join(','),
    }, values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : [])
    const traffic = (await (await fetch(`${sites.url}/_demo/traffic`)).json()) as SiteTrafficReport
    return { ...result, traffic }
  } finally {
    await sites.stop()
  }
}

async function main() {
  const db = await startBenchDatabase('leadatlas-bench-enrich-')
  const registry = await startDemoProcess('server/demo/registry.ts', {})
  const results = new Map<ScenarioName, ScenarioResult>()
  try {
    const shared = { DATABASE_URL: db.url, LEADS_SOURCE: 'demo', REGISTRY_URL: registry.url }
    for (const name of values.scenarios.split(',') as ScenarioName[]) results.set(name, await runScenario(name, shared, new URL(registry.url).host))
  } finally {
    await registry.stop()
    await db.stop()
  }
  report(results)
}

function report(results: Map<ScenarioName, ScenarioResult>) {
  const load = os.loadavg().map((value) => value.toFixed(1))
  console.log(`\nEnrichment benchmark: ${os.cpus().length} CPUs (load average ${load.join(' / ')}), all six enrichments on (admin_fr_info via the demo registry)`)
  for (const [name, scenario] of Object.entries(SCENARIOS)) console.log(`  ${name}: ${scenario.describe}`)
  console.log()
  const rows = [...results.entries()].flatMap(([name, result]) => result.runs.map((run) => ({ name, run, traffic: run.concurrency > 1 ? result.traffic : undefined })))
  printTable(
    ['run', 'exports', 'leads', 'with site', 'in flight/export', 'peak crawls', 'seconds', 'search s', '50/90/100 % done at s', 'leads/s', 'CPU ms/lead', 'peak RSS MB', `RSS MB at ${RSS_FRACTIONS.map((f) => `${f * 100}`).join('/')} %`, 'site ok/404/failed', 'DB conns/waiting', 'credits'],
    rows.map(({ run }) => [
      run.label,
      run.exports,
      run.leads,
      run.withWebsite,
      run.concurrency,
      run.peakCrawls,
      run.seconds.toFixed(2),
      (run.seconds - run.enrichSeconds).toFixed(2),
      run.doneAt.map((seconds) => seconds.toFixed(1)).join(' / '),
      (run.leads / run.seconds).toFixed(1),
      run.cpuMsPerLead.toFixed(2),
      run.peakRssMB.toFixed(0),
      run.rssMB.map((mb) => mb.toFixed(0)).join(' / '),
      ['success', 'not_found', 'failed'].map((status) => run.website[status] ?? 0).join(' / '),
      `${run.pool.peakOpen} / ${run.pool.peakWaiting}`,
      `${run.successes} = successes`,
    ]),
  )
  console.log('\nWhat the demo websites saw (each scenario: warm-up, pipeline and baseline runs together)\n')
  printTable(
    ['scenario', 'requests', 'peak per site', 'peak in flight', 'homepages hung', '404', 'redirected', 'redirects followed'],
    [...results.entries()].map(([name, { traffic }]) => {
      const answers = traffic?.answers ?? {}
      return [name, traffic?.requests, traffic?.peakPerSite, traffic?.peakTotal, answers.hang ?? 0, answers.not_found ?? 0, answers.redirect ?? 0, answers.redirect_followed ?? 0]
    }),
  )
  console.log()
  for (const [name, { runs }] of results) {
    const [pipeline, baseline] = runs as [RunFigures, RunFigures | undefined]
    const rate = pipeline.leads / pipeline.seconds
    const versus = baseline ? `, ${(rate / (baseline.leads / baseline.seconds)).toFixed(1)}× the ${baseline.label.split(',')[0]} baseline` : ''
    console.log(`${name}: goal ≥ ${SCENARIOS[name].goal} leads/s end to end ${rate >= SCENARIOS[name].goal ? 'met' : 'NOT met'} (${rate.toFixed(1)} leads/s${versus}); CPU-bound ceiling on one free core ${(1000 / pipeline.cpuMsPerLead).toFixed(0)} leads/s`)
  }
}
