// The monthly credit reload job against the real (embedded) Postgres, and its pg-boss wiring.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { PgBoss } from 'pg-boss'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { registerBillingJobs, RELOAD_CRON, RELOAD_QUEUE, reloadDueCredits } from '#app/.server/billing/reload.ts'
import { closeDb } from '#app/.server/db.ts'
import { addMonths } from '#app/domain/billing.ts'

let admin: pg.Pool

beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
})
afterAll(async () => {
  await closeDb()
  await admin.end()
})

async function createUser(): Promise<string> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@example.test`, {}])
  return id
}

async function insertSubscription(values: { userId: string; plan: string; frequency: 'monthly' | 'annual'; status?: string; end: Date; next: Date | null }) {
  const { rows } = await admin.query<{ id: string }>(
    `insert into public.user_subscriptions (user_id, plan_id, status, frequency, current_period_end, next_credit_date, stripe_subscription_id)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [values.userId, values.plan, values.status ?? 'active', values.frequency, values.end, values.next, `sub_${randomUUID()}`],
  )
  return rows[0]!.id
}
async function row(id: string) {
  const { rows } = await admin.query('select next_credit_date, status from public.user_subscriptions where id = $1', [id])
  return rows[0] as { next_credit_date: Date | null; status: string }
}
async function credits(userId: string) {
  const { rows } = await admin.query('select remaining_credits, total_credits from public.user_credits where user_id = $1', [userId])
  return rows[0]
}
async function reloadKeys(userId: string) {
  const { rows } = await admin.query(`select idempotency_key from public.credit_ledger where user_id = $1 and reason = 'subscription_reload' order by id`, [userId])
  return rows.map((r) => r.idempotency_key as string)
}

// A year that started 40 days ago: its first monthly boundary has passed.
const periodStart = new Date(Date.UTC(2026, 0, 10, 9, 0, 0))
const now = addMonths(periodStart, 1)
now.setUTCDate(now.getUTCDate() + 9)

