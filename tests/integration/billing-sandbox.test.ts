// The payment sandbox (no STRIPE_SECRET_KEY): its checkout and portal changes go through the
// webhook's event handler, once, and the app sees the result like a real subscription.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import {
  changeSandboxSubscription,
  confirmSandboxCheckout,
  getSandboxSubscription,
  readSandboxToken,
  sandboxCheckoutUrl,
  sandboxPortalUrl,
} from '#app/.server/billing/sandbox.ts'
import { getSubscriptionOverview } from '#app/.server/billing/service.ts'
import type { SandboxCheckoutToken } from '#app/.server/billing/tokens.ts'
import { getCreditsSummary } from '#app/.server/credits.ts'
import { closeDb } from '#app/.server/db.ts'
import { addMonths } from '#app/domain/billing.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

let admin: pg.Pool

beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  process.env.SANDBOX_BILLING_SECRET = 'sandbox-test-secret-0123456789abcdef'
  delete process.env.STRIPE_SECRET_KEY
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
})
afterAll(async () => {
  await closeDb()
  await admin.end()
})

async function createUser(): Promise<SessionUser> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@example.test`, {}])
  return personalSession(id, `${id}@example.test`)
}
const fresh = (user: SessionUser): SessionUser => ({ ...user })
const sessionOf = (url: string) => new URL(url).searchParams.get('session')

async function checkoutToken(user: SessionUser, plan: SandboxCheckoutToken['plan'], frequency: SandboxCheckoutToken['frequency'], key: string = randomUUID()) {
  const url = sandboxCheckoutUrl({ userId: user.id, plan, frequency, idempotencyKey: key, origin: 'http://app.test' })
  const check = readSandboxToken(sessionOf(url), 'checkout', user.id)
  if (!check.ok) throw new Error('bad token')
  return check.token
}
async function reloads(userId: string) {
  const { rows } = await admin.query(`select idempotency_key from public.credit_ledger where user_id = $1 and reason = 'subscription_reload'`, [userId])
  return rows.length
}
async function events(userId: string) {
  const { rows } = await admin.query(`select id, type, source, outcome from public.billing_events where user_id = $1 order by received_at`, [userId])
  return rows
}

describe('sandbox tokens', () => {
  test("a user cannot confirm someone else's checkout or open their portal", async () => {
    const alice = await createUser()
    const bob = await createUser()
    const url = sandboxCheckoutUrl({ userId: alice.id, plan: 'premium', frequency: 'monthly', idempotencyKey: 'k-123456789', origin: 'http://app.test' })
    expect(readSandboxToken(sessionOf(url), 'checkout', bob.id)).toEqual({ ok: false, reason: 'forbidden' })
    expect(readSandboxToken(sessionOf(url), 'portal', alice.id)).toEqual({ ok: false, reason: 'invalid' })
    expect(readSandboxToken(`${sessionOf(url)}x`, 'checkout', alice.id)).toEqual({ ok: false, reason: 'invalid' })
    const portal = sandboxPortalUrl({ userId: alice.id, origin: 'http://app.test', plan: 'basic' })
    expect(readSandboxToken(sessionOf(portal), 'portal', bob.id)).toEqual({ ok: false, reason: 'forbidden' })
    expect(readSandboxToken(sessionOf(portal), 'portal', alice.id)).toMatchObject({ ok: true, token: { plan: 'basic' } })
  })

  test('the same form submitted twice gets the same checkout session', async () => {
    const user = await createUser()
    const a = await checkoutToken(user, 'basic', 'monthly', 'same-key-123')
    const b = await checkoutToken(user, 'basic', 'monthly', 'same-key-123')
    expect(a.nonce).toBe(b.nonce)
  })
})

describe('sandbox checkout and portal', () => {
  test('free trial → professional → annual → cancel → resume → renew → cancel → expiry', async () => {
    const user = await createUser()
    const token = await checkoutToken(user, 'professional', 'monthly')

    // Checkout, confirmed twice (double submit): applied once.
    const aMinuteAgo = new Date(Date.now() - 60_000)
    const [first, second] = [await confirmSandboxCheckout(token, aMinuteAgo), await confirmSandboxCheckout(token)]
    expect(first).toMatchObject({ ok: true, event: { status: 'processed', outcome: 'applied', reloaded: true } })
    expect(second).toMatchObject({ ok: true, event: { status: 'duplicate' } })
    let summary = await getCreditsSummary(fresh(user))
    expect(summary).toMatchObject({ plan: 'professional', remaining: 5000, total: 5000 })
    let overview = await getSubscriptionOverview(fresh(user))
    expect(overview).toMatchObject({ plan: 'professional', frequency: 'monthly', status: 'active' })
    expect(await reloads(user.id)).toBe(1)
    // A second checkout while subscribed is refused.
    expect(await confirmSandboxCheckout(await checkoutToken(user, 'premium', 'monthly'))).toEqual({ ok: false, reason: 'already_subscribed' })

    // Switch to annual: a new (yearly) period starts now, with a reload.
    let sub = (await getSandboxSubscription(user.id))!
    const switched = await changeSandboxSubscription({ userId: user.id, subscriptionId: sub.id, version: sub.version, change: { action: 'update', plan: 'professional', frequency: 'annual' } })
    expect(switched).toMatchObject({ ok: true, event: { outcome: 'applied', reloaded: true } })
    // The same (stale) form again changes nothing.
    expect(await changeSandboxSubscription({ userId: user.id, subscriptionId: sub.id, version: sub.version, change: { action: 'update', plan: 'professional', frequency: 'annual' } })).toEqual({ ok: true, event: null })
    sub = (await getSandboxSubscription(user.id))!
    expect(sub).toMatchObject({ plan: 'professional', frequency: 'annual', version: 2 })
    expect(sub.currentPeriodEnd.toISOString()).toBe(addMonths(sub.currentPeriodStart, 12).toISOString())
    overview = await getSubscriptionOverview(fresh(user))
    expect(overview).toMatchObject({ plan: 'professional', frequency: 'annual', status: 'active', currentPeriodEnd: sub.currentPeriodEnd.toISOString() })
    // Annual plans reload monthly: the next reload is a month in.
    summary = await getCreditsSummary(fresh(user))
    expect(summary.nextReloadDate).toBe(addMonths(sub.currentPeriodStart, 1).toISOString())
    expect(await reloads(user.id)).toBe(2)

    // Cancel at period end: canceling, plan kept until then.
    await changeSandboxSubscription({ userId: user.id, subscriptionId: sub.id, version: sub.version, change: { action: 'cancel' } })
    overview = await getSubscriptionOverview(fresh(user))
    expect(overview).toMatchObject({ plan: 'professional', status: 'canceling', currentPeriodEnd: sub.currentPeriodEnd.toISOString() })
    expect((await getCreditsSummary(fresh(user))).plan).toBe('professional')

    // Resume.
    sub = (await getSandboxSubscription(user.id))!
    await changeSandboxSubscription({ userId: user.id, subscriptionId: sub.id, version: sub.version, change: { action: 'resume' } })
    expect((await getSubscriptionOverview(fresh(user))).status).toBe('active')

    // End the period while active: it renews, with a reload.
    sub = (await getSandboxSubscription(user.id))!
    await admin.query(`select public.apply_credit_change($1, -10, 'enrichment', $2)`, [user.id, `spend:${user.id}`])
    const renewed = await changeSandboxSubscription({ userId: user.id, subscriptionId: sub.id, version: sub.version, change: { action: 'end_period' } })
    expect(renewed).toMatchObject({ ok: true, event: { reloaded: true } })
    expect((await getCreditsSummary(fresh(user))).remaining).toBe(5000)

    // Cancel, then end the period: the subscription ends and the user is back on the free trial.
    sub = (await getSandboxSubscription(user.id))!
    await changeSandboxSubscription({ userId: user.id, subscriptionId: sub.id, version: sub.version, change: { action: 'cancel' } })
    sub = (await getSandboxSubscription(user.id))!
    const ended = await changeSandboxSubscription({ userId: user.id, subscriptionId: sub.id, version: sub.version, change: { action: 'end_period' } })
    expect(ended).toMatchObject({ ok: true, event: { outcome: 'applied', reloaded: false } })
    expect(await getSandboxSubscription(user.id)).toBeNull()
    expect(await getSubscriptionOverview(fresh(user))).toMatchObject({ plan: 'free_trial', status: null })
    expect((await getCreditsSummary(fresh(user))).plan).toBe('free_trial')
    const { rows } = await admin.query(`select status from public.user_subscriptions where user_id = $1`, [user.id])
    expect(rows).toEqual([{ status: 'canceled' }])
    // Nothing left to change.
    expect(await changeSandboxSubscription({ userId: user.id, subscriptionId: sub.id, version: sub.version + 1, change: { action: 'resume' } })).toEqual({ ok: false, reason: 'no_subscription' })

    // Every change went through the event handler, recorded as sandbox events.
    const recorded = await events(user.id)
    expect(recorded.map((event) => event.type)).toEqual([
      'checkout.session.completed',
      'customer.subscription.updated',
      'customer.subscription.updated',
      'customer.subscription.updated',
      'customer.subscription.updated',
      'customer.subscription.updated',
      'customer.subscription.deleted',
    ])
    expect(new Set(recorded.map((event) => event.source))).toEqual(new Set(['sandbox']))

    // After expiry a new checkout works again.
    expect(await confirmSandboxCheckout(await checkoutToken(user, 'basic', 'monthly'))).toMatchObject({ ok: true })
    expect((await getCreditsSummary(fresh(user))).plan).toBe('basic')
  })

  test('a plan change within the period keeps the period; an upgrade reloads, a downgrade does not', async () => {
    const user = await createUser()
    await confirmSandboxCheckout(await checkoutToken(user, 'basic', 'monthly'))
    let sub = (await getSandboxSubscription(user.id))!
    const period = sub.currentPeriodEnd.toISOString()
    await changeSandboxSubscription({ userId: user.id, subscriptionId: sub.id, version: sub.version, change: { action: 'update', plan: 'premium', frequency: 'monthly' } })
    sub = (await getSandboxSubscription(user.id))!
    expect(sub.currentPeriodEnd.toISOString()).toBe(period)
    expect(await getCreditsSummary(fresh(user))).toMatchObject({ plan: 'premium', remaining: 15000 })
    await changeSandboxSubscription({ userId: user.id, subscriptionId: sub.id, version: sub.version, change: { action: 'update', plan: 'professional', frequency: 'monthly' } })
    expect(await getCreditsSummary(fresh(user))).toMatchObject({ plan: 'professional', remaining: 15000 })
  })
})
