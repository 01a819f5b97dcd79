// The plan's location rules and the credit rule hold on the server for every export command,
// whatever the client posts (a free-trial user once exported all of France by posting the form).
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { closeDb } from '#app/.server/db.ts'
import { addEnrichment, createExport, resumeExport } from '#app/.server/exports/service.ts'
import { NO_ENRICHMENT } from '#app/domain/enrichment.ts'
import type { PaidPlanId } from '#app/domain/plans.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

let admin: pg.Pool
beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
})
afterAll(async () => {
  await admin.end()
  await closeDb()
})

async function createUser({ plan, credits }: { plan?: PaidPlanId; credits?: number } = {}): Promise<SessionUser> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@example.test`, {}])
  if (plan) {
    await admin.query(
      `insert into public.user_subscriptions (user_id, plan_id, status, frequency, current_period_end) values ($1, $2, 'active', 'monthly', now() + interval '20 days')`,
      [id, plan],
    )
  }
  if (credits !== undefined) {
    await admin.query(`select public.apply_credit_change($1, $2 - (select remaining_credits from public.user_credits where user_id = $1), 'adjustment', $3)`, [id, credits, `test:${randomUUID()}`])
  }
  // A fresh object per call: the credits summary is cached per SessionUser (one request).
  return personalSession(id, `${id}@example.test`)
}

const fresh = (user: SessionUser): SessionUser => ({ ...user })
const EMAIL = { ...NO_ENRICHMENT, email: true }
const FRANCE = { sector: 'shop-bakery', country: 'France', region: '', department: '', city: '' }
const BRETAGNE = { ...FRANCE, region: 'Bretagne' }
const FINISTERE = { ...BRETAGNE, department: 'Finistère' }

async function exportCount(userId: string) {
  const { rows } = await admin.query<{ n: number }>('select count(*)::int as n from public.exports where user_id = $1', [userId])
  return rows[0]!.n
}

const create = (user: SessionUser, criteria: typeof FRANCE) => createExport({ user: fresh(user), name: 'Test', criteria, enrichmentOptions: EMAIL, idempotencyKey: randomUUID(), lang: 'fr' })

describe('export creation', () => {
  test('a free-trial user posting all of France directly is refused with the plan message, and nothing is created', async () => {
    const user = await createUser()
    const result = await create(user, FRANCE)
    expect(result).toMatchObject({ ok: false, status: 403, code: 'plan_restricted', messageKey: 'search.plan.requiresRegion' })
    expect(await exportCount(user.id)).toBe(0)
  })

  test('basic needs a department; professional and premium a region', async () => {
    const basic = await createUser({ plan: 'basic' })
    expect(await create(basic, BRETAGNE)).toMatchObject({ ok: false, status: 403, messageKey: 'search.plan.requiresDepartment' })
    const professional = await createUser({ plan: 'professional', credits: 0 })
    // Past the plan rules, the next check (credits) answers: the search itself was accepted.
    expect(await create(professional, BRETAGNE)).toMatchObject({ ok: false, code: 'insufficient_credits' })
    expect(await create(professional, FRANCE)).toMatchObject({ ok: false, code: 'plan_restricted', messageKey: 'search.plan.requiresRegion' })
  })

  test('levels a country has no data for are not required (Germany has no departments)', async () => {
    const user = await createUser({ credits: 0 })
    const berlin = { sector: 'shop-bakery', country: 'Germany', region: 'Berlin', department: '', city: '' }
    expect(await create(user, berlin)).toMatchObject({ ok: false, code: 'insufficient_credits' })
    // A city of Berlin, picked without a department (the level has no data there): accepted too.
    expect(await create(user, { ...berlin, city: 'Charlottenburg' })).toMatchObject({ ok: false, code: 'insufficient_credits' })
    expect(await create(user, FINISTERE)).toMatchObject({ ok: false, code: 'insufficient_credits' })
  })

  test('an expired subscription counts as the free trial', async () => {
    const user = await createUser({ plan: 'premium' })
    await admin.query(`update public.user_subscriptions set current_period_end = now() - interval '1 day' where user_id = $1`, [user.id])
    expect(await create(user, BRETAGNE)).toMatchObject({ ok: false, code: 'plan_restricted' })
  })
})

describe('resume and add-enrichment', () => {
  async function seedExport(userId: string, criteria: typeof FRANCE, status: 'interrupted' | 'completed') {
    const { rows } = await admin.query<{ id: string }>(
      `insert into public.exports (user_id, name, status, search_status, enrichment_status, can_resume, search_params, enrichment_options, country, region, department)
       values ($1, 'Seeded', $2, 'completed', $3, $4, $5, $6, $7, nullif($8, ''), nullif($9, '')) returning id`,
      [userId, status, status === 'completed' ? 'completed' : 'interrupted', status === 'interrupted', criteria, { email: true }, criteria.country, criteria.region, criteria.department],
    )
    return rows[0]!.id
  }

  test("the stored search must fit the user's plan", async () => {
    const user = await createUser()
    const interrupted = await seedExport(user.id, FRANCE, 'interrupted')
    expect(await resumeExport({ user: fresh(user), exportId: interrupted })).toMatchObject({ ok: false, status: 403, code: 'plan_restricted' })
    const completed = await seedExport(user.id, FRANCE, 'completed')
    expect(await addEnrichment({ user: fresh(user), exportId: completed, options: ['phone'] })).toMatchObject({ ok: false, status: 403, code: 'plan_restricted' })
    const { rows } = await admin.query('select status from public.exports where id = any($1) order by status', [[interrupted, completed]])
    expect(rows.map((row) => row.status)).toEqual(['completed', 'interrupted'])
  })

  test('a user without credits can neither resume nor add enrichment', async () => {
    const user = await createUser({ credits: 0 })
    const interrupted = await seedExport(user.id, FINISTERE, 'interrupted')
    expect(await resumeExport({ user: fresh(user), exportId: interrupted })).toMatchObject({ ok: false, status: 402, code: 'insufficient_credits' })
    const completed = await seedExport(user.id, FINISTERE, 'completed')
    expect(await addEnrichment({ user: fresh(user), exportId: completed, options: ['phone'] })).toMatchObject({ ok: false, status: 402, code: 'insufficient_credits' })
  })
})
