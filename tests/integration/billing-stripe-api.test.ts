// Checkout and portal sessions through the real `stripe` package, against a local fixture server
// that records what it receives and answers recorded-style Stripe JSON — never the live API.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, test } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { checkoutApi, portalApi } from '#app/.server/billing/api.ts'
import { createCheckoutSession, createPortalSession } from '#app/.server/billing/service.ts'
import { handleStripeWebhook } from '#app/.server/billing/webhook.ts'
import { closeDb } from '#app/.server/db.ts'
import { addMonths } from '#app/domain/billing.ts'
import { loadFixture, randomId, stripeEvent, subscriptionObject, webhookRequest } from '#tests/fixtures/stripe/fixtures.ts'
import { startFixtureServer, type FixtureHandler, type FixtureServer } from '#tests/support/fixture-server.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

const ORIGIN = 'https://app.leadatlas.test'
const t = (key: string) => key
let admin: pg.Pool
let server: FixtureServer | undefined

const STRIPE_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_fixture_0123456789',
  STRIPE_PRICE_BASIC_MONTHLY: 'price_basic_m',
  STRIPE_PRICE_BASIC_ANNUAL: 'price_basic_y',
  STRIPE_PRICE_PROFESSIONAL_MONTHLY: 'price_pro_m',
  STRIPE_PRICE_PROFESSIONAL_ANNUAL: 'price_pro_y',
  STRIPE_PRICE_PREMIUM_MONTHLY: 'price_premium_m',
  STRIPE_PRICE_PREMIUM_ANNUAL: 'price_premium_y',
}

beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
})
afterAll(async () => {
  await closeDb()
  await admin.end()
})
beforeEach(() => Object.assign(process.env, STRIPE_ENV))
afterEach(async () => {
  await server?.stop()
  server = undefined
  for (const key of [...Object.keys(STRIPE_ENV), 'STRIPE_API_BASE', 'STRIPE_WEBHOOK_SECRET', 'BILLING_SANDBOX']) delete process.env[key]
})

async function stripeServer(handler: FixtureHandler) {
  server = await startFixtureServer(handler)
  process.env.STRIPE_API_BASE = server.url
  return server
}

const customerIdFor = (userId: string) => `cus_${userId.replace(/-/g, '').slice(0, 14)}`

/** Answers like Stripe for the three calls we make; anything else is a 404 in Stripe's error shape. */
const stripeLike: FixtureHandler = (request) => {
  const path = request.path.split('?')[0]
  if (request.method === 'POST' && path === '/v1/customers') {
    const userId = request.form?.get('metadata[user_id]') ?? ''
    // Stripe makes a new customer per call: one id per user here.
    return { body: { ...loadFixture<Record<string, unknown>>('customer.json', { email: request.form?.get('email') ?? '', user_id: userId }), id: customerIdFor(userId) } }
  }
  if (request.method === 'POST' && path === '/v1/checkout/sessions') {
    return {
      body: loadFixture('checkout-session.json', {
        user_id: request.form?.get('client_reference_id') ?? '',
        success_url: request.form?.get('success_url') ?? '',
        cancel_url: request.form?.get('cancel_url') ?? '',
      }),
    }
  }
  if (request.method === 'POST' && path === '/v1/billing_portal/sessions') {
    return { body: loadFixture('portal-session.json', { return_url: request.form?.get('return_url') ?? '' }) }
  }
  return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${path})` } } }
}

async function createUser(): Promise<SessionUser> {
  const id = randomUUID()
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@example.test`, {}])
  return personalSession(id, `${id}@example.test`)
}

