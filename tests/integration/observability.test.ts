// Health, readiness and metrics (issue 23, item 5) through the real HTTP layer (server/http-app.ts) and the
// separate listener (ops-server.ts), against the test database, a closed port and a database that never answers.
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import pg from 'pg'
import { afterAll, describe, expect, inject, test } from 'vitest'
import { createLogger } from '#app/.server/observability/logger.ts'
import { countCrawlError, countLeadRecorded, renderMetrics } from '#app/.server/observability/metrics.ts'
import { parseEnv } from '#app/.server/env.server.ts'
import { createRateLimiter } from '#app/.server/rate-limiter.ts'
import { startOpsServer } from '#app/.server/observability/ops-server.ts'
import { noteRequestUser } from '#app/.server/observability/request-context.ts'
import { createHttpApp, type HttpAppOptions } from '#server/http-app.ts'
import { closedPortUrl } from '#tests/support/closed-port.ts'

const TOKEN = 'metrics-token-0123456789abcdef'
const pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 })
const closed = new URL(await closedPortUrl())
const deadPool = new pg.Pool({ connectionString: `postgres://nobody:nothing@127.0.0.1:${closed.port}/leadatlas`, max: 1 })
// A "database" that accepts connections and never says a word: the hung case.
const silentSockets = new Set<net.Socket>()
const silent = net.createServer((socket) => void silentSockets.add(socket))
await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
const hungPool = new pg.Pool({ connectionString: `postgres://nobody:nothing@127.0.0.1:${(silent.address() as AddressInfo).port}/leadatlas`, max: 1 })
afterAll(async () => {
  for (const socket of silentSockets) socket.destroy()
  silent.close()
  await Promise.all([pool.end(), deadPool.end().catch(() => {}), hungPool.end().catch(() => {})])
})

/** A logger writing its lines into `lines`. */
function capturingLogger(lines: string[]) {
  return createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean))
        done()
      },
    }),
  })
}

/** The HTTP layer with `ops`; a terminal middleware stands in for the app (by default it answers 404 "app"). */
async function serve(ops: HttpAppOptions['ops'], logLines: string[] = [], app404: HttpAppOptions['before'] = [(_req, res) => void res.status(404).type('text/plain').send('app')]) {
  const app = createHttpApp({
    mode: 'production',
    appUrl: 'http://127.0.0.1',
    build: () => Promise.reject(new Error('the app is not reached')),
    logger: capturingLogger(logLines),
    ops,
    before: app404,
  })
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, close: () => new Promise((resolve) => server.close(resolve)) }
}

async function timed(work: Promise<Response>) {
  const started = Date.now()
  const response = await work
  return { response, ms: Date.now() - started, body: await response.text() }
}

