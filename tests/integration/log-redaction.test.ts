// Structured logs (issue 23, item 5) from the real app process (`server/start.ts --dev`): JSON lines with request and
// user ids, and neither the email address nor the password of a sign-up, a sign-in and a password reset in any of
// them. The same process answers the probes and the metrics on its port (token) and on METRICS_PORT.
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import getPort from 'get-port'
import { expect, it } from 'vitest'
import { cookieHeader } from '#tests/support/cookie-jar.ts'

const ROOT = path.resolve(import.meta.dirname, '..', '..')
const TOKEN = crypto.randomBytes(24).toString('base64url')

it('a sign-up, sign-in and password reset leave request and user ids in the logs, never the email or the password', { timeout: 180_000 }, async () => {
  const dataDir = path.join(ROOT, '.data', `log-redaction-${process.pid}`)
  fs.rmSync(dataDir, { recursive: true, force: true })
  const metricsPort = await getPort()
  const environment: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !name.startsWith('VITEST')) environment[name] = value
  Object.assign(environment, {
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    PORT: String(await getPort()),
    LEADS_SOURCE: 'demo',
    LOG_LEVEL: 'info',
    METRICS_TOKEN: TOKEN,
    METRICS_PORT: String(metricsPort),
  })
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts', '--dev'], { cwd: ROOT, env: environment, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const email = `Log.Test+${process.pid}@Example.com`
  const password = `pw-${crypto.randomBytes(9).toString('base64url')}-Zq9!`
  try {
    const appUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`start-up did not finish in time:\n${stdout}${stderr}`)), 120_000)
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += String(chunk)
        const running = /LeadAtlas is running at (http:\/\/[^\s"]+)/.exec(stdout)
        if (running) {
          clearTimeout(timer)
          resolve(running[1]!)
        }
      })
      child.stderr.on('data', (chunk: Buffer) => (stderr += String(chunk)))
      void exited.then((code) => reject(new Error(`start.ts exited (${code}):\n${stdout}${stderr}`)))
    })
    const origin = new URL(appUrl).origin
    const form = (fields: Record<string, string>) => ({
      method: 'POST',
      headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
      redirect: 'manual' as const,
    })

    const signUp = await fetch(`${appUrl}/login?mode=signup`, form({ intent: 'signup', email, password }))
    expect(signUp.status).toBe(302)
    const signedIn = await fetch(`${appUrl}/settings`, { headers: { Cookie: cookieHeader(signUp), 'X-Request-Id': 'probe-settings-1' } })
    expect(signedIn.status).toBe(200)
    expect(signedIn.headers.get('x-request-id')).toBe('probe-settings-1')

    const signIn = await fetch(`${appUrl}/login`, form({ intent: 'signin', email, password }))
    expect(signIn.status).toBe(302)
    // The address in a query string, and credentials in headers, as a careless client might send them.
    await fetch(`${appUrl}/login?email=${encodeURIComponent(email)}&mode=forgot`, { headers: { Authorization: `Bearer ${password}`, Cookie: cookieHeader(signIn) } })
    const forgot = await fetch(`${appUrl}/login?mode=forgot`, form({ intent: 'forgot', email }))
    expect(forgot.status).toBe(200)

    const mailboxUrl = /Local mailbox[^:]*: (http:\/\/[^\s"]+)/.exec(stdout)?.[1]
    expect(mailboxUrl).toBeTruthy()
    let link: string | null = null
    for (let attempt = 0; attempt < 50 && !link; attempt++) {
      const { messages } = (await (await fetch(`${mailboxUrl}/api/messages?to=${encodeURIComponent(email.toLowerCase())}`)).json()) as { messages: Array<{ link: string | null }> }
      link = messages[0]?.link ?? null
      if (!link) await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(link).toBeTruthy()
    const reset = await fetch(link!, { redirect: 'manual' })
    expect(reset.status).toBeLessThan(500)
    const secret = new URL(link!).searchParams.get('token_hash') ?? new URL(link!).searchParams.get('token')

    // The probes and metrics of the same process.
    expect((await fetch(`${appUrl}/healthz`)).status).toBe(200)
    const ready = await fetch(`${appUrl}/readyz`)
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', queue: 'ok' } })
    expect((await fetch(`${appUrl}/metrics`)).status).toBe(401)
    const metrics = await (await fetch(`${appUrl}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text()
    expect(metrics).toMatch(/leadatlas_http_request_duration_seconds_count\{method="POST",route="routes\/login",status="302"\} [1-9]/)
    expect(metrics).toMatch(/leadatlas_http_request_duration_seconds_count\{method="GET",route="routes\/settings",status="200"\} 1/)
    expect(metrics).toMatch(/leadatlas_queue_jobs|leadatlas_db_pool_connections\{state="total"\} [1-9]/)
    const separate = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    expect(separate.status).toBe(200)

    await new Promise((resolve) => setTimeout(resolve, 500))
    const output = stdout + stderr
    // Our lines are JSON objects; Vite (dev mode) may print its own plain lines on a first run.
    const lines = stdout.split('\n').filter((line) => line.startsWith('{'))
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown> & { req?: { url: string }; requestId?: string; userId?: string })
    expect(output).toContain('"msg":"[leadatlas] LeadAtlas is running at')
    for (const forbidden of [email, email.toLowerCase(), encodeURIComponent(email), encodeURIComponent(email.toLowerCase()), password, secret!, TOKEN]) {
      expect(output, `the logs must not contain ${forbidden}`).not.toContain(forbidden)
    }
    const settingsLine = entries.find((entry) => entry.requestId === 'probe-settings-1' && entry.req)
    expect(settingsLine).toMatchObject({ component: 'http', req: { method: 'GET', url: '/settings' }, res: { statusCode: 200 }, route: 'routes/settings' })
    expect(settingsLine?.userId).toMatch(/^[0-9a-f-]{36}$/)
    const queryLine = entries.find((entry) => entry.req?.url.startsWith('/login?email='))
    expect(queryLine?.req?.url).toBe('/login?email=%5Bemail%5D&mode=forgot')
    const resetLine = entries.find((entry) => entry.req?.url.startsWith('/reset-password'))
    expect(resetLine?.req?.url).toMatch(/token_hash=\[redacted\]|token=\[redacted\]/)
  } finally {
    child.kill('SIGTERM')
    const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 30_000))])
    if (!stopped) child.kill('SIGKILL')
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})
