// Public API latency (../shared/API.md): an export of 10 000 enriched leads read through
// `GET /api/v1/exports/{id}/leads?limit=1000` (first and last page), against the same export read through the UI's
// data route (`/exports/{id}.data`, what the browser fetches on a client navigation to the export page: 10 leads a
// page), in the same run, requests interleaved one at a time so a load spike hits measure and baseline alike.
// Starts the production server (`npm start`'s stack in a temp DATA_DIR), signs one user up, seeds the database
// directly and gives the user an API key. No timed assertion: figures only.
//   npm run build && npx tsx bench/api.ts        (BENCH_SAMPLES, default 100)
import fs from 'node:fs'
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { createApiKey } from '#app/.server/api-v1/keys.ts'
import { closeDb } from '#app/.server/db.ts'
import { loadApiLeadsPage } from '#app/.server/exports/api-leads.ts'
import { getExportDetail } from '#app/.server/exports/views.ts'
import { measureWebhookLatency, startBenchReceiver, WEBHOOK_LATENCY_HEADERS, webhookBenchEnv } from './api-webhooks.ts'
import { seedExports } from './lib/seed.ts'
import { signUp, startServer, stopServer } from './lib/server.ts'
import { printTable } from './lib/table.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100)
const LEADS = 10_000
const PAGE = 1000

const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]!
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits
const load = () => os.loadavg()[0]!.toFixed(1)

/** What an enrichment run records beside the values seedExports writes: email checks, phone pages, a registry match. */
async function addProvenance(db: pg.Pool, userId: string) {
  await db.query(
    `update public.leads set
       email_sources = jsonb_build_object(email[1], jsonb_build_object('page', website || '/contact', 'found_at', now(),
         'check', jsonb_build_object('status', case when review_count % 3 = 0 then 'risky' else 'valid' end, 'role', true, 'webmail', false))),
       phone_sources = jsonb_build_object(phone, jsonb_build_object('type', 'landline', 'page', null, 'rank', 0),
         '+33 6 12 34 56 78', jsonb_build_object('type', 'mobile', 'page', website || '/contact', 'rank', 1)),
       admin_fr_info = jsonb_build_object('confidence', 0.9, 'matched_by', 'siret', 'results', jsonb_build_array(jsonb_build_object(
         'siren', '552100554', 'nom_raison_sociale', upper(name), 'activite_principale', '10.71C', 'etat_administratif', 'A',
         'siege', jsonb_build_object('siret', '55210055400013'))))
     where user_id = $1`,
    [userId],
  )
  await db.query(`update public.export_leads set admin_fr_info_status = 'success' where user_id = $1`, [userId])
  await db.query('analyze public.leads; analyze public.export_leads')
}

/** p50/p95 of each read, called in turn one at a time (no HTTP: the query and the mapping only). */
async function measureInProcess(reads: Array<[string, () => Promise<unknown>]>) {
  for (let i = 0; i < 5; i++) for (const [, read] of reads) await read()
  const samples = reads.map(() => [] as number[])
  for (let i = 0; i < SAMPLES; i++) {
    for (const [index, [, read]] of reads.entries()) {
      const start = performance.now()
      await read()
      samples[index]!.push(performance.now() - start)
    }
  }
  return reads.map(([label], index) => [label, round(percentile(samples[index]!, 50)), round(percentile(samples[index]!, 95))])
}

interface Target {
  label: string
  url: string
  headers: Record<string, string>
}

