// One free account's burst of commands must not slow other users down (issue 28, item 1): 20 parallel
// `POST /api/v1/exports/{id}/resume` from an account with 0 credits used to take the whole 10-connection pool (each
// resume held a connection and the export's row lock, then asked the pool for a second one to read the plan), and
// other users' requests went from ~30 ms to seconds, with 503s and 500s. Here, in one process with the app's own pool,
// another user's requests are timed quiet and then while the flood runs in waves. The resume limit is raised for this
// file so that every resume reaches the command: only the command's own discipline (one connection per command,
// a per-user share of the pool) protects the other user. bench/resume-flood.ts prints the same figures.
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { closeDb } from '#app/.server/db.ts'
import { API_ORIGIN, appFetch, createApiUser } from '#tests/support/api-client.ts'

let admin: pg.Pool
beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  process.env.LEADS_SOURCE = 'demo'
  process.env.RATE_LIMIT_API = '1000000/60'
  process.env.RATE_LIMIT_EXPORT_RESUME = '1000000/60'
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 })
})
afterAll(async () => {
  await admin.end()
  await closeDb()
})

const BREST = { sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest', lang: 'en' }

async function interruptedExport(userId: string): Promise<string> {
  const { rows } = await admin.query<{ id: string }>(
    `insert into public.exports (user_id, name, status, can_resume, search_status, enrichment_status, search_params, enrichment_options, country, region, department, city, business_types)
     values ($1, 'flood', 'interrupted', true, 'completed', 'pending', $2, '{"phone": true}', 'France', 'Bretagne', 'Finistère', 'Brest', '{shop-bakery}') returning id`,
    [userId, BREST],
  )
  return rows[0]!.id
}

const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]!

/** `count` requests of the other user, one after the other: their durations (every one must be a 200). */
async function timed(key: string, count: number): Promise<number[]> {
  const samples: number[] = []
  for (let i = 0; i < count; i++) {
    const start = performance.now()
    const response = await appFetch(`${API_ORIGIN}/api/v1/exports?limit=10`, { headers: { Authorization: `Bearer ${key}` } })
    await response.text()
    expect(response.status).toBe(200)
    samples.push(performance.now() - start)
  }
  return samples
}

test('20 parallel resumes from a free account with 0 credits leave another user within 3× their quiet p95, and answer no 5xx', { timeout: 120_000 }, async () => {
  const flooder = await createApiUser(admin, 0)
  const victim = await createApiUser(admin, 100)
  const exportId = await interruptedExport(flooder.user.id)
  await interruptedExport(victim.user.id)

  await timed(victim.key, 10) // warm-up
  const quiet = await timed(victim.key, 60)

  const statuses = new Map<number, number>()
  let running = true
  const resume = async () => {
    const response = await appFetch(`${API_ORIGIN}/api/v1/exports/${exportId}/resume`, { method: 'POST', headers: { Authorization: `Bearer ${flooder.key}` } })
    const type = response.headers.get('Content-Type') ?? ''
    await response.text()
    // Every answer a client can read: problem+json, never a text/plain 500.
    expect(type).toContain('json')
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
  }
  const flood = (async () => {
    let waves = 0
    while (running || waves === 0) {
      await Promise.all(Array.from({ length: 20 }, resume))
      waves++
    }
    return waves
  })()
  await new Promise((resolve) => setTimeout(resolve, 100)) // the first wave under way
  const during = await timed(victim.key, 60)
  running = false
  const waves = await flood

  const quietP95 = percentile(quiet, 95)
  const floodP95 = percentile(during, 95)
  console.info(`victim p50/p95 quiet ${percentile(quiet, 50).toFixed(1)}/${quietP95.toFixed(1)} ms, flood ${percentile(during, 50).toFixed(1)}/${floodP95.toFixed(1)} ms; ${waves} waves of 20 resumes: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(' ')}`)
  // Loose (the machine is shared): the issue's bound is 2×, measured in bench/resume-flood.ts.
  expect(floodP95).toBeLessThanOrEqual(3 * quietP95 + 50)
  // No credits: every resume is refused as such (402), none failed on the way.
  expect([...statuses.keys()]).toEqual([402])
  const { rows } = await admin.query('select status, can_resume from public.exports where id = $1', [exportId])
  expect(rows[0]).toEqual({ status: 'interrupted', can_resume: true })
})