describe('reloadDueCredits', () => {
  test('reloads an annual plan to its allowance each month and moves to the next boundary, once', async () => {
    const userId = await createUser()
    await admin.query(`select public.apply_credit_change($1, -60, 'enrichment', $2)`, [userId, `spend:${userId}`])
    const id = await insertSubscription({ userId, plan: 'premium', frequency: 'annual', end: addMonths(periodStart, 12), next: addMonths(periodStart, 1) })

    const first = await reloadDueCredits(now)
    expect(first.reloaded).toBeGreaterThanOrEqual(1)
    expect(await credits(userId)).toEqual({ remaining_credits: 15000, total_credits: 15000 })
    expect((await row(id)).next_credit_date?.toISOString()).toBe(addMonths(periodStart, 2).toISOString())
    expect(await reloadKeys(userId)).toEqual([`reload:${id}:${addMonths(periodStart, 1).toISOString()}`])

    // Again at the same moment: nothing is due any more.
    await admin.query(`select public.apply_credit_change($1, -15, 'enrichment', $2)`, [userId, `spend2:${userId}`])
    await reloadDueCredits(now)
    expect(await credits(userId)).toEqual({ remaining_credits: 14985, total_credits: 15000 })
    expect(await reloadKeys(userId)).toHaveLength(1)

    // A month later, the next reload.
    await reloadDueCredits(addMonths(now, 1))
    expect(await reloadKeys(userId)).toHaveLength(2)
    expect((await row(id)).next_credit_date?.toISOString()).toBe(addMonths(periodStart, 3).toISOString())
  })

  test('concurrent runs reload once', async () => {
    const userId = await createUser()
    const id = await insertSubscription({ userId, plan: 'basic', frequency: 'annual', end: addMonths(periodStart, 12), next: addMonths(periodStart, 1) })
    await Promise.all([reloadDueCredits(now), reloadDueCredits(now), reloadDueCredits(now)])
    expect(await reloadKeys(userId)).toEqual([`reload:${id}:${addMonths(periodStart, 1).toISOString()}`])
    expect(await credits(userId)).toEqual({ remaining_credits: 1500, total_credits: 1500 })
  })

  test('a reload already applied with the same key (e.g. by a crashed run) is not applied twice', async () => {
    const userId = await createUser()
    const due = addMonths(periodStart, 1)
    const id = await insertSubscription({ userId, plan: 'professional', frequency: 'annual', end: addMonths(periodStart, 12), next: due })
    await admin.query(`select public.apply_credit_change($1, 5000, 'subscription_reload', $2)`, [userId, `reload:${id}:${due.toISOString()}`])
    await admin.query(`select public.apply_credit_change($1, -100, 'enrichment', $2)`, [userId, `spend:${userId}`])
    await reloadDueCredits(now)
    expect(await credits(userId)).toEqual({ remaining_credits: 4900, total_credits: 5000 })
    expect((await row(id)).next_credit_date?.toISOString()).toBe(addMonths(periodStart, 2).toISOString())
  })

  test('after missed months it reloads once and catches up to the next boundary', async () => {
    const userId = await createUser()
    const id = await insertSubscription({ userId, plan: 'basic', frequency: 'annual', end: addMonths(periodStart, 12), next: addMonths(periodStart, 1) })
    await reloadDueCredits(addMonths(now, 3))
    expect(await reloadKeys(userId)).toHaveLength(1)
    expect((await row(id)).next_credit_date?.toISOString()).toBe(addMonths(periodStart, 5).toISOString())
  })

  test('a canceling subscription never gets a reload date past its period end', async () => {
    const userId = await createUser()
    const end = addMonths(periodStart, 12)
    const id = await insertSubscription({ userId, plan: 'professional', frequency: 'annual', status: 'canceling', end, next: addMonths(periodStart, 11) })
    await reloadDueCredits(addMonths(periodStart, 11))
    expect(await reloadKeys(userId)).toHaveLength(1)
    expect((await row(id)).next_credit_date).toBeNull()
  })

  test('an active subscription in its last month waits for the renewal: next date = period end', async () => {
    const userId = await createUser()
    const end = addMonths(periodStart, 12)
    const id = await insertSubscription({ userId, plan: 'professional', frequency: 'annual', end, next: addMonths(periodStart, 11) })
    await reloadDueCredits(addMonths(periodStart, 11))
    expect((await row(id)).next_credit_date?.toISOString()).toBe(end.toISOString())
  })

  test('expired, canceled and not-yet-due subscriptions are left alone', async () => {
    const userId = await createUser()
    const expired = await insertSubscription({ userId, plan: 'premium', frequency: 'monthly', end: addMonths(periodStart, 1), next: addMonths(periodStart, 1) })
    const canceled = await insertSubscription({ userId, plan: 'premium', frequency: 'annual', status: 'canceled', end: addMonths(periodStart, 12), next: addMonths(periodStart, 1) })
    const later = await insertSubscription({ userId, plan: 'premium', frequency: 'annual', end: addMonths(periodStart, 12), next: addMonths(now, 1) })
    await reloadDueCredits(now)
    expect(await reloadKeys(userId)).toEqual([])
    expect(await credits(userId)).toEqual({ remaining_credits: 100, total_credits: 100 })
    expect((await row(expired)).next_credit_date?.toISOString()).toBe(addMonths(periodStart, 1).toISOString())
    expect((await row(canceled)).next_credit_date?.toISOString()).toBe(addMonths(periodStart, 1).toISOString())
    expect((await row(later)).next_credit_date?.toISOString()).toBe(addMonths(now, 1).toISOString())
  })
})

describe('registerBillingJobs (pg-boss)', () => {
  test('creates the queue, schedules it hourly and runs the reload when a job arrives', async () => {
    const boss = new PgBoss({ connectionString: inject('databaseUrl'), schema: 'pgboss_billing_test' })
    boss.on('error', () => {})
    await boss.start()
    try {
      const logs: string[] = []
      await registerBillingJobs(boss, { log: (message) => logs.push(message) })
      await registerBillingJobs(boss) // idempotent: a second process does the same
      const schedules = await boss.getSchedules(RELOAD_QUEUE)
      expect(schedules).toHaveLength(1)
      expect(schedules[0]).toMatchObject({ name: RELOAD_QUEUE, cron: RELOAD_CRON })

      const userId = await createUser()
      const start = new Date(Math.floor(Date.now() / 1000) * 1000 - 40 * 86_400_000)
      await insertSubscription({ userId, plan: 'basic', frequency: 'annual', end: addMonths(start, 12), next: addMonths(start, 1) })
      const jobId = await boss.send(RELOAD_QUEUE, {})
      expect(jobId).toBeTruthy()
      await expect.poll(async () => (await credits(userId)).remaining_credits, { timeout: 15_000, interval: 250 }).toBe(1500)
    } finally {
      await boss.stop({ graceful: false })
    }
  }, 30_000)
})
