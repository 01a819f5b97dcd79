// Page latency under a sign-in flood (issue: hardening; ARCHITECTURE §9 "under a sign-in flood,
// page p95 at most 2× its quiet value"). Starts the production server (`npm start`'s stack in a
// temp DATA_DIR), signs a user in, and measures GET /exports quiet, then while concurrent
// clients flood POST /login — once with the default rate limits, once with the limits raised so
// every flood request really hashes a password (the worst case for the event loop).
//   npm run build && npx tsx bench/signin-flood.ts
import fs from 'node:fs'
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import { signUp, startServer, stopServer } from './lib/server.ts'
import { printTable } from './lib/table.ts'

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200)
const FLOOD_CLIENTS = Number(process.env.BENCH_FLOOD_CLIENTS ?? 24)
const FLOOD_ACCOUNTS = 12
const PASSWORD = 'bench-password-42'

/** Rate limits high enough that the flood is never refused: every request costs a bcrypt hash. */
const UNLIMITED: Record<string, string> = Object.fromEntries(
  ['RATE_LIMIT_SIGNIN_ACCOUNT', 'RATE_LIMIT_SIGNIN_IP', 'RATE_LIMIT_SIGNUP_IP', 'RATE_LIMIT_SIGNUP_NETWORK', 'RATE_LIMIT_SIGNUP_GLOBAL', 'RATE_LIMIT_TOKEN_IP'].map((name) => [name, '1000000/60']),
)

const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]!
const round = (ms: number) => Math.round(ms * 10) / 10

async function measurePage(url: string, cookie: string) {
  for (let i = 0; i < 10; i++) await fetch(`${url}/exports`, { headers: { Cookie: cookie } }).then((r) => r.text())
  const samples: number[] = []
  for (let i = 0; i < SAMPLES; i++) {
    const start = performance.now()
    const response = await fetch(`${url}/exports`, { headers: { Cookie: cookie }, redirect: 'manual' })
    await response.text()
    if (response.status !== 200) throw new Error(`/exports answered ${response.status}`)
    samples.push(performance.now() - start)
  }
  return { p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)) }
}

/** Flood clients post sign-ins (right and wrong passwords) until stopped; returns their statuses. */
function flood(url: string, accounts: string[]) {
  let running = true
  const statuses = new Map<number, number>()
  let sent = 0
  const started = performance.now()
  const client = async (n: number) => {
    while (running) {
      const email = accounts[(n + sent) % accounts.length]!
      const password = sent % 3 === 0 ? 'wrong-password' : PASSWORD
      sent++
      const status = await fetch(`${url}/login`, {
        method: 'POST',
        headers: { Origin: url, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ intent: 'signin', email, password, redirectTo: '/' }),
        redirect: 'manual',
      }).then(
        async (r) => (await r.arrayBuffer(), r.status),
        () => 0,
      )
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
    }
  }
  const clients = Array.from({ length: FLOOD_CLIENTS }, (_, n) => client(n))
  return async () => {
    running = false
    await Promise.all(clients)
    const seconds = (performance.now() - started) / 1000
    return { perSecond: Math.round(sent / seconds), statuses: [...statuses].sort().map(([s, n]) => `${s}×${n}`).join(' ') }
  }
}

async function scenario(label: string, env: Record<string, string>) {
  const server = await startServer({ env, prefix: 'leadatlas-flood-' })
  try {
    const cookie = await signUp(server.url, `bench-${Date.now()}@example.com`, PASSWORD)
    const accounts: string[] = []
    for (let i = 0; i < FLOOD_ACCOUNTS; i++) {
      const email = `flood-${i}-${Date.now()}@example.com`
      await signUp(server.url, email, PASSWORD)
      accounts.push(email)
    }
    const quiet = await measurePage(server.url, cookie)
    const stop = flood(server.url, accounts)
    // Let the flood run long enough for the default per-IP limit (30 failures) to start refusing it.
    await new Promise((resolve) => setTimeout(resolve, 10_000))
    const loaded = await measurePage(server.url, cookie)
    const floodStats = await stop()
    return [
      [`${label}: quiet`, quiet.p50, quiet.p95, '-', '-', '-'],
      [`${label}: during flood`, loaded.p50, loaded.p95, round(loaded.p95 / quiet.p95), floodStats.perSecond, floodStats.statuses],
    ]
  } finally {
    await stopServer(server)
  }
}

if (!fs.existsSync('build/server/index.js')) throw new Error('Run `npm run build` first.')
console.log(`GET /exports (signed in), ${SAMPLES} sequential requests; flood: ${FLOOD_CLIENTS} concurrent clients posting sign-ins over ${FLOOD_ACCOUNTS} accounts; ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`)
const rows = [...(await scenario('default rate limits', {})), ...(await scenario('limits raised (every request hashes)', UNLIMITED))]
printTable(['scenario', 'p50 ms', 'p95 ms', 'p95 × quiet', 'flood req/s', 'flood statuses'], rows)
