// One measured export run of the enrichment benchmark: the real pipeline (processExport: search, then enrichment with
// the real engine and the credit-charging SQL), checked (completed, credits = successes) and measured (time, CPU,
// RSS over the run, crawls in flight, website outcomes).
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { getPool } from '#app/.server/db.ts'
import { processExport } from '#app/.server/exports/processor.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import { STATUS_COLUMNS } from '#app/domain/enrichment-types.ts'
import { MB, startRssTimeline } from './rss.ts'

const ALL = { phone: true, website: true, email: true, technologies: true, social: true, admin_fr_info: true }
const SUCCESSES_SQL = STATUS_COLUMNS.map((column) => `(${column} = 'success')::int`).join(' + ')
export const RSS_FRACTIONS = [0.25, 0.5, 0.75, 1]

export interface RunFigures {
  label: string
  /** Exports run at once (as a worker runs EXPORT_WORKER_JOBS), each with `concurrency` leads in flight. */
  exports: number
  concurrency: number
  leads: number
  withWebsite: number
  seconds: number
  enrichSeconds: number
  cpuMsPerLead: number
  successes: number
  peakRssMB: number
  /** RSS at RSS_FRACTIONS of the run, MB. */
  rssMB: number[]
  /** Seconds from the start until half, 90 % and all of the leads were recorded: the tail is the slowest sites. */
  doneAt: [number, number, number]
  /** Most website crawls in flight at once (the leads waiting on sites). */
  peakCrawls: number
  /** The pipeline's database pool: most connections open and most queries waiting for one, at once. */
  pool: { peakOpen: number; peakWaiting: number }
  /** website_status counts: success, not_found, failed. */
  website: Record<string, number>
}

/** Regions the exports search, one each: a demo search finds at most 400 businesses, so larger runs take several. */
const REGIONS = ['Île-de-France', 'Auvergne-Rhône-Alpes', "Provence-Alpes-Côte d'Azur", 'Occitanie', 'Hauts-de-France', 'Nouvelle-Aquitaine']

async function newExport(admin: pg.Pool, name: string, region: string): Promise<string> {
  const userId = randomUUID()
  await admin.query('insert into auth.users (id, email) values ($1, $2)', [userId, `${userId}@bench.test`])
  await admin.query(`select public.apply_credit_change($1, 1000000, 'adjustment', $2)`, [userId, `bench:${userId}`])
  const { rows } = await admin.query(
    `insert into public.exports (user_id, name, status, search_status, enrichment_status, search_params, enrichment_options, country, region)
     values ($1, $2, 'processing', 'pending', 'pending', $3, $4, 'France', $5) returning id`,
    [userId, name, { sector: '', country: 'France', countryCode: 'FR', region, department: '', city: '', lang: 'fr' }, ALL, region],
  )
  return rows[0].id as string
}

/** The engine with a count of the crawls in flight. */
function countingCrawls(enrichers: Enrichers): { enrichers: Enrichers; peak: () => number } {
  let inFlight = 0
  let peak = 0
  const crawl: Enrichers['crawl'] = async (url, options) => {
    peak = Math.max(peak, ++inFlight)
    try {
      return await enrichers.crawl(url, options)
    } finally {
      inFlight--
    }
  }
  return { enrichers: { ...enrichers, crawl }, peak: () => peak }
}

/** Samples the pipeline's pool (every 20 ms) until stop(). */
function watchPool() {
  const pool = getPool()
  const peak = { peakOpen: 0, peakWaiting: 0 }
  const sample = () => {
    peak.peakOpen = Math.max(peak.peakOpen, pool.totalCount)
    peak.peakWaiting = Math.max(peak.peakWaiting, pool.waitingCount)
  }
  const timer = setInterval(sample, 20)
  return {
    stop() {
      clearInterval(timer)
      sample()
      return peak
    },
  }
}

/** The exports' figures added up, each checked first. */
async function checkedCounts(admin: pg.Pool, exportIds: string[], label: string) {
  const total = { leads: 0, withWebsite: 0, successes: 0, website: {} as Record<string, number> }
  for (const exportId of exportIds) {
    const counts = await checkedExport(admin, exportId, label)
    total.leads += counts.leads
    total.withWebsite += counts.withWebsite
    total.successes += counts.successes
    for (const [status, n] of Object.entries(counts.website)) total.website[status] = (total.website[status] ?? 0) + n
  }
  return total
}

async function checkedExport(admin: pg.Pool, exportId: string, label: string) {
  const { rows } = await admin.query(
    `select e.status, e.lead_count, e.total_credits_used,
            (select count(*) from public.export_leads el join public.leads l on l.id = el.lead_id where el.export_id = e.id and l.website is not null)::int as with_website,
            (select coalesce(sum(${SUCCESSES_SQL}), 0) from public.export_leads where export_id = e.id)::int as successes,
            (select jsonb_object_agg(website_status, n) from (select website_status, count(*)::int as n from public.export_leads where export_id = e.id group by 1) s) as website
       from public.exports e where e.id = $1`,
    [exportId],
  )
  const row = rows[0]
  if (row.status !== 'completed' || row.total_credits_used !== row.successes) throw new Error(`${label}: not completed or credits ≠ successes: ${JSON.stringify(row)}`)
  return { leads: row.lead_count as number, withWebsite: row.with_website as number, successes: row.successes as number, website: (row.website ?? {}) as Record<string, number> }
}

/** `exports` exports of up to `leads` leads each, run at once, measured together. */
export async function runExport(admin: pg.Pool, engine: Enrichers, label: string, run: { leads: number; concurrency: number; exports?: number }): Promise<RunFigures> {
  const { leads, concurrency, exports = 1 } = run
  const exportIds = await Promise.all(REGIONS.slice(0, exports).map((region) => newExport(admin, label, region)))
  const counted = countingCrawls(engine)
  let enrichStart = 0
  const rss = startRssTimeline()
  const pool = watchPool()
  const cpu = process.cpuUsage()
  const start = performance.now()
  const recordedAt: number[] = []
  const options = {
    onLeadRecorded: () => void recordedAt.push((performance.now() - start) / 1000),
    enrichers: counted.enrichers,
    maxLeads: leads,
    concurrency,
    // Every run enriches the same demo businesses: without this the later runs would read the results store
    // instead of crawling, and measure the store.
    reuseDays: 0,
    onPhase: (phase: string) => {
      if (phase === 'enrichment' && !enrichStart) enrichStart = performance.now()
    },
  }
  await Promise.all(exportIds.map((exportId) => processExport(exportId, options)))
  const end = performance.now()
  const used = process.cpuUsage(cpu)
  const memory = rss.stop()
  const poolPeaks = pool.stop()
  const counts = await checkedCounts(admin, exportIds, label)
  return {
    label,
    exports,
    concurrency,
    ...counts,
    seconds: (end - start) / 1000,
    enrichSeconds: (end - enrichStart) / 1000,
    cpuMsPerLead: (used.user + used.system) / 1000 / counts.leads,
    peakRssMB: memory.peakBytes / MB,
    rssMB: memory.at(RSS_FRACTIONS).map((bytes) => bytes / MB),
    peakCrawls: counted.peak(),
    pool: poolPeaks,
    doneAt: [0.5, 0.9, 1].map((share) => recordedAt[Math.max(0, Math.ceil(share * recordedAt.length) - 1)] ?? 0) as [number, number, number],
  }
}
