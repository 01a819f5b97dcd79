// Resume and add-enrichment have their own per-user limits (issue 28, item 1; RATE_LIMIT_EXPORT_RESUME and
// RATE_LIMIT_EXPORT_ENRICH, shared by the export page's forms, the JSON routes and /api/v1): a burst of them is
// refused with 429 and Retry-After before it reaches the command, and another user is not counted with it.
import pg from 'pg'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { closeDb } from '#app/.server/db.ts'
import { API_ORIGIN, appFetch, createApiUser } from '#tests/support/api-client.ts'

let admin: pg.Pool
beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  process.env.LEADS_SOURCE = 'demo'
  process.env.RATE_LIMIT_EXPORT_RESUME = '3/600'
  process.env.RATE_LIMIT_EXPORT_ENRICH = '2/600'
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 })
})
afterAll(async () => {
  await admin.end()
  await closeDb()
})

const BREST = { sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest', lang: 'en' }

async function insertExport(userId: string, status: 'interrupted' | 'completed'): Promise<string> {
  const { rows } = await admin.query<{ id: string }>(
    `insert into public.exports (user_id, name, status, can_resume, search_status, enrichment_status, search_params, enrichment_options, country, region, department, city, business_types)
     values ($1, 'limits', $2, $3, 'completed', 'completed', $4, '{"phone": true}', 'France', 'Bretagne', 'Finistère', 'Brest', '{shop-bakery}') returning id`,
    [userId, status, status === 'interrupted', BREST],
  )
  return rows[0]!.id
}

const post = (key: string, path: string, body?: object) =>
  appFetch(`${API_ORIGIN}/api/v1${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })

test('resumes are limited per user (429 with Retry-After past the limit), another user keeps their own count', async () => {
  const owner = await createApiUser(admin, 0)
  const other = await createApiUser(admin, 0)
  const exportId = await insertExport(owner.user.id, 'interrupted')
  const statuses = []
  for (let i = 0; i < 4; i++) statuses.push((await post(owner.key, `/exports/${exportId}/resume`)).status)
  expect(statuses).toEqual([402, 402, 402, 429])
  const refused = await post(owner.key, `/exports/${exportId}/resume`)
  expect(refused.status).toBe(429)
  expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
  expect(await refused.json()).toMatchObject({ code: 'rate_limited' })
  const otherExport = await insertExport(other.user.id, 'interrupted')
  expect((await post(other.key, `/exports/${otherExport}/resume`)).status).toBe(402)
})

test('add-enrichment commands are limited per user, apart from resumes', async () => {
  const owner = await createApiUser(admin, 0)
  const exportId = await insertExport(owner.user.id, 'completed')
  const statuses = []
  for (let i = 0; i < 3; i++) statuses.push((await post(owner.key, `/exports/${exportId}/enrichments`, { enrichments: ['website'] })).status)
  expect(statuses).toEqual([402, 402, 429])
  // Its own limit: resumes are still counted apart.
  const interrupted = await insertExport(owner.user.id, 'interrupted')
  expect((await post(owner.key, `/exports/${interrupted}/resume`)).status).toBe(402)
})
