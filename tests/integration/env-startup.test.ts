import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { expect, it } from 'vitest'
import { closedPortUrl } from '#tests/support/closed-port.ts'
import { cookieHeader } from '#tests/support/cookie-jar.ts'

const ROOT = path.resolve(import.meta.dirname, '..', '..')

/** Runs `server/start.ts` with `extra` in its environment; resolves with its exit code and output. */
function start(extra: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: path.join(ROOT, '.data', `env-startup-${process.pid}`), ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += String(chunk)))
    child.stderr.on('data', (chunk) => (output += String(chunk)))
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    child.on('error', reject)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

it('npm start stops at once, naming the variable, when a setting is invalid', async () => {
  const { code, output } = await start({ EXPORT_CONCURRENCY: 'many' })
  expect(code).not.toBe(0)
  expect(output).toContain('Invalid environment variable EXPORT_CONCURRENCY: expected a number')
  // Nothing was started before the check.
  expect(output).not.toContain('Embedded Postgres ready')
}, 60_000)

it('npm start refuses TRUST_PROXY=true (any client could choose its IP), naming the variable', async () => {
  const { code, output } = await start({ TRUST_PROXY: 'true' })
  expect(code).not.toBe(0)
  expect(output).toContain('[leadatlas] failed to start: Invalid environment variable TRUST_PROXY: expected a hop count')
  expect(output).not.toContain('Embedded Postgres ready')
}, 60_000)

it('npm start refuses a hop count above the real proxies (TRUST_PROXY=999: any client could choose its IP), saying why', async () => {
  const { code, output } = await start({ TRUST_PROXY: '999' })
  expect(code).not.toBe(0)
  expect(output).toContain('[leadatlas] failed to start: Invalid environment variable TRUST_PROXY: expected a hop count from 1 to 5, got 999')
  expect(output).toContain('so any client could choose its IP')
  expect(output).not.toContain('Embedded Postgres ready')
}, 60_000)

it('LEADS_SOURCE=auto with Overpass and the registry unreachable: starts on demo data, logs why and shows the banner', async () => {
  const closed = await closedPortUrl()
  const dataDir = path.join(ROOT, '.data', `env-startup-auto-${process.pid}`)
  fs.rmSync(dataDir, { recursive: true, force: true })
  const environment: Record<string, string> = {}
  // The child is the app, not a test: no Vitest variables, and dev mode (no build needed) with its own NODE_ENV.
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !name.startsWith('VITEST')) environment[name] = value
  Object.assign(environment, {
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    PORT: '3390',
    LEADS_SOURCE: 'auto',
    OVERPASS_URL: `${closed}/api/interpreter`,
    REGISTRY_URL: closed,
    SOURCE_PROBE_TIMEOUT_MS: '3000',
  })
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts', '--dev'], { cwd: ROOT, env: environment, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  try {
    const appUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`start-up did not finish in time:\n${output}`)), 90_000)
      const read = (chunk: Buffer) => {
        output += String(chunk)
        const running = /LeadAtlas is running at (http:\/\/[^\s"]+)/.exec(output)
        if (running) {
          clearTimeout(timer)
          resolve(running[1]!)
        }
      }
      child.stdout.on('data', read)
      child.stderr.on('data', read)
      void exited.then((code) => reject(new Error(`start.ts exited (${code}):\n${output}`)))
    })

    // One line says which source was picked and why; the demo servers started in its place.
    expect(output).toContain(
      `[leadatlas] Lead source: demo data (LEADS_SOURCE=auto: OpenStreetMap could not be reached at ${closed}/api/interpreter: connection refused); registry: the local demo registry (${closed} could not be reached: connection refused)`,
    )
    expect(output).toMatch(/Demo websites \(demo data\) at http:\/\/127\.0\.0\.1:\d+/)
    expect(output).toMatch(/Demo registry \(demo data\) at http:\/\/127\.0\.0\.1:\d+/)

    // A new user's search page carries the banner.
    const signUp = await fetch(`${appUrl}/login?mode=signup`, {
      method: 'POST',
      headers: { Origin: new URL(appUrl).origin, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'signup', email: `auto-${process.pid}@example.com`, password: 'correct-horse-42' }),
      redirect: 'manual',
    })
    expect(signUp.status).toBe(302)
    const page = await fetch(`${appUrl}/`, { headers: { Cookie: cookieHeader(signUp), 'Accept-Language': 'en' } })
    expect(page.status).toBe(200)
    const html = await page.text()
    const notice = /<div id="source-notice"[^>]*>.*?<\/div><\/div>/s.exec(html)?.[0]
    expect(notice).toContain('role="status"')
    expect(notice?.replace(/<[^>]+>|<!-- -->/g, '')).toBe(
      "Demo data — OpenStreetMap could not be reached. These sample businesses are generated for demonstration: they are not real companies, so don&#x27;t contact them.",
    )
  } finally {
    child.kill('SIGTERM')
    // Embedded Postgres stops with it: wait for a clean exit before removing its data.
    const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 30_000))])
    if (!stopped) child.kill('SIGKILL')
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}, 150_000)
