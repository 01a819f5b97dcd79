// The Stripe webhook against the real (embedded) Postgres: signature checks, once-only application,
// and the subscription life cycle as the rest of the app sees it (getCreditsSummary / resolvePlan).
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, inject, test } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { handleStripeWebhook } from '#app/.server/billing/webhook.ts'
import { getCreditsSummary } from '#app/.server/credits.ts'
import { closeDb, withUser } from '#app/.server/db.ts'
import { addMonths } from '#app/domain/billing.ts'
import { loadFixture, randomId, stripeEvent, subscriptionObject, unix, webhookRequest } from '#tests/fixtures/stripe/fixtures.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

const SECRET = 'whsec_test_0123456789abcdef0123456789abcdef'
let admin: pg.Pool

beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
})
beforeEach(() => {
  process.env.STRIPE_WEBHOOK_SECRET = SECRET
  delete process.env.STRIPE_SECRET_KEY
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
const sessionUser = (id: string): SessionUser => (personalSession(id, `${id}@example.test`))

async function deliver(event: unknown, options?: Parameters<typeof webhookRequest>[2]) {
  return handleStripeWebhook(webhookRequest(event, SECRET, options))
}
async function credits(userId: string) {
  const { rows } = await admin.query('select remaining_credits, total_credits from public.user_credits where user_id = $1', [userId])
  return rows[0] as { remaining_credits: number; total_credits: number }
}
async function reloads(userId: string) {
  const { rows } = await admin.query(`select delta, balance_after, idempotency_key from public.credit_ledger where user_id = $1 and reason = 'subscription_reload' order by id`, [userId])
  return rows as Array<{ delta: number; balance_after: number; idempotency_key: string }>
}
async function subscriptionRow(stripeId: string) {
  const { rows } = await admin.query('select * from public.user_subscriptions where stripe_subscription_id = $1', [stripeId])
  return rows[0]
}
async function spend(userId: string, amount: number) {
  await admin.query(`select public.apply_credit_change($1, $2, 'enrichment', $3)`, [userId, -amount, `test:${randomUUID()}`])
}

const start = () => new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000)

describe('signature', () => {
  test('a correctly signed event is applied (200)', async () => {
    const userId = await createUser()
    const sub = subscriptionObject({ userId, start: start(), end: addMonths(start(), 1) })
    const answer = await deliver(stripeEvent('customer.subscription.created', sub))
    expect(answer).toEqual({ status: 200, body: { received: true, status: 'processed', outcome: 'applied' } })
    expect(await credits(userId)).toEqual({ remaining_credits: 5000, total_credits: 5000 })
  })

  test('a bad signature, a tampered body or a missing header is refused (400) and changes nothing', async () => {
    const userId = await createUser()
    const event = stripeEvent('customer.subscription.created', subscriptionObject({ userId, start: start(), end: addMonths(start(), 1) }))
    const wrongSecret = await handleStripeWebhook(webhookRequest(event, 'whsec_someone_else'))
    expect(wrongSecret.status).toBe(400)
    const payload = JSON.stringify(event)
    const signature = webhookRequest(event, SECRET).headers.get('Stripe-Signature')!
    const tampered = await deliver(event, { body: payload.replace('"active"', '"trialing"'), signature })
    expect(tampered.status).toBe(400)
    const stale = await deliver(event, { signature: `t=${unix(new Date()) - 3600},v1=${'0'.repeat(64)}` })
    expect(stale.status).toBe(400)
    const noHeader = await handleStripeWebhook(new Request('http://127.0.0.1/api/stripe/webhook', { method: 'POST', body: payload }))
    expect(noHeader.status).toBe(400)
    expect(await credits(userId)).toEqual({ remaining_credits: 100, total_credits: 100 })
    const { rows } = await admin.query('select 1 from public.billing_events where id = $1', [event.id])
    expect(rows).toEqual([])
  })

  test('without STRIPE_WEBHOOK_SECRET the webhook does not exist (404)', async () => {
    delete process.env.STRIPE_WEBHOOK_SECRET
    const answer = await handleStripeWebhook(webhookRequest(stripeEvent('invoice.paid', {}), SECRET))
    expect(answer.status).toBe(404)
  })

  test('event types we do not handle are acknowledged (200) and ignored', async () => {
    const answer = await deliver(stripeEvent('charge.refunded', { id: 'ch_1', object: 'charge' }))
    expect(answer).toEqual({ status: 200, body: { received: true, outcome: 'unhandled_type' } })
  })
})

describe('once-only application', () => {
  test('the same event delivered twice reloads credits once', async () => {
    const userId = await createUser()
    const event = stripeEvent('customer.subscription.created', subscriptionObject({ userId, start: start(), end: addMonths(start(), 1) }))
    expect((await deliver(event)).body).toMatchObject({ status: 'processed', outcome: 'applied' })
    await spend(userId, 40)
    expect((await deliver(event)).body).toMatchObject({ status: 'duplicate' })
    // Concurrent retries too.
    const answers = await Promise.all([deliver(event), deliver(event), deliver(event)])
    expect(answers.map((answer) => answer.body.status)).toEqual(['duplicate', 'duplicate', 'duplicate'])
    expect(await reloads(userId)).toHaveLength(1)
    expect(await credits(userId)).toEqual({ remaining_credits: 4960, total_credits: 5000 })
  })

  test('the several events of one new period (checkout, created, invoice paid) reload once', async () => {
    const userId = await createUser()
    const sub = subscriptionObject({ userId, start: start(), end: addMonths(start(), 1) })
    const session = loadFixture('checkout-session.json', { user_id: userId, success_url: 'x', cancel_url: 'y' })
    session.subscription = sub
    session.customer = sub.customer
    const invoice = loadFixture('invoice.json', { user_id: userId })
    invoice.billing_reason = 'subscription_create'
    invoice.parent.subscription_details.subscription = sub.id
    invoice.lines.data[0].period = { start: sub.items.data[0].current_period_start, end: sub.items.data[0].current_period_end }
    for (const event of [stripeEvent('checkout.session.completed', session), stripeEvent('customer.subscription.created', sub), stripeEvent('invoice.paid', invoice)]) {
      expect((await deliver(event)).status).toBe(200)
    }
    expect(await reloads(userId)).toHaveLength(1)
    const { rows } = await admin.query('select stripe_customer_id from public.billing_customers where user_id = $1', [userId])
    expect(rows).toEqual([{ stripe_customer_id: sub.customer }])
  })
})

describe('subscription life cycle', () => {
  test('created → updated (cancel at period end) → deleted, as the credits summary sees it', async () => {
    const userId = await createUser()
    const periodStart = start()
    const periodEnd = addMonths(periodStart, 1)
    const base = { userId, id: randomId('sub'), customer: randomId('cus'), start: periodStart, end: periodEnd }

    await deliver(stripeEvent('customer.subscription.created', subscriptionObject(base)))
    let summary = await getCreditsSummary(sessionUser(userId))
    expect(summary).toMatchObject({ plan: 'professional', remaining: 5000, total: 5000, ok: true })
    expect(summary.nextReloadDate).toBe(periodEnd.toISOString())
    expect(await subscriptionRow(base.id)).toMatchObject({ status: 'active', plan_id: 'professional', frequency: 'monthly', stripe_customer_id: base.customer, user_id: userId })

    await deliver(stripeEvent('customer.subscription.updated', subscriptionObject({ ...base, cancelAtPeriodEnd: true })))
    const canceling = await subscriptionRow(base.id)
    expect(canceling).toMatchObject({ status: 'canceling', next_credit_date: null })
    expect(canceling.current_period_end.toISOString()).toBe(periodEnd.toISOString())
    summary = await getCreditsSummary(sessionUser(userId))
    expect(summary.plan).toBe('professional') // kept until the period ends

    await deliver(stripeEvent('customer.subscription.updated', subscriptionObject(base)))
    expect(await subscriptionRow(base.id)).toMatchObject({ status: 'active' })
    expect((await subscriptionRow(base.id)).next_credit_date.toISOString()).toBe(periodEnd.toISOString())

    const endedAt = new Date(Math.floor(Date.now() / 1000) * 1000)
    await deliver(stripeEvent('customer.subscription.deleted', subscriptionObject({ ...base, status: 'canceled', endedAt })))
    expect(await subscriptionRow(base.id)).toMatchObject({ status: 'canceled', next_credit_date: null })
    summary = await getCreditsSummary(sessionUser(userId))
    expect(summary.plan).toBe('free_trial')
    // A late "updated" cannot revive it.
    const late = await deliver(stripeEvent('customer.subscription.updated', subscriptionObject(base)))
    expect(late.body.outcome).toBe('already_canceled')
    expect((await getCreditsSummary(sessionUser(userId))).plan).toBe('free_trial')
    expect(await reloads(userId)).toHaveLength(1)
  })

  test('a paid renewal (invoice.paid) extends the period and reloads; the matching update does not reload again', async () => {
    const userId = await createUser()
    const periodStart = addMonths(start(), -1)
    const periodEnd = new Date(Math.floor(Date.now() / 1000) * 1000 + 3_600_000)
    const base = { userId, id: randomId('sub'), start: periodStart, end: periodEnd }
    await deliver(stripeEvent('customer.subscription.created', subscriptionObject(base)))
    await spend(userId, 4000)
    const nextEnd = addMonths(periodEnd, 1)
    const invoice = loadFixture('invoice.json', { user_id: userId })
    invoice.parent.subscription_details.subscription = base.id
    invoice.lines.data[0].period = { start: unix(periodEnd), end: unix(nextEnd) }
    expect((await deliver(stripeEvent('invoice.paid', invoice))).body.outcome).toBe('applied')
    expect(await credits(userId)).toEqual({ remaining_credits: 5000, total_credits: 5000 })
    const row = await subscriptionRow(base.id)
    expect(row.current_period_end.toISOString()).toBe(nextEnd.toISOString())
    expect(row.next_credit_date.toISOString()).toBe(nextEnd.toISOString())
    await deliver(stripeEvent('customer.subscription.updated', subscriptionObject({ ...base, start: periodEnd, end: nextEnd })))
    expect(await reloads(userId)).toHaveLength(2)
    // invoice.payment_succeeded for the same invoice: same period key, no third reload.
    await deliver(stripeEvent('invoice.payment_succeeded', invoice))
    expect(await reloads(userId)).toHaveLength(2)
    // A proration invoice (plan change) does not reload.
    invoice.billing_reason = 'subscription_update'
    expect((await deliver(stripeEvent('invoice.paid', invoice))).body.outcome).toBe('not_a_period_invoice')
  })

  test('an upgrade within the period tops credits up to the new allowance; a downgrade keeps them', async () => {
    const userId = await createUser()
    const base = { userId, id: randomId('sub'), start: start(), end: addMonths(start(), 1) }
    await deliver(stripeEvent('customer.subscription.created', subscriptionObject({ ...base, lookupKey: 'basic_monthly' })))
    expect(await credits(userId)).toEqual({ remaining_credits: 1500, total_credits: 1500 })
    await spend(userId, 500)
    await deliver(stripeEvent('customer.subscription.updated', subscriptionObject({ ...base, lookupKey: 'premium_monthly' })))
    expect(await credits(userId)).toEqual({ remaining_credits: 15000, total_credits: 15000 })
    expect((await subscriptionRow(base.id)).plan_id).toBe('premium')
    await spend(userId, 1000)
    await deliver(stripeEvent('customer.subscription.updated', subscriptionObject({ ...base, lookupKey: 'basic_monthly' })))
    expect(await credits(userId)).toEqual({ remaining_credits: 14000, total_credits: 15000 })
    // Back up to premium in the same period: that allowance was already granted once.
    await deliver(stripeEvent('customer.subscription.updated', subscriptionObject({ ...base, lookupKey: 'premium_monthly' })))
    expect(await credits(userId)).toEqual({ remaining_credits: 14000, total_credits: 15000 })
  })

  test('an annual subscription reloads monthly: next credit date one month in, not at the year end', async () => {
    const userId = await createUser()
    const periodStart = start()
    const base = { userId, id: randomId('sub'), start: periodStart, end: addMonths(periodStart, 12), lookupKey: 'premium_annual', interval: 'year' as const }
    await deliver(stripeEvent('customer.subscription.created', subscriptionObject(base)))
    const row = await subscriptionRow(base.id)
    expect(row).toMatchObject({ plan_id: 'premium', frequency: 'annual', status: 'active' })
    expect(row.next_credit_date.toISOString()).toBe(addMonths(periodStart, 1).toISOString())
    expect(await credits(userId)).toEqual({ remaining_credits: 15000, total_credits: 15000 })
  })

  test('an incomplete subscription (payment pending) does not count and does not reload', async () => {
    const userId = await createUser()
    const base = { userId, id: randomId('sub'), start: start(), end: addMonths(start(), 1) }
    await deliver(stripeEvent('customer.subscription.created', subscriptionObject({ ...base, status: 'incomplete' })))
    expect(await subscriptionRow(base.id)).toMatchObject({ status: 'incomplete', next_credit_date: null })
    expect((await getCreditsSummary(sessionUser(userId))).plan).toBe('free_trial')
    await deliver(stripeEvent('customer.subscription.updated', subscriptionObject(base)))
    expect((await getCreditsSummary(sessionUser(userId))).plan).toBe('professional')
    expect(await reloads(userId)).toHaveLength(1)
  })

  test('events for unknown users or plans are acknowledged and recorded, not applied', async () => {
    const stranger = subscriptionObject({ userId: randomUUID(), start: start(), end: addMonths(start(), 1) })
    expect((await deliver(stripeEvent('customer.subscription.created', stranger))).body).toMatchObject({ status: 'processed', outcome: 'unknown_user' })
    const userId = await createUser()
    const odd = subscriptionObject({ userId, start: start(), end: addMonths(start(), 1), lookupKey: null })
    odd.metadata = { user_id: userId }
    expect((await deliver(stripeEvent('customer.subscription.created', odd))).body.outcome).toBe('unknown_plan')
    expect(await subscriptionRow(odd.id)).toBeUndefined()
  })

  test('checkout.session.completed with a bare subscription id links the customer and waits for the subscription events', async () => {
    const userId = await createUser()
    const session = loadFixture('checkout-session.json', { user_id: userId, success_url: 'x', cancel_url: 'y' })
    session.customer = randomId('cus')
    session.subscription = randomId('sub')
    expect((await deliver(stripeEvent('checkout.session.completed', session))).body.outcome).toBe('customer_linked')
    const { rows } = await admin.query('select stripe_customer_id from public.billing_customers where user_id = $1', [userId])
    expect(rows).toEqual([{ stripe_customer_id: session.customer }])
    // A subscription event without user metadata finds the user through that customer.
    const sub = subscriptionObject({ userId, customer: session.customer, id: session.subscription, start: start(), end: addMonths(start(), 1) })
    sub.metadata = {}
    expect((await deliver(stripeEvent('customer.subscription.created', sub))).body.outcome).toBe('applied')
    expect((await subscriptionRow(sub.id)).user_id).toBe(userId)
  })
})

describe('billing tables', () => {
  test('are invisible to signed-in users (RLS on, no grants): events, customers and sandbox state', async () => {
    const userId = await createUser()
    await deliver(stripeEvent('customer.subscription.created', subscriptionObject({ userId, start: start(), end: addMonths(start(), 1) })))
    for (const table of ['billing_events', 'billing_customers', 'billing_sandbox_subscriptions']) {
      await expect(withUser({ sub: userId }, (trx) => sql`select * from ${sql.table(`public.${table}`)}`.execute(trx)), table).rejects.toThrow(/permission denied/)
    }
    // The subscription itself stays readable by its owner (SPEC §7: the credits and search views read it).
    const own = await withUser({ sub: userId }, (trx) => trx.selectFrom('user_subscriptions').select(['plan_id', 'status']).execute())
    expect(own).toEqual([{ plan_id: 'professional', status: 'active' }])
  })
})