describe('checkout session (Stripe)', () => {
  test('creates the customer once, then a subscription checkout carrying the user, plan and frequency', async () => {
    const fixture = await stripeServer(stripeLike)
    const user = await createUser()
    const result = await createCheckoutSession({ user, plan: 'professional', frequency: 'annual', origin: ORIGIN, idempotencyKey: 'form-key-1234', locale: 'fr' })
    expect(result).toEqual({ ok: true, url: loadFixture('checkout-session.json').url })

    const [customer, checkout] = fixture.requests
    expect(fixture.requests).toHaveLength(2)
    expect(customer!.path).toBe('/v1/customers')
    expect(customer!.headers.authorization).toBe(`Bearer ${STRIPE_ENV.STRIPE_SECRET_KEY}`)
    expect(customer!.headers['idempotency-key']).toBe(`leadatlas-customer:${user.id}`)
    expect(customer!.form?.get('email')).toBe(user.email)
    expect(customer!.form?.get('metadata[user_id]')).toBe(user.id)

    expect(checkout!.path).toBe('/v1/checkout/sessions')
    const form = checkout!.form!
    expect(Object.fromEntries(form)).toMatchObject({
      mode: 'subscription',
      customer: customerIdFor(user.id),
      client_reference_id: user.id,
      'line_items[0][price]': 'price_pro_y',
      'line_items[0][quantity]': '1',
      'metadata[user_id]': user.id,
      'metadata[plan_id]': 'professional',
      'metadata[frequency]': 'annual',
      'subscription_data[metadata][user_id]': user.id,
      'subscription_data[metadata][plan_id]': 'professional',
      'subscription_data[metadata][frequency]': 'annual',
      success_url: `${ORIGIN}/subscription?checkout=success`,
      cancel_url: `${ORIGIN}/subscription?checkout=canceled&frequency=annual`,
      locale: 'fr',
    })
    expect(checkout!.headers['idempotency-key']).toMatch(/^leadatlas-checkout:[0-9a-f]{64}$/)

    const { rows } = await admin.query('select stripe_customer_id from public.billing_customers where user_id = $1', [user.id])
    expect(rows).toEqual([{ stripe_customer_id: customerIdFor(user.id) }])
  })

  test('a double submit sends the same idempotency key and reuses the customer', async () => {
    const fixture = await stripeServer(stripeLike)
    const user = await createUser()
    const input = { user, plan: 'basic' as const, frequency: 'monthly' as const, origin: ORIGIN, idempotencyKey: 'form-key-5678' }
    await createCheckoutSession(input)
    await createCheckoutSession(input)
    const checkouts = fixture.requests.filter((request) => request.path === '/v1/checkout/sessions')
    expect(fixture.requests.filter((request) => request.path === '/v1/customers')).toHaveLength(1)
    expect(checkouts).toHaveLength(2)
    expect(checkouts[0]!.headers['idempotency-key']).toBe(checkouts[1]!.headers['idempotency-key'])
    await createCheckoutSession({ ...input, idempotencyKey: 'another-form-key' })
    const third = fixture.requests.filter((request) => request.path === '/v1/checkout/sessions')[2]
    expect(third!.headers['idempotency-key']).not.toBe(checkouts[0]!.headers['idempotency-key'])
  })

  test('Stripe refusing the request is "Error creating checkout session."', async () => {
    await stripeServer((request) => (request.path === '/v1/customers' ? stripeLike(request, 0) : { status: 400, body: loadFixture('error-invalid-price.json') }))
    const result = await createCheckoutSession({ user: await createUser(), plan: 'premium', frequency: 'monthly', origin: ORIGIN, idempotencyKey: 'form-key-0000' })
    expect(result).toEqual({ ok: false, error: 'checkout_failed' })
  })

  test('Stripe unreachable or failing is "Network or server error."', async () => {
    const fixture = await stripeServer(() => ({ status: 500, body: { error: { type: 'api_error', message: 'Something went wrong on our end.' } } }))
    const result = await createCheckoutSession({ user: await createUser(), plan: 'premium', frequency: 'monthly', origin: ORIGIN, idempotencyKey: 'form-key-0001' })
    expect(result).toEqual({ ok: false, error: 'network' })
    const closed = fixture.url
    await fixture.stop()
    server = undefined
    process.env.STRIPE_API_BASE = closed
    const unreachable = await createCheckoutSession({ user: await createUser(), plan: 'basic', frequency: 'monthly', origin: ORIGIN, idempotencyKey: 'form-key-0002' })
    expect(unreachable).toEqual({ ok: false, error: 'network' })
  }, 30_000)

  test('a missing price variable fails without calling Stripe', async () => {
    const fixture = await stripeServer(stripeLike)
    delete process.env.STRIPE_PRICE_BASIC_ANNUAL
    const result = await createCheckoutSession({ user: await createUser(), plan: 'basic', frequency: 'annual', origin: ORIGIN, idempotencyKey: 'form-key-0003' })
    expect(result).toEqual({ ok: false, error: 'checkout_failed' })
    expect(fixture.requests).toEqual([])
  })

  test('a paid user is not sent to checkout again', async () => {
    const fixture = await stripeServer(stripeLike)
    const user = await createUser()
    await admin.query(
      `insert into public.user_subscriptions (user_id, plan_id, status, frequency, current_period_end) values ($1, 'basic', 'active', 'monthly', now() + interval '10 days')`,
      [user.id],
    )
    const result = await createCheckoutSession({ user, plan: 'premium', frequency: 'monthly', origin: ORIGIN, idempotencyKey: 'form-key-0004' })
    expect(result).toEqual({ ok: false, error: 'already_subscribed' })
    expect(fixture.requests).toEqual([])
  })
})

