// A free account's resume flood against other users' pages (issue 28, item 1). Starts the production server
// (`npm start`'s stack in a temp DATA_DIR), signs up a victim and a free account whose credits are set to 0, gives the
// latter an interrupted export, and in the same run measures the victim's GET /exports quiet, then while the free
// account keeps 20 `POST /api/exports/resume` in flight (each client posting again as soon as it is answered). Twice:
// with the default limits (RATE_LIMIT_EXPORT_RESUME=10/600 refuses all but 10 of them, after a pause, before they touch
// the database), and with the resume limit raised so that every resume reaches the command.
//   npm run build && npx tsx bench/resume-flood.ts
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { signUp, startServer, stopServer } from './lib/server.ts'
import { printTable } from './lib/table.ts'

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 150)
const BURST = Number(process.env.BENCH_BURST ?? 20)

const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]!
const round = (ms: number) => Math.round(ms * 10) / 10
const summary = (samples: number[]) => ({ p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)) })

async function measurePage(url: string, cookie: string) {
  for (let i = 0; i < 10; i++) await fetch(`${url}/exports`, { headers: { Cookie: cookie } }).then((r) => r.text())
  const samples: number[] = []
  const statuses = new Map<number, number>()
  for (let i = 0; i < SAMPLES; i++) {
    const start = performance.now()
    const response = await fetch(`${url}/exports`, { headers: { Cookie: cookie }, redirect: 'manual' })
    await response.text()
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
    samples.push(performance.now() - start)
  }
  return { ...summary(samples), statuses: [...statuses].map(([s, n]) => `${s}×${n}`).join(' ') }
}

function flood(url: string, cookie: string, userId: string, exportId: string) {
  let running = true
  const statuses = new Map<string, number>()
  let sent = 0
  const started = performance.now()
  const client = async () => {
    while (running) {
      sent++
      const status = await fetch(`${url}/api/exports/resume`, {
        method: 'POST',
        headers: { Cookie: cookie, Origin: url, 'Content-Type': 'application/json' },
        body: JSON.stringify({ exportId, userId }),
      }).then(
        async (r) => (await r.arrayBuffer(), `${r.status}${(r.headers.get('Content-Type') ?? '').includes('json') ? '' : ' (not JSON)'}`),
        () => 'network error',
      )
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
    }
  }
  const clients = Array.from({ length: BURST }, client)
  return async () => {
    running = false
    await Promise.all(clients)
    return { perSecond: Math.round(sent / ((performance.now() - started) / 1000)), statuses: [...statuses].sort().map(([s, n]) => `${s}×${n}`).join(' ') }
  }
}

async function scenario(label: string, env: Record<string, string>) {
  const server = await startServer({ env, prefix: 'leadatlas-resume-flood-' })
  const admin = new pg.Pool({ connectionString: server.databaseUrl, max: 2 })
  try {
    const stamp = Date.now()
    const victim = await signUp(server.url, `victim-${stamp}@example.com`)
    const freeEmail = `free-${stamp}@example.com`
    const free = await signUp(server.url, freeEmail)
    const { rows } = await admin.query<{ id: string }>('select id from auth.users where email = $1', [freeEmail])
    const userId = rows[0]!.id
    const { rows: credits } = await admin.query<{ remaining_credits: number }>('select remaining_credits from public.user_credits where user_id = $1', [userId])
    await admin.query(`select public.apply_credit_change($1, $2, 'adjustment', $3)`, [userId, -credits[0]!.remaining_credits, `bench:${stamp}`])
    const { rows: created } = await admin.query<{ id: string }>(
      `insert into public.exports (user_id, name, status, can_resume, search_status, enrichment_status, search_params, enrichment_options, country, region, department, city, business_types)
       values ($1, 'flood', 'interrupted', true, 'completed', 'pending', $2, '{"phone": true}', 'France', 'Bretagne', 'Finistère', 'Brest', '{shop-bakery}') returning id`,
      [userId, { sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest', lang: 'en' }],
    )
    const quiet = await measurePage(server.url, victim)
    const stop = flood(server.url, free, userId, created[0]!.id)
    await new Promise((resolve) => setTimeout(resolve, 1_000)) // the flood under way
    const during = await measurePage(server.url, victim)
    const floodStats = await stop()
    return [label, quiet.p50, quiet.p95, during.p50, during.p95, round(during.p95 / quiet.p95), during.statuses, floodStats.perSecond, floodStats.statuses]
  } finally {
    await admin.end()
    await stopServer(server)
  }
}

const rows = [await scenario('default limits', {}), await scenario('resume limit raised', { RATE_LIMIT_EXPORT_RESUME: '1000000/60' })]
printTable(['GET /exports of another user', 'quiet p50', 'quiet p95', 'flood p50', 'flood p95', 'p95 ratio', 'victim statuses (flood)', 'resumes/s', 'resume answers'], rows)