describe('/healthz and /readyz', () => {
  test('healthz: 200 {"status":"ok"}, not cached, no cookie, even with no database at all', async () => {
    const app = await serve({ pool: () => deadPool })
    try {
      const { response, body } = await timed(fetch(`${app.url}/healthz`))
      expect(response.status).toBe(200)
      expect(JSON.parse(body)).toEqual({ status: 'ok' })
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(response.headers.get('set-cookie')).toBeNull()
    } finally {
      await app.close()
    }
  })

  test('readyz: 200 when the database answers, every shipped migration is applied and the queue runs', async () => {
    const app = await serve({ pool: () => pool, queue: () => ({ running: true }) })
    try {
      const { response, body } = await timed(fetch(`${app.url}/readyz`))
      expect(JSON.parse(body)).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', queue: 'ok' } })
      expect(response.status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(response.headers.get('set-cookie')).toBeNull()
    } finally {
      await app.close()
    }
  })

  test('readyz: 503 naming the queue when this process’s pg-boss has stopped', async () => {
    const app = await serve({ pool: () => pool, queue: () => ({ running: false }) })
    try {
      const { response, body } = await timed(fetch(`${app.url}/readyz`))
      expect(response.status).toBe(503)
      expect(JSON.parse(body)).toMatchObject({ status: 'not_ready', checks: { database: 'ok', queue: 'not running' } })
    } finally {
      await app.close()
    }
  })

  test('readyz: 503 quickly when the database port is closed', async () => {
    const app = await serve({ pool: () => deadPool })
    try {
      const { response, body, ms } = await timed(fetch(`${app.url}/readyz`))
      expect(response.status).toBe(503)
      const answer = JSON.parse(body) as { status: string; checks: Record<string, string> }
      expect(answer.status).toBe('not_ready')
      expect(answer.checks.database).toMatch(/^unreachable: .*ECONNREFUSED/)
      expect(ms).toBeLessThan(2_500)
    } finally {
      await app.close()
    }
  })

  test('readyz: 503 within the 2 s bound when the database never answers', async () => {
    const app = await serve({ pool: () => hungPool })
    try {
      const { response, body, ms } = await timed(fetch(`${app.url}/readyz`))
      expect(response.status).toBe(503)
      expect(JSON.parse(body)).toMatchObject({ status: 'not_ready', checks: { database: 'unreachable: no answer within 2000 ms' } })
      expect(ms).toBeGreaterThanOrEqual(1_900)
      expect(ms).toBeLessThan(4_000)
    } finally {
      await app.close()
    }
  })
})

test('readyz: 503 naming the first migration this database lacks', async () => {
  const { checkReadiness } = await import('#app/.server/observability/health.ts')
  const readiness = await checkReadiness({ pool: () => pool, migrations: () => ['20200101000000', '29991231000000'] })
  expect(readiness).toEqual({ ready: false, checks: { database: 'ok', migrations: '2 not applied (first: 20200101000000)' } })
})

describe('/metrics', () => {
  test('on the app port: 404 (the app answers) when no METRICS_TOKEN is configured', async () => {
    const app = await serve({ pool: () => pool })
    try {
      const { response, body } = await timed(fetch(`${app.url}/metrics`))
      expect(response.status).toBe(404)
      expect(body).toBe('app')
    } finally {
      await app.close()
    }
  })

  test('on the app port with a token: 401 without it or with a wrong one, 200 with it (metric names present)', async () => {
    const app = await serve({ pool: () => pool, metricsToken: TOKEN })
    countCrawlError('timeout')
    try {
      for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
        const { response } = await timed(fetch(`${app.url}/metrics`, { headers: authorization ? { Authorization: authorization } : {} }))
        expect(response.status, String(authorization)).toBe(401)
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/)
      }
      // A page first, so its duration is in the histogram under its route (here: the stand-in app, "static").
      await fetch(`${app.url}/exports/0b7ae0c4-7f1c-4f57-9a53-3f7b1c8d2e10`)
      const { response, body } = await timed(fetch(`${app.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } }))
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
      expect(response.headers.get('cache-control')).toBe('no-store')
      for (const name of [
        'leadatlas_http_request_duration_seconds_bucket',
        'leadatlas_queue_jobs',
        'leadatlas_queue_oldest_job_age_seconds',
        'leadatlas_leads_enriched_total',
        'leadatlas_enrichment_outcomes_total',
        'leadatlas_crawl_errors_total{kind="timeout"}',
        'leadatlas_rate_limit_refusals_total',
        'leadatlas_webhook_deliveries_total',
        'leadatlas_db_pool_connections{state="total"}',
        'process_cpu_seconds_total',
        'nodejs_eventloop_lag_seconds',
      ]) {
        expect(body, name).toContain(name)
      }
      // Never the raw URL: ids would make a series per export.
      expect(body).not.toContain('0b7ae0c4')
      expect(body).not.toContain('leadatlas_metrics_scrape_errors_total 1')
    } finally {
      await app.close()
    }
  })

  test('on a separate listener (METRICS_PORT): served without a token, only the ops paths answer', async () => {
    const ops = await startOpsServer({ pool: () => pool, port: 0, host: '127.0.0.1', metrics: true })
    try {
      const metrics = await timed(fetch(`${ops.url}/metrics`))
      expect(metrics.response.status).toBe(200)
      expect(metrics.body).toContain('leadatlas_db_pool_connections')
      expect((await fetch(`${ops.url}/healthz`)).status).toBe(200)
      expect((await fetch(`${ops.url}/readyz`)).status).toBe(200)
      expect((await fetch(`${ops.url}/`)).status).toBe(404)
      expect((await fetch(`${ops.url}/login`)).status).toBe(404)
    } finally {
      await ops.stop()
    }
  })

  test('a separate listener with METRICS_TOKEN set still requires it', async () => {
    const ops = await startOpsServer({ pool: () => pool, port: 0, host: '127.0.0.1', metrics: { token: TOKEN } })
    try {
      expect((await fetch(`${ops.url}/metrics`)).status).toBe(401)
      expect((await fetch(`${ops.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(200)
    } finally {
      await ops.stop()
    }
  })

  test('a scrape stays fast when the database hangs: no queue gauges, the failure counted', async () => {
    const app = await serve({ pool: () => hungPool, metricsToken: TOKEN })
    try {
      const { response, body, ms } = await timed(fetch(`${app.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } }))
      expect(response.status).toBe(200)
      expect(ms).toBeLessThan(4_000)
      expect(body).toMatch(/leadatlas_metrics_scrape_errors_total [1-9]/)
    } finally {
      await app.close()
    }
  })
})

describe('request ids', () => {
  test('a well-formed X-Request-Id is echoed and logged; a malformed one is replaced by a fresh id', async () => {
    const lines: string[] = []
    const app = await serve({ pool: () => pool }, lines)
    try {
      const kept = await fetch(`${app.url}/somewhere`, { headers: { 'X-Request-Id': 'lb-7f3a.42:abc' } })
      expect(kept.headers.get('x-request-id')).toBe('lb-7f3a.42:abc')
      const replaced = await fetch(`${app.url}/somewhere`, { headers: { 'X-Request-Id': 'two words<script>' } })
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
      const none = await fetch(`${app.url}/somewhere`)
      const fresh = none.headers.get('x-request-id')
      expect(fresh).toMatch(/^[0-9a-f-]{36}$/)
      expect(fresh).not.toBe(replaced.headers.get('x-request-id'))
      await expect.poll(() => lines.length).toBeGreaterThanOrEqual(3)
      const logged = lines.map((line) => JSON.parse(line) as { requestId?: string; req?: { url: string }; res?: { statusCode: number } })
      expect(logged.map((line) => line.requestId)).toEqual(['lb-7f3a.42:abc', replaced.headers.get('x-request-id'), fresh])
      expect(logged[0]).toMatchObject({ level: 'info', msg: 'request completed', req: { method: 'GET', url: '/somewhere' }, res: { statusCode: 404 } })
    } finally {
      await app.close()
    }
  })

  test('lines the app writes while serving carry the request id and the user id it resolved, once each', async () => {
    const lines: string[] = []
    const appLog = capturingLogger(lines)
    const userId = '3f0c2b1e-0000-4000-8000-000000000001'
    const app = await serve({ pool: () => pool }, lines, [
      (_req, res) => {
        // What auth.ts does once the session is verified, then an app log line naming an address.
        setTimeout(() => {
          noteRequestUser(userId)
          appLog.info('export mailed to jean.dupont@example.com')
          res.status(200).send('ok')
        }, 5)
      },
    ])
    try {
      await fetch(`${app.url}/exports?notify=jean.dupont%40example.com`, { headers: { 'X-Request-Id': 'req-42' } })
      await expect.poll(() => lines.length).toBe(2)
      expect(JSON.parse(lines[0]!)).toMatchObject({ requestId: 'req-42', userId, msg: 'export mailed to [email]' })
      expect(JSON.parse(lines[1]!)).toMatchObject({ requestId: 'req-42', userId, req: { url: '/exports?notify=%5Bemail%5D' }, res: { statusCode: 200 } })
      for (const line of lines) {
        expect(line.match(/"requestId"/g)).toHaveLength(1)
        expect(line.match(/"userId"/g)).toHaveLength(1)
        expect(line).not.toContain('dupont')
      }
    } finally {
      await app.close()
    }
  })

  test('probes are not logged', async () => {
    const lines: string[] = []
    const app = await serve({ pool: () => pool }, lines)
    try {
      await fetch(`${app.url}/healthz`)
      await fetch(`${app.url}/readyz`)
      await fetch(`${app.url}/other`)
      await expect.poll(() => lines.length).toBe(1)
      expect(lines[0]).toContain('"/other"')
    } finally {
      await app.close()
    }
  })
})

test('refusals of a real rate limiter and recorded lead outcomes are counted under their labels', async () => {
  const limiter = createRateLimiter(pool, parseEnv({ RATE_LIMIT_PREVIEW: '2/3600' }), `metrics-${process.pid}-${Date.now()}`)
  const count = async () => Number(/leadatlas_rate_limit_refusals_total\{limiter="preview"\} (\d+)/.exec(await renderMetrics())?.[1] ?? 0)
  const before = await count()
  const outcomes = []
  for (let i = 0; i < 5; i++) outcomes.push((await limiter.consume('preview', 'user-1')).ok)
  expect(outcomes).toEqual([true, true, false, false, false])
  expect((await count()) - before).toBe(3)

  countLeadRecorded({ email: 'success', phone: 'not_found', website: undefined }, null)
  const text = await renderMetrics()
  expect(text).toMatch(/leadatlas_enrichment_outcomes_total\{type="email",outcome="success"\} [1-9]/)
  expect(text).toMatch(/leadatlas_enrichment_outcomes_total\{type="phone",outcome="not_found"\} [1-9]/)
  expect(text).not.toContain('type="website"')
  expect(text).toMatch(/leadatlas_leads_enriched_total [1-9]/)
})