describe('portal session (Stripe)', () => {
  test("opens the portal for the user's customer, returning to /subscription", async () => {
    const fixture = await stripeServer(stripeLike)
    const user = await createUser()
    await admin.query('insert into public.billing_customers (user_id, stripe_customer_id) values ($1, $2)', [user.id, 'cus_portal_1'])
    const result = await createPortalSession({ user, origin: ORIGIN, locale: 'en' })
    expect(result).toEqual({ ok: true, url: loadFixture('portal-session.json').url })
    expect(fixture.requests).toHaveLength(1)
    expect(fixture.requests[0]!.path).toBe('/v1/billing_portal/sessions')
    expect(Object.fromEntries(fixture.requests[0]!.form!)).toEqual({ customer: 'cus_portal_1', return_url: `${ORIGIN}/subscription`, locale: 'en' })
  })

  test('without a Stripe customer there is nothing to manage: "Error creating customer portal session."', async () => {
    const fixture = await stripeServer(stripeLike)
    expect(await createPortalSession({ user: await createUser(), origin: ORIGIN })).toEqual({ ok: false, error: 'portal_failed' })
    expect(fixture.requests).toEqual([])
  })
})

describe('the JSON payment calls', () => {
  test("another user's id is refused (403); bad input is a 400; never a 500", async () => {
    const fixture = await stripeServer(stripeLike)
    const user = await createUser()
    const other = await createUser()
    expect(await checkoutApi(user, { plan_id: 'professional', frequency: 'monthly', user_id: other.id }, { origin: ORIGIN, t })).toEqual({
      status: 403,
      body: { error: 'api.forbidden', code: 'forbidden' },
    })
    expect((await portalApi(user, { user_id: other.id }, { origin: ORIGIN, t })).status).toBe(403)
    expect((await checkoutApi(user, { plan_id: 'free_trial', frequency: 'monthly' }, { origin: ORIGIN, t })).body).toMatchObject({ code: 'invalid_plan' })
    expect((await checkoutApi(user, { plan_id: 'premium', frequency: 'weekly' }, { origin: ORIGIN, t })).status).toBe(400)
    expect((await checkoutApi(user, { plan_id: 7, frequency: 'monthly' }, { origin: ORIGIN, t })).status).toBe(400)
    expect((await checkoutApi(user, { plan_id: 'premium', frequency: 'monthly', user_id: 42 }, { origin: ORIGIN, t })).status).toBe(400)
    expect((await checkoutApi(user, { plan_id: 'premium', frequency: 'monthly', idempotency_key: 'x' }, { origin: ORIGIN, t })).status).toBe(400)
    expect(fixture.requests).toEqual([])
  })

  test('the session user checks out; the plan may be sent as its label ("Professional")', async () => {
    await stripeServer(stripeLike)
    const user = await createUser()
    const answer = await checkoutApi(user, { plan_id: 'Professional', frequency: 'monthly', user_id: user.id }, { origin: ORIGIN, t })
    expect(answer).toEqual({ status: 200, body: { url: loadFixture('checkout-session.json').url } })
  })

  test('in sandbox mode the urls point at the local sandbox pages', async () => {
    for (const key of Object.keys(STRIPE_ENV)) delete process.env[key]
    const user = await createUser()
    const checkout = await checkoutApi(user, { plan_id: 'premium', frequency: 'annual', user_id: user.id }, { origin: ORIGIN, t })
    expect(checkout.status).toBe(200)
    expect((checkout.body as { url: string }).url).toMatch(new RegExp(`^${ORIGIN}/billing/sandbox/checkout\\?session=[\\w-]+\\.[\\w-]+$`))
    const portal = await portalApi(user, {}, { origin: ORIGIN, t })
    expect((portal.body as { url: string }).url).toMatch(new RegExp(`^${ORIGIN}/billing/sandbox/portal\\?session=`))
    // Billing off (no Stripe, sandbox refused): plan changes are unavailable, a 503 with a message.
    process.env.BILLING_SANDBOX = 'false'
    expect(await checkoutApi(user, { plan_id: 'premium', frequency: 'annual' }, { origin: ORIGIN, t })).toMatchObject({ status: 503, body: { code: 'unavailable' } })
    expect(await portalApi(user, {}, { origin: ORIGIN, t })).toMatchObject({ status: 503, body: { code: 'unavailable' } })
  })

  test('a public https origin without Stripe keys never gets the sandbox', async () => {
    for (const key of Object.keys(STRIPE_ENV)) delete process.env[key]
    const appUrl = process.env.APP_URL
    process.env.APP_URL = 'https://app.example.com'
    try {
      const user = await createUser()
      expect(await checkoutApi(user, { plan_id: 'premium', frequency: 'annual' }, { origin: ORIGIN, t })).toMatchObject({ status: 503, body: { code: 'unavailable' } })
    } finally {
      if (appUrl === undefined) delete process.env.APP_URL
      else process.env.APP_URL = appUrl
    }
  })
})

