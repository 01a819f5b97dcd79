/**
 * Liveness and readiness for load balancers and orchestrators, plus the metrics endpoint, answered before anything
 * else of the app (no session, no Origin check, no rate limit, no cookie). Used by the app's HTTP layer
 * (server/http-app.ts), the separate metrics listener and the standalone worker's health port.
 *
 *   GET /healthz  200 {"status":"ok"}: the process serves requests (no database call)
 *   GET /readyz   200 or 503 {"status":"ready"|"not_ready","checks":{...}}: the database answers, every shipped
 *                 migration is applied, and this process's queue (pg-boss) is running when it has one
 *   GET /metrics  Prometheus text; with METRICS_TOKEN only for `Authorization: Bearer <token>`
 */
import fs from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import path from 'node:path'
import type pg from 'pg'
import { bearerMatches, METRICS_CONTENT_TYPE, renderMetrics } from './metrics.ts'

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '..', '..', '..', 'supabase', 'migrations')
/** A hung database must give a fast 503, well within a load balancer's probe timeout. */
const READINESS_TIMEOUT_MS = 2_000

export interface QueueState {
  running: boolean
}

export interface OpsOptions {
  /** The pool the readiness and queue queries use (the process's own). */
  pool: () => pg.Pool
  /** This process's queue, when it runs one. */
  queue?: () => QueueState | undefined
  /** /metrics here: `true` always (a private listener), a token to require, `false` never (404). */
  metrics: true | false | { token: string }
  timeoutMs?: number
  /** The migration versions shipped with this build (default: supabase/migrations). */
  migrations?: () => string[]
}

type Check = 'ok' | string
export interface Readiness {
  ready: boolean
  checks: { database: Check; migrations: Check; queue?: Check }
}

let shipped: string[] | undefined
function shippedMigrations(): string[] {
  shipped ??= fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((file) => file.endsWith('.sql'))
    .map((file) => file.split('_')[0]!)
    .sort()
  return shipped
}

export async function checkReadiness(options: Omit<OpsOptions, 'metrics'>): Promise<Readiness> {
  const timeoutMs = options.timeoutMs ?? READINESS_TIMEOUT_MS
  const checks: Readiness['checks'] = { database: 'ok', migrations: 'ok' }
  const queue = options.queue?.()
  if (queue) checks.queue = queue.running ? 'ok' : 'not running'
  try {
    const applied = await withTimeout(appliedMigrations(options.pool()), timeoutMs)
    const missing = (options.migrations ?? shippedMigrations)().filter((version) => !applied.has(version))
    if (missing.length) checks.migrations = `${missing.length} not applied (first: ${missing[0]})`
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    // 42883: the function is missing, so the migration that creates it (and those after) are not applied.
    if ((error as { code?: string }).code === '42883') checks.migrations = 'not applied (applied_migration_versions missing)'
    else {
      checks.database = `unreachable: ${message}`
      checks.migrations = 'unknown'
    }
  }
  return { ready: Object.values(checks).every((check) => check === 'ok'), checks }
}

async function appliedMigrations(pool: pg.Pool): Promise<Set<string>> {
  const { rows } = await pool.query<{ version: string }>('select public.applied_migration_versions() as version')
  return new Set(rows.map((row) => row.version))
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  // The query may still settle later: its rejection must not go unhandled.
  work.catch(() => {})
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

/** Answers /healthz, /readyz and /metrics; false for any other request (the caller goes on). */
export function answerOpsRequest(req: IncomingMessage, res: ServerResponse, options: OpsOptions): false | Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false
  const pathname = (req.url ?? '').split('?')[0]
  if (pathname === '/healthz') return Promise.resolve(send(res, 200, 'application/json', JSON.stringify({ status: 'ok' })))
  if (pathname === '/readyz') return answerReadiness(res, options)
  if (pathname === '/metrics' && options.metrics !== false) return answerMetrics(req, res, options)
  return false
}

/**
 * The check in flight for each server, shared by the /readyz requests that arrive meanwhile: unauthenticated probes,
 * however many, hold at most one of the pool's connections and never queue ahead of the app's own queries.
 */
const inFlight = new WeakMap<OpsOptions, Promise<Readiness>>()

function sharedReadiness(options: OpsOptions): Promise<Readiness> {
  let check = inFlight.get(options)
  if (!check) {
    check = checkReadiness(options).finally(() => inFlight.delete(options))
    inFlight.set(options, check)
  }
  return check
}

async function answerReadiness(res: ServerResponse, options: OpsOptions) {
  const { ready, checks } = await sharedReadiness(options)
  send(res, ready ? 200 : 503, 'application/json', JSON.stringify({ status: ready ? 'ready' : 'not_ready', checks }))
}

async function answerMetrics(req: IncomingMessage, res: ServerResponse, options: OpsOptions) {
  const { metrics } = options
  if (typeof metrics === 'object' && !bearerMatches(req.headers.authorization, metrics.token)) {
    res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"')
    send(res, 401, 'text/plain; charset=utf-8', 'Unauthorized\n')
    return
  }
  let pool: pg.Pool | undefined
  try {
    pool = options.pool()
  } catch {
    // No database configured in this process: the scrape has no queue gauges.
  }
  send(res, 200, METRICS_CONTENT_TYPE, await renderMetrics({ pool, timeoutMs: options.timeoutMs }))
}

function send(res: ServerResponse, status: number, type: string, body: string) {
  res.statusCode = status
  res.setHeader('Content-Type', type)
  res.setHeader('Cache-Control', 'no-store')
  res.end(body)
}
