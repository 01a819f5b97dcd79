// CRM push throughput (issue 30 item 6): each provider's adapter pushes leads to its local fake, which enforces the
// provider's documented limit in a rolling window and answers 429 past it; our budgets (fixed windows counted in
// Postgres, shared by every worker: app/.server/integrations/crm-http.ts) keep under it. Printed per provider: leads
// per second, requests per second against the documented limit (the baseline of the same run), and the 429s the fake
// had to answer. Pipedrive has no batch endpoint (a few calls per lead), so fewer leads by default.
//   npx tsx bench/crm.ts [--leads 10000] [--pipedrive 300]
import crypto, { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { createCrmHttp } from '#app/.server/integrations/crm-http.ts'
import { brevo } from '#app/.server/integrations/providers/brevo.ts'
import { hubspot } from '#app/.server/integrations/providers/hubspot.ts'
import { pipedrive } from '#app/.server/integrations/providers/pipedrive.ts'
import { sheets } from '#app/.server/integrations/providers/sheets.ts'
import type { CrmProviderModule } from '#app/.server/integrations/providers/types.ts'
import { createGlobalLimits } from '#app/.server/limits/global.ts'
import { CRM_FIELDS, toCrmRecord, type CrmMapping } from '#app/domain/crm.ts'
import { startFakeBrevo } from '#tests/support/crm-fakes/brevo.ts'
import { startFakeHubspot } from '#tests/support/crm-fakes/hubspot.ts'
import { FAKE_PIPEDRIVE_TOKEN, startFakePipedrive } from '#tests/support/crm-fakes/pipedrive.ts'
import { startFakeGoogle } from '#tests/support/crm-fakes/sheets.ts'
import { apiLead } from '#tests/support/crm-leads.ts'
import { startBenchDatabase } from './lib/database.ts'
import { printTable } from './lib/table.ts'

const { values } = parseArgs({ options: { leads: { type: 'string', default: '10000' }, pipedrive: { type: 'string', default: '300' } } })
const LEADS = Number(values.leads)
const PIPEDRIVE_LEADS = Number(values.pipedrive)

// Everything written: the bench measures writes, not the reads a fill-only-if-empty field adds.
const OVERWRITE = Object.fromEntries(CRM_FIELDS.map((field) => [field, 'overwrite'])) as CrmMapping

const lead = (index: number) => apiLead({ id: randomUUID(), name: `Boulangerie ${index}`, website: `https://boulangerie-${index}.example.fr`, emails: [`contact@boulangerie-${index}.example.fr`] })

interface Run {
  provider: string
  module: CrmProviderModule
  secret: string
  baseUrl: string
  tokenUrl?: string
  leads: number
  /** The documented limit, in requests per second. */
  limitPerSecond: number
  settings: Record<string, unknown>
  /** The fake's requests and 429s so far. */
  counts: () => { requests: number; throttled: number }
}

async function push(run: Run, pool: pg.Pool) {
  const limits = createGlobalLimits(pool)
  const limitKey = `bench:${run.provider}:${randomUUID()}`
  const adapter = run.module.create({
    secret: run.secret,
    baseUrl: run.baseUrl,
    ...(run.tokenUrl ? { tokenUrl: run.tokenUrl } : {}),
    http: (headers) => createCrmHttp({ baseUrl: run.baseUrl, headers, limitKey, budgets: run.module.budgets, account: 'bench', limits, maxWaitMs: 120_000 }),
  })
  const settings = await adapter.prepare(run.settings)
  const before = run.counts()
  const records = Array.from({ length: run.leads }, (_, index) => toCrmRecord(lead(index)))
  const started = performance.now()
  let created = 0
  for (let from = 0; from < records.length; from += adapter.batchSize) {
    const results = await adapter.upsert(records.slice(from, from + adapter.batchSize), OVERWRITE, settings)
    created += results.filter((row) => row.outcome === 'created').length
  }
  const seconds = (performance.now() - started) / 1000
  const after = run.counts()
  const requests = after.requests - before.requests
  return {
    provider: run.provider,
    leads: run.leads,
    created,
    seconds: Math.round(seconds * 10) / 10,
    leadsPerSecond: Math.round((run.leads / seconds) * 10) / 10,
    requestsPerSecond: Math.round((requests / seconds) * 100) / 100,
    limit: run.limitPerSecond,
    ofLimit: `${Math.round((requests / seconds / run.limitPerSecond) * 100)} %`,
    throttled: after.throttled - before.throttled,
  }
}

const database = await startBenchDatabase('leadatlas-bench-crm-')
const pool = new pg.Pool({ connectionString: database.url, max: 4 })
const hubspotFake = await startFakeHubspot({ token: 'pat-eu1-bench', limitPer10s: 100 })
const pipedriveFake = await startFakePipedrive({ burstPer2s: 20 })
const brevoKey = `xkeysib-${crypto.randomBytes(32).toString('hex')}-bench`
const brevoFake = await startFakeBrevo({ apiKey: brevoKey, limitPerSecond: 10 })
const google = await startFakeGoogle({ writesPerMinute: 60 })
const status429 = (requests: Array<{ status?: number }>) => requests.filter((request) => request.status === 429).length
const runs: Run[] = [
  {
    provider: 'HubSpot',
    module: hubspot,
    secret: 'pat-eu1-bench',
    baseUrl: hubspotFake.url,
    leads: LEADS,
    limitPerSecond: 10,
    settings: {},
    counts: () => ({ requests: hubspotFake.requests, throttled: hubspotFake.log.filter((entry) => entry.status === 429).length }),
  },
  {
    provider: 'Pipedrive',
    module: pipedrive,
    secret: FAKE_PIPEDRIVE_TOKEN,
    baseUrl: pipedriveFake.url,
    leads: PIPEDRIVE_LEADS,
    limitPerSecond: 10,
    settings: {},
    counts: () => ({ requests: pipedriveFake.requests, throttled: pipedriveFake.throttled }),
  },
  { provider: 'Brevo', module: brevo, secret: brevoKey, baseUrl: brevoFake.url, leads: LEADS, limitPerSecond: 10, settings: {}, counts: () => ({ requests: brevoFake.requests.length, throttled: status429(brevoFake.requests) }) },
  {
    provider: 'Google Sheets',
    module: sheets,
    secret: google.serviceAccount!,
    baseUrl: google.url,
    tokenUrl: google.tokenUrl,
    leads: LEADS,
    limitPerSecond: 1,
    settings: { spreadsheetId: google.spreadsheetId },
    counts: () => ({ requests: google.requests.length, throttled: status429(google.requests) }),
  },
]
try {
  const rows = []
  for (const run of runs) {
    console.log(`pushing ${run.leads} leads to ${run.provider}…`)
    rows.push(await push(run, pool))
  }
  console.log(`\nCRM push throughput against each provider's documented limit (fakes on loopback, budgets in Postgres):`)
  printTable(
    ['provider', 'leads', 'created', 's', 'leads/s', 'req/s', 'limit req/s', 'of limit', '429s'],
    rows.map((row) => [row.provider, row.leads, row.created, row.seconds, row.leadsPerSecond, row.requestsPerSecond, row.limit, row.ofLimit, row.throttled]),
  )
} finally {
  await Promise.all([hubspotFake.close(), pipedriveFake.close(), brevoFake.close(), google.close()])
  await pool.end()
  await database.stop()
}