async function get({ url, headers }: Target): Promise<{ bytes: number; body: string }> {
  const response = await fetch(url, { headers: { ...headers, 'Accept-Encoding': 'identity' }, redirect: 'manual' })
  const body = await response.text()
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${body.slice(0, 200)}`)
  return { bytes: Buffer.byteLength(body), body }
}

/** The cursor of the last page: the API's own next_cursor after paging through all but the last page. */
async function lastPageCursor(base: string, headers: Record<string, string>): Promise<string> {
  let cursor: string | null = null
  for (let page = 1; page < LEADS / PAGE; page++) {
    const query: string = cursor ? `&cursor=${cursor}` : ''
    const { body } = await get({ label: '', url: `${base}?limit=${PAGE}${query}`, headers })
    cursor = (JSON.parse(body) as { next_cursor: string | null }).next_cursor
    if (!cursor) throw new Error('the export ended early')
  }
  return cursor!
}

/** User + system CPU milliseconds the app server process has used (Linux /proc; clock ticks of 10 ms). */
function serverCpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** p50/p95 of each target, round-robin one request at a time; then each target's server CPU in a block of its own. */
async function measure(targets: Target[], pid: number) {
  for (let i = 0; i < 5; i++) for (const target of targets) await get(target)
  const samples = targets.map(() => [] as number[])
  const bytes = targets.map(() => 0)
  for (let i = 0; i < SAMPLES; i++) {
    for (const [index, target] of targets.entries()) {
      const start = performance.now()
      bytes[index] = (await get(target)).bytes
      samples[index]!.push(performance.now() - start)
    }
  }
  const cpu: number[] = []
  for (const target of targets) {
    const before = serverCpuMs(pid)
    for (let i = 0; i < SAMPLES; i++) await get(target)
    cpu.push(round((serverCpuMs(pid) - before) / SAMPLES))
  }
  return targets.map((target, index) => [target.label, round(percentile(samples[index]!, 50)), round(percentile(samples[index]!, 95)), cpu[index], round(bytes[index]! / 1024)])
}

if (!fs.existsSync('build/server/index.js')) throw new Error('Run `npm run build` first.')
console.log(`API latency: ${SAMPLES} sequential requests per target, interleaved; ${os.cpus().length} cores, load ${load()}`)
// The per-key limit (RATE_LIMIT_API) still meters every request; it is only raised above the bench's count.
// The webhook receiver listens before the server starts, so the server may deliver to it (WEBHOOK_ALLOW_HOSTS).
const webhookReceiver = await startBenchReceiver()
const server = await startServer({ prefix: 'leadatlas-api-', env: { RATE_LIMIT_API: '1000000/60', ...webhookBenchEnv(webhookReceiver) } })
const db = new pg.Pool({ connectionString: server.databaseUrl, max: 2 })
try {
  const email = `api-${Date.now()}@example.com`
  const cookie = await signUp(server.url, email)
  const seedStart = performance.now()
  const { userId, exportId } = await seedExports(db, email, 1, LEADS)
  await addProvenance(db, userId)
  // The app's modules in this process too, on the bench's database (as its superuser: withUser still switches to the
  // `authenticated` role, so row-level security applies as in the server).
  process.env.DATABASE_URL = server.databaseUrl
  const sessionUser = personalSession(userId, email)
  // Created as /settings/api creates one (app/.server/api-v1/keys.ts).
  const created = await createApiKey(sessionUser, 'bench')
  if (!created) throw new Error('the bench account could not get an API key')
  const apiKey = created.key
  console.log(`seeded ${LEADS} leads in ${round((performance.now() - seedStart) / 1000)} s; load ${load()}`)

  const api = { Authorization: `Bearer ${apiKey}` }
  const ui = { Cookie: cookie }
  const leadsUrl = `${server.url}/api/v1/exports/${exportId}/leads`
  const lastCursor = await lastPageCursor(leadsUrl, api)
  const rows = await measure(
    [
      { label: `API leads, limit=${PAGE}, page 1`, url: `${leadsUrl}?limit=${PAGE}`, headers: api },
      { label: `API leads, limit=${PAGE}, last page (cursor)`, url: `${leadsUrl}?limit=${PAGE}&cursor=${lastCursor}`, headers: api },
      { label: 'API leads, limit=10, page 1', url: `${leadsUrl}?limit=10`, headers: api },
      { label: 'UI data route, page 1 (10 leads, baseline)', url: `${server.url}/exports/${exportId}.data`, headers: ui },
      { label: 'UI data route, last page (baseline)', url: `${server.url}/exports/${exportId}.data?page=${LEADS / 10}`, headers: ui },
    ],
    server.process.pid!,
  )
  console.log(`\nExport of ${LEADS} leads, all six enrichments, over HTTP (load ${load()})`)
  printTable(['request', 'p50 ms', 'p95 ms', 'server CPU ms/request', 'KB'], rows)

  const inProcess = await measureInProcess([
    [`loadApiLeadsPage, limit=${PAGE}, page 1`, () => loadApiLeadsPage(sessionUser.claims, exportId, { limit: PAGE })],
    [`loadApiLeadsPage, limit=${PAGE}, verified emails only`, () => loadApiLeadsPage(sessionUser.claims, exportId, { limit: PAGE, verifiedEmailsOnly: true })],
    ['getExportDetail, page 1 (the export page, 10 leads, baseline)', () => getExportDetail(sessionUser, exportId, 1)],
  ])
  console.log(`\nThe same reads in this process, query and mapping only (load ${load()})`)
  printTable(['read', 'p50 ms', 'p95 ms'], inProcess)

  // ---------------------------------------------------------------------------------------------------------------
  // WEBHOOK LATENCY: export completion (commit) → the receiver, through this server's worker (bench/api-webhooks.ts).
  const webhookRows = await measureWebhookLatency({ db, user: sessionUser, receiver: webhookReceiver, samples: Math.min(SAMPLES, 40) })
  console.log(`\nWebhook delivery latency, export completed → receiver (load ${load()})`)
  printTable(WEBHOOK_LATENCY_HEADERS, webhookRows)
  // ---------------------------------------------------------------------------------------------------------------
} finally {
  await closeDb()
  await db.end()
  await stopServer(server)
  await webhookReceiver.close()
}
