/**
 * Prometheus metrics (prom-client). One registry per process, kept on globalThis: the HTTP layer and the worker
 * (loaded by tsx) and the app (the React Router build, its own copy of this module) count into the same metrics.
 * The gauges that describe the database (queue depth and age, pool use) are read at scrape time (renderMetrics).
 */
import { timingSafeEqual, createHash } from 'node:crypto'
import type pg from 'pg'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from 'prom-client'

const KEY = Symbol.for('leadatlas.metrics')
const holder = globalThis as { [KEY]?: { registry: Registry; pools: Set<pg.Pool> } }
const state = (holder[KEY] ??= (() => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  return { registry, pools: new Set<pg.Pool>() }
})())
const { registry } = state

/** The metric already registered under `name` (by the other copy of this module), else a new one. */
function metric<T extends Metric>(name: string, create: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create()
}

const httpDuration = metric(
  'leadatlas_http_request_duration_seconds',
  () =>
    new Histogram({
      name: 'leadatlas_http_request_duration_seconds',
      help: 'HTTP requests by method, route (React Router route id, never the raw URL) and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
)
const queueJobs = metric(
  'leadatlas_queue_jobs',
  () => new Gauge({ name: 'leadatlas_queue_jobs', help: 'pg-boss jobs by queue and state (created, retry, active), read at scrape time', labelNames: ['queue', 'state'], registers: [registry] }),
)
const queueOldest = metric(
  'leadatlas_queue_oldest_job_age_seconds',
  () =>
    new Gauge({
      name: 'leadatlas_queue_oldest_job_age_seconds',
      help: 'Age of the oldest job waiting (created or retry, start time reached) per queue, read at scrape time',
      labelNames: ['queue'],
      registers: [registry],
    }),
)
const leadsEnriched = metric('leadatlas_leads_enriched_total', () => new Counter({ name: 'leadatlas_leads_enriched_total', help: 'Leads whose enrichment outcomes were recorded', registers: [registry] }))
const enrichmentOutcomes = metric(
  'leadatlas_enrichment_outcomes_total',
  () =>
    new Counter({
      name: 'leadatlas_enrichment_outcomes_total',
      help: 'Recorded enrichment outcomes by enrichment type and outcome (success, not_found, failed)',
      labelNames: ['type', 'outcome'],
      registers: [registry],
    }),
)
const crawlErrors = metric(
  'leadatlas_crawl_errors_total',
  () => new Counter({ name: 'leadatlas_crawl_errors_total', help: 'Website fetches that failed, by kind (timeout, dns_error, robots_disallowed...)', labelNames: ['kind'], registers: [registry] }),
)
const rateLimitRefusals = metric(
  'leadatlas_rate_limit_refusals_total',
  () => new Counter({ name: 'leadatlas_rate_limit_refusals_total', help: 'Requests refused by a rate limit, by limiter', labelNames: ['limiter'], registers: [registry] }),
)
const webhookDeliveries = metric(
  'leadatlas_webhook_deliveries_total',
  () =>
    new Counter({
      name: 'leadatlas_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome (delivered, failed: will retry or gave up, abandoned: not sent)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
)
const poolConnections = metric(
  'leadatlas_db_pool_connections',
  () =>
    new Gauge({
      name: 'leadatlas_db_pool_connections',
      help: 'Database pool connections of this process (total, idle) and queries waiting for one, read at scrape time',
      labelNames: ['state'],
      registers: [registry],
    }),
)
const scrapeErrors = metric(
  'leadatlas_metrics_scrape_errors_total',
  () => new Counter({ name: 'leadatlas_metrics_scrape_errors_total', help: 'Scrapes whose database reads (queue gauges) failed or timed out', registers: [registry] }),
)

export function observeHttpRequest(labels: { method: string; route: string; status: number }, seconds: number): void {
  httpDuration.observe({ method: labels.method, route: labels.route, status: String(labels.status) }, seconds)
}

/** Counts one lead's recorded outcomes; returns `result` so the recording call stays one expression. */
export function countLeadRecorded<T>(outcomes: Readonly<Record<string, string | undefined>>, result: T): T {
  leadsEnriched.inc()
  for (const [type, outcome] of Object.entries(outcomes)) if (outcome) enrichmentOutcomes.inc({ type, outcome })
  return result
}

/** Counts a failed website fetch; returns `kind` (the crawler records it as the page's error). */
export function countCrawlError(kind: string): string {
  crawlErrors.inc({ kind })
  return kind
}

export function countRateLimitRefusal(limiter: string): void {
  rateLimitRefusals.inc({ limiter })
}

export function countWebhookDelivery(outcome: 'delivered' | 'failed' | 'abandoned'): void {
  webhookDeliveries.inc({ outcome })
}

/** Called when a database pool is created (app/.server/db.ts): its use is reported at scrape time. */
export function observePool(pool: pg.Pool): void {
  // Pools that end (closeDb) are dropped at the next scrape.
  state.pools.add(pool)
}

const QUEUE_SQL = `
  select name, state::text as state, count(*)::int as jobs,
         extract(epoch from now() - min(created_on) filter (where state in ('created', 'retry') and start_after <= now()))::float8 as oldest
    from pgboss.job
   where state in ('created', 'retry', 'active')
   group by name, state`

/**
 * The exposition text. `pool` answers the queue query (bounded by `timeoutMs`: a slow database gives a scrape
 * without queue gauges, counted in leadatlas_metrics_scrape_errors_total, never a hung scrape).
 */
export async function renderMetrics({ pool, timeoutMs = 2_000 }: { pool?: pg.Pool; timeoutMs?: number } = {}): Promise<string> {
  let total = 0
  let idle = 0
  let waiting = 0
  for (const each of state.pools) {
    if ((each as pg.Pool & { ended?: boolean }).ended) {
      state.pools.delete(each)
      continue
    }
    total += each.totalCount
    idle += each.idleCount
    waiting += each.waitingCount
  }
  poolConnections.set({ state: 'total' }, total)
  poolConnections.set({ state: 'idle' }, idle)
  poolConnections.set({ state: 'waiting' }, waiting)
  if (pool) await readQueues(pool, timeoutMs)
  return registry.metrics()
}

async function readQueues(pool: pg.Pool, timeoutMs: number) {
  let timer: NodeJS.Timeout | undefined
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('queue metrics timed out')), timeoutMs)
    })
    const rows = await Promise.race([queueRows(pool), timeout])
    queueJobs.reset()
    queueOldest.reset()
    const oldest = new Map<string, number>()
    for (const row of rows) {
      queueJobs.set({ queue: row.name, state: row.state }, row.jobs)
      if (row.oldest !== null) oldest.set(row.name, Math.max(oldest.get(row.name) ?? 0, row.oldest))
    }
    for (const [queue, seconds] of oldest) queueOldest.set({ queue }, seconds)
  } catch {
    scrapeErrors.inc()
  } finally {
    clearTimeout(timer)
  }
}

/** No rows before pg-boss has created its schema (no worker started yet on this database). */
async function queueRows(pool: pg.Pool) {
  const { rows } = await pool.query<{ present: boolean }>("select to_regclass('pgboss.job') is not null as present")
  if (!rows[0]?.present) return []
  return (await pool.query<{ name: string; state: string; jobs: number; oldest: number | null }>(QUEUE_SQL)).rows
}

export const METRICS_CONTENT_TYPE = registry.contentType

/** Whether an Authorization header carries `token` as a bearer token (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '')
  if (!match) return false
  // Digests first: timingSafeEqual needs equal lengths, and the length of the token must not leak either.
  const given = createHash('sha256').update(match[1]!.trim()).digest()
  const expected = createHash('sha256').update(token).digest()
  return timingSafeEqual(given, expected)
}
