// One measured export run of the enrichment benchmark: the real pipeline (processExport: search, then enrichment with
// the real engine and the credit-charging SQL), checked (completed, credits = successes) and measured (time, CPU,
// RSS over the run, crawls in flight, website outcomes).
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { processExport } from '#app/.server/exports/processor.ts'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import { STATUS_COLUMNS } from '#app/domain/enrichment-types.ts'
import { MB, startRssTimeline } from './rss.ts'

const ALL = { phone: true, website: true, email: true, technologies: true, social: true, admin_fr_info: true }
const SUCCESSES_SQL = STATUS_COLUMNS.map((column) => `(${column} = 'success')::int`).join(' + ')
export const RSS_FRACTIONS = [0.25, 0.5, 0.75, 1]

export interface RunFigures {
  label: string
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
  /** Most website crawls in flight at once (the leads waiting on sites). */
  peakCrawls: number
  /** website_status counts: success, not_found, failed. */
  website: Record<string, number>
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

async function checkedCounts(admin: pg.Pool, exportId: string, label: string) {
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

export async function runExport(admin: pg.Pool, engine: Enrichers, label: string, leads: number, concurrency: number): Promise<RunFigures> {
  const exportId = await newExport(admin, label)
  const counted = countingCrawls(engine)
  let enrichStart = 0
  const rss = startRssTimeline()
  const cpu = process.cpuUsage()
  const start = performance.now()
  await processExport(exportId, {
    enrichers: counted.enrichers,
    maxLeads: leads,
    concurrency,
    // Every run enriches the same demo businesses: without this the later runs would read the results store
    // instead of crawling, and measure the store.
    reuseDays: 0,
    onPhase: (phase) => {
      if (phase === 'enrichment') enrichStart = performance.now()
    },
  })
  const end = performance.now()
  const used = process.cpuUsage(cpu)
  const memory = rss.stop()
  const counts = await checkedCounts(admin, exportId, label)
  return {
    label,
    concurrency,
    ...counts,
    seconds: (end - start) / 1000,
    enrichSeconds: (end - enrichStart) / 1000,
    cpuMsPerLead: (used.user + used.system) / 1000 / counts.leads,
    peakRssMB: memory.peakBytes / MB,
    rssMB: memory.at(RSS_FRACTIONS).map((bytes) => bytes / MB),
    peakCrawls: counted.peak(),
  }
}