describe('webhook with the Stripe API configured', () => {
  test('checkout.session.completed fetches its subscription from Stripe and applies it', async () => {
    const user = await createUser()
    const start = new Date(Math.floor(Date.now() / 1000) * 1000)
    const subscription = subscriptionObject({ userId: user.id, id: randomId('sub'), start, end: addMonths(start, 1), priceId: 'price_premium_m', lookupKey: null })
    const fixture = await stripeServer((request) => (request.path.startsWith(`/v1/subscriptions/${subscription.id}`) ? { body: subscription } : { status: 404, body: {} }))
    process.env.STRIPE_WEBHOOK_SECRET = 'whsec_fixture'
    const session = loadFixture('checkout-session.json', { user_id: user.id, success_url: 'x', cancel_url: 'y' })
    session.subscription = subscription.id
    const answer = await handleStripeWebhook(webhookRequest(stripeEvent('checkout.session.completed', session), 'whsec_fixture'))
    expect(answer.body).toMatchObject({ status: 'processed', outcome: 'applied' })
    expect(fixture.requests.map((request) => `${request.method} ${request.path.split('?')[0]}`)).toEqual([`GET /v1/subscriptions/${subscription.id}`])
    const { rows } = await admin.query('select plan_id, status from public.user_subscriptions where stripe_subscription_id = $1', [subscription.id])
    expect(rows).toEqual([{ plan_id: 'premium', status: 'active' }])
  })

  test('Stripe unreachable while refreshing: 500, nothing recorded, so Stripe retries', async () => {
    const user = await createUser()
    const fixture = await stripeServer(() => ({ status: 503, body: { error: { type: 'api_error', message: 'unavailable' } } }))
    process.env.STRIPE_WEBHOOK_SECRET = 'whsec_fixture'
    const start = new Date(Math.floor(Date.now() / 1000) * 1000)
    const event = stripeEvent('customer.subscription.updated', subscriptionObject({ userId: user.id, start, end: addMonths(start, 1) }))
    const answer = await handleStripeWebhook(webhookRequest(event, 'whsec_fixture'))
    expect(answer.status).toBe(500)
    expect(fixture.requests.length).toBeGreaterThan(0)
    const { rows } = await admin.query('select 1 from public.billing_events where id = $1', [event.id])
    expect(rows).toEqual([])
  }, 30_000)
})
