// `npm run worker` with WORKER_HEALTH_PORT (issue 23, item 5): the standalone worker answers /healthz and /readyz
// (database, migrations, its own pg-boss) for orchestrators, /metrics only with the token, and logs JSON lines.
import { spawn } from 'node:child_process'
import path from 'node:path'
import getPort from 'get-port'
import { expect, inject, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '..', '..')

it('the standalone worker answers the probes on WORKER_HEALTH_PORT, and /metrics only with the token', { timeout: 90_000 }, async () => {
  const port = await getPort()
  const token = 'worker-metrics-token-0123456789'
  const environment: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !name.startsWith('VITEST')) environment[name] = value
  Object.assign(environment, {
    DATABASE_URL: inject('databaseUrl'),
    WORKER_HEALTH_PORT: String(port),
    METRICS_TOKEN: token,
    LEADS_SOURCE: 'demo',
    // Queues of its own: this worker must not take the jobs of the other suites sharing the database.
    EXPORT_QUEUE: `health-export-${process.pid}`,
    WEBHOOK_QUEUE: `health-webhook-${process.pid}`,
  })
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/worker.ts'], { cwd: ROOT, env: environment, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += String(chunk)))
  child.stderr.on('data', (chunk: Buffer) => (output += String(chunk)))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  try {
    const started = Date.now()
    while (!output.includes('Health at')) {
      if (child.exitCode !== null || Date.now() - started > 60_000) throw new Error(`the worker did not start:\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const base = `http://127.0.0.1:${port}`
    const health = await fetch(`${base}/healthz`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })
    const ready = await fetch(`${base}/readyz`)
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', queue: 'ok' } })
    expect(ready.status).toBe(200)
    expect((await fetch(`${base}/metrics`)).status).toBe(401)
    const metrics = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${token}` } })
    expect(metrics.status).toBe(200)
    const text = await metrics.text()
    expect(text).toContain('leadatlas_queue_jobs')
    expect(text).toMatch(/leadatlas_db_pool_connections\{state="total"\} [1-9]/)
    expect((await fetch(`${base}/`)).status).toBe(404)

    const lines = output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { component?: string; msg?: string })
    expect(lines.find((line) => line.msg?.includes('Worker started'))).toMatchObject({ component: 'worker' })
  } finally {
    child.kill('SIGTERM')
    const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 30_000))])
    if (!stopped) child.kill('SIGKILL')
  }
})
