// Every door that creates an export from a form (search page, /companies, "Run now") counts it against the same
// per-user budget as the API (RATE_LIMIT_EXPORT_CREATE) inside the command: a refused command (plan, credits) gives its
// point back, and a replay of a known idempotency key is answered even past the budget (issue 28, item 8).
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { closeDb } from '#app/.server/db.ts'
import { createExportWithinBudget } from '#app/.server/exports/service.ts'
import { NO_ENRICHMENT } from '#app/domain/enrichment.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

let admin: pg.Pool
beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  process.env.LEADS_SOURCE = 'demo'
  process.env.RATE_LIMIT_EXPORT_CREATE = '2/600'
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 })
})
afterAll(async () => {
  await admin.end()
  await closeDb()
})

async function createUser(credits: number): Promise<SessionUser> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@example.test`, {}])
  await admin.query(`select public.apply_credit_change($1, $2 - (select remaining_credits from public.user_credits where user_id = $1), 'adjustment', $3)`, [id, credits, `test:${randomUUID()}`])
  return personalSession(id, `${id}@example.test`)
}

const BREST = { sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest' }
// A free trial exports a city at most: the whole country is refused by the plan.
const FRANCE = { sector: 'shop-bakery', country: 'France', region: '', department: '', city: '' }

const create = (user: SessionUser, criteria: typeof BREST, idempotencyKey = randomUUID()) =>
  createExportWithinBudget({ user: { ...user }, name: 'Budget', criteria, enrichmentOptions: { ...NO_ENRICHMENT, phone: true }, idempotencyKey, lang: 'en' })

test('refusals by the plan or the credits do not spend the budget; exports made do, up to the limit', async () => {
  const user = await createUser(0)
  for (let i = 0; i < 3; i++) {
    const refusedByPlan = await create(user, FRANCE)
    expect(refusedByPlan).toMatchObject({ result: { ok: false, code: 'plan_restricted' } })
  }
  expect(await create(user, BREST)).toMatchObject({ result: { ok: false, code: 'insufficient_credits' } })
  await admin.query(`select public.apply_credit_change($1, 50, 'adjustment', $2)`, [user.id, `test:${randomUUID()}`])
  expect(await create(user, BREST)).toMatchObject({ result: { ok: true, duplicate: false } })
  expect(await create(user, BREST)).toMatchObject({ result: { ok: true, duplicate: false } })
  const third = await create(user, BREST)
  expect(third.refused).toMatchObject({ ok: false, retryAfterSeconds: expect.any(Number) })
  expect(Number(await count(user.id))).toBe(2)
})

test('a replay of a known key is answered past the budget with the export it made', async () => {
  const user = await createUser(50)
  const key = randomUUID()
  const first = await create(user, BREST, key)
  if (first.refused || !first.result.ok) throw new Error('the first export should be made')
  await create(user, BREST)
  expect((await create(user, BREST)).refused).toBeDefined()
  const replay = await create(user, BREST, key)
  expect(replay.refused).toBeUndefined()
  expect(replay).toMatchObject({ result: { ok: true, duplicate: true, exportId: first.result.exportId } })
})

async function count(userId: string) {
  const { rows } = await admin.query<{ n: string }>('select count(*) as n from public.exports where user_id = $1', [userId])
  return rows[0]!.n
}
