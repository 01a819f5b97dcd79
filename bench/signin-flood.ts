// Sign-in under a one-address flood (issue 18, item 2; ARCHITECTURE §9 "under a sign-in flood, page p95 at most
// 2× its quiet value"). Starts the production server (`npm start`'s stack in a temp DATA_DIR) behind one trusted
// proxy hop (TRUST_PROXY=1), so X-Forwarded-For stands for distinct clients on loopback. In the same run it measures,
// quiet and then while address A keeps 150 sign-ins in flight at once (each client posting again as soon as it is
// answered): GET /exports signed in, and the sign-in of a user on another address B. Twice: with the default limits
// (A is soon over its failed-sign-in limit), and with the limits raised so A is never refused by a count — only the
// per-address share of sign-ins and of the hashing then protects B.
//   npm run build && npx tsx bench/signin-flood.ts
import fs from 'node:fs'
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import { signUp, startServer, stopServer } from './lib/server.ts'
import { printTable } from './lib/table.ts'

const PAGE_SAMPLES = Number(process.env.BENCH_SAMPLES ?? 150)
const SIGNIN_SAMPLES = Number(process.env.BENCH_SIGNIN_SAMPLES ?? 40)
const BURST = Number(process.env.BENCH_BURST ?? 150)
const PASSWORD = 'bench-password-42'
const ADDRESS_A = '203.0.113.10'
const ADDRESS_B = '198.51.100.20'

/** Limits high enough that A is never refused by a count: every request it gets through costs a bcrypt hash. */
const RAISED: Record<string, string> = Object.fromEntries(
  ['RATE_LIMIT_SIGNIN_ACCOUNT', 'RATE_LIMIT_SIGNIN_IP', 'RATE_LIMIT_TOKEN_IP', 'RATE_LIMIT_SIGNUP_IP', 'RATE_LIMIT_SIGNUP_NETWORK', 'RATE_LIMIT_SIGNUP_GLOBAL'].map((name) => [
    name,
    '1000000/60',
  ]),
)

const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]!
const round = (ms: number) => Math.round(ms * 10) / 10
const summary = (samples: number[]) => ({ p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)) })

const signInPost = (url: string, address: string, email: string, password: string) =>
  fetch(`${url}/login`, {
    method: 'POST',
    headers: { Origin: url, 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': address },
    body: new URLSearchParams({ intent: 'signin', email, password, redirectTo: '/' }),
    redirect: 'manual',
  })

async function measurePage(url: string, cookie: string) {
  for (let i = 0; i < 10; i++) await fetch(`${url}/exports`, { headers: { Cookie: cookie } }).then((r) => r.text())
  const samples: number[] = []
  for (let i = 0; i < PAGE_SAMPLES; i++) {
    const start = performance.now()
    const response = await fetch(`${url}/exports`, { headers: { Cookie: cookie }, redirect: 'manual' })
    await response.text()
    if (response.status !== 200) throw new Error(`/exports answered ${response.status}`)
    samples.push(performance.now() - start)
  }
  return summary(samples)
}

/** B signs in again and again (the right password, from its own address): every one must succeed. */
async function measureSignIn(url: string, email: string) {
  const samples: number[] = []
  for (let i = 0; i < SIGNIN_SAMPLES; i++) {
    const start = performance.now()
    const response = await signInPost(url, ADDRESS_B, email, PASSWORD)
    await response.arrayBuffer()
    if (response.status !== 302) throw new Error(`B's sign-in answered ${response.status}`)
    samples.push(performance.now() - start)
  }
  return summary(samples)
}

/** BURST clients on address A post sign-ins (wrong passwords, real accounts) until stopped; returns their statuses. */
function flood(url: string, accounts: string[]) {
  let running = true
  const statuses = new Map<number, number>()
  let sent = 0
  const started = performance.now()
  const client = async (n: number) => {
    while (running) {
      sent++
      const status = await signInPost(url, ADDRESS_A, accounts[n % accounts.length]!, `wrong-password-${sent}`).then(
        async (r) => (await r.arrayBuffer(), r.status),
        () => 0,
      )
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
    }
  }
  const clients = Array.from({ length: BURST }, (_, n) => client(n))
  return async () => {
    running = false
    await Promise.all(clients)
    const seconds = (performance.now() - started) / 1000
    return { perSecond: Math.round(sent / seconds), statuses: [...statuses].sort().map(([s, n]) => `${s}×${n}`).join(' ') }
  }
}

async function scenario(label: string, env: Record<string, string>) {
  const server = await startServer({ env: { TRUST_PROXY: '1', ...env }, prefix: 'leadatlas-flood-' })
  try {
    const stamp = Date.now()
    const cookie = await signUp(server.url, `bench-${stamp}@example.com`, PASSWORD)
    const userB = `bench-b-${stamp}@example.com`
    await signUp(server.url, userB, PASSWORD)
    const accounts: string[] = []
    for (let i = 0; i < 10; i++) {
      accounts.push(`flood-${i}-${stamp}@example.com`)
      await signUp(server.url, accounts[i]!, PASSWORD)
    }
    const quietPage = await measurePage(server.url, cookie)
    const quietSignIn = await measureSignIn(server.url, userB)
    const stop = flood(server.url, accounts)
    await new Promise((resolve) => setTimeout(resolve, 3_000)) // the flood under way
    const floodPage = await measurePage(server.url, cookie)
    const floodSignIn = await measureSignIn(server.url, userB)
    const floodStats = await stop()
    return [
      [label, 'GET /exports', quietPage.p50, quietPage.p95, floodPage.p50, floodPage.p95, round(floodPage.p95 / quietPage.p95), floodStats.perSecond, floodStats.statuses],
      [label, "B's sign-in", quietSignIn.p50, quietSignIn.p95, floodSignIn.p50, floodSignIn.p95, round(floodSignIn.p95 / quietSignIn.p95), '', ''],
    ]
  } finally {
    await stopServer(server)
  }
}

if (!fs.existsSync('build/server/index.js')) throw new Error('Run `npm run build` first.')
console.log(
  `Address A keeps ${BURST} sign-ins in flight; measured: GET /exports signed in (${PAGE_SAMPLES} sequential), then address B's sign-in (${SIGNIN_SAMPLES} sequential); ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`,
)
const rows = [...(await scenario('default limits', {})), ...(await scenario('limits raised', RAISED))]
printTable(['scenario', 'measured', 'quiet p50', 'quiet p95', 'flood p50', 'flood p95', 'p95 × quiet', "A's req/s", "A's answers"], rows)
console.log(`load ${os.loadavg()[0]!.toFixed(1)} at the end`)
