// The production server (`npm start`'s embedded stack) in a temp DATA_DIR, for benchmarks that
// measure pages. Needs `npm run build` first.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import getPort from 'get-port'
import { embeddedUrl, passwordFile, readPassword, SUPERUSER } from '#server/postgres-secrets.ts'

export interface BenchServer {
  url: string
  /** The embedded Postgres, as its superuser (seeding bypasses RLS). */
  databaseUrl: string
  process: ChildProcess
  dataDir: string
}

export async function startServer({ env = {}, prefix = 'leadatlas-bench-' }: { env?: Record<string, string>; prefix?: string } = {}): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  fs.chmodSync(dataDir, 0o755)
  const port = await getPort()
  // BENCH_CPU_PROF_DIR=<dir>: the server writes a V8 CPU profile there when it stops (--cpu-prof is not allowed in NODE_OPTIONS).
  const child = spawn(process.execPath, [...(process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : []), '--import', 'tsx', 'server/start.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NODE_OPTIONS: '--max-semi-space-size=16',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      POSTGRES_PORT: String(await getPort()),
      // Sign-ups for the bench accounts come from one address.
      RATE_LIMIT_SIGNUP_IP: '1000/60',
      RATE_LIMIT_SIGNUP_NETWORK: '1000/60',
      RATE_LIMIT_SIGNUP_GLOBAL: '1000/60',
      // The demo's registry events import (~100 s of CPU at start-up, daily after) would be measured with the pages:
      // bench/registry-events.ts measures it on its own.
      REGISTRY_EVENTS_IMPORT: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  // start.ts logs "Embedded Postgres ready at postgres://leadatlas_app:***@127.0.0.1:PORT/leadatlas"; the
  // superuser's password is the one it generated in DATA_DIR.
  let databaseUrl = ''
  child.stdout!.setEncoding('utf8').on('data', (text: string) => {
    const found = /Embedded Postgres ready at postgres:\/\/\S+@127\.0\.0\.1:(\d+)\//.exec(text)
    if (found) databaseUrl = embeddedUrl({ user: SUPERUSER, password: readPassword(passwordFile(dataDir, 'superuser')), port: Number(found[1]) })
  })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
    const ok = await fetch(`${url}/login`).then((r) => r.ok, () => false)
    if (ok && databaseUrl) break
    if (i > 480) throw new Error('server did not start')
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  return { url, databaseUrl, process: child, dataDir }
}

export async function stopServer(server: BenchServer) {
  server.process.kill('SIGTERM')
  await new Promise((resolve) => server.process.once('exit', resolve))
  fs.rmSync(server.dataDir, { recursive: true, force: true })
}

function cookiesOf(response: Response): string {
  return response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ')
}

/** Creates an account through the sign-up form; returns its session cookies. */
export async function signUp(url: string, email: string, password = 'bench-password-42'): Promise<string> {
  const response = await fetch(`${url}/login?mode=signup`, {
    method: 'POST',
    headers: { Origin: url, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'signup', email, password }),
    redirect: 'manual',
  })
  if (response.status !== 302) throw new Error(`sign-up failed: ${response.status}`)
  return cookiesOf(response)
}
