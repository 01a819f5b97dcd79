// Seats beyond the plan's (issue 29 item 3): in the sandbox they are set at once; with Stripe they are the quantity of
// the per-seat price on the workspace's subscription (a local fixture server plays Stripe), and the subscription's
// webhook keeps the count in step. Never below the seats in use, never on the free trial, owners only.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, inject, test } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { handleStripeWebhook } from '#app/.server/billing/webhook.ts'
import { closeDb } from '#app/.server/db.ts'
import { acceptInvitation, inviteMember } from '#app/.server/workspaces/invitations.ts'
import { memberSession } from '#app/.server/workspaces/current.ts'
import { setExtraSeats } from '#app/.server/workspaces/seats.ts'
import { readTeam } from '#app/.server/workspaces/team-view.ts'
import { addMonths } from '#app/domain/billing.ts'
import { stripeEvent, subscriptionObject, webhookRequest } from '#tests/fixtures/stripe/fixtures.ts'
import { startFixtureServer, type FixtureServer } from '#tests/support/fixture-server.ts'

let admin: pg.Pool
let server: FixtureServer | undefined
const STRIPE_ENV = { STRIPE_SECRET_KEY: 'sk_test_fixture_seats', STRIPE_PRICE_SEAT: 'price_seat_m', STRIPE_WEBHOOK_SECRET: 'whsec_fixture', STRIPE_PRICE_PROFESSIONAL_MONTHLY: 'price_pro_m' }

beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 })
})
afterAll(async () => {
  await closeDb()
  await admin.end()
})
afterEach(async () => {
  await server?.stop()
  server = undefined
  for (const key of [...Object.keys(STRIPE_ENV), 'STRIPE_API_BASE', 'BILLING_SANDBOX']) delete process.env[key]
})

async function owner(plan: 'professional' | null, stripeSubscription?: string, id = randomUUID()): Promise<SessionUser> {
  await admin.query('insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)', [id, `${id}@example.test`, {}])
  if (plan) {
    await admin.query(
      `insert into public.user_subscriptions (user_id, plan_id, status, frequency, current_period_end, stripe_subscription_id) values ($1, $2, 'active', 'monthly', now() + interval '20 days', $3)`,
      [id, plan, stripeSubscription ?? null],
    )
  }
  return (await memberSession(id, id))!
}

const invite = (user: SessionUser, email: string) => inviteMember(user, { intent: 'invite', email, role: 'member' }, { origin: 'http://seats.test' })

describe('in the sandbox', () => {
  test('extra seats are set at once and let the team grow past the plan; never below the seats in use', async () => {
    process.env.BILLING_SANDBOX = 'true'
    const boss = await owner('professional')
    for (let i = 0; i < 2; i++) expect((await invite(boss, `s${i}-${boss.id}@example.test`)).ok).toBe(true)
    expect(await invite(boss, `s2-${boss.id}@example.test`)).toMatchObject({ ok: false, code: 'seats_full' })
    expect(await setExtraSeats(boss, 2)).toEqual({ ok: true, extraSeats: 2 })
    expect((await readTeam(boss)).seats).toEqual({ used: 3, limit: 5, extra: 2 })
    expect((await invite(boss, `s2-${boss.id}@example.test`)).ok).toBe(true)
    // 4 seats taken: 3 + 0 is too few.
    expect(await setExtraSeats(boss, 0)).toEqual({ ok: false, code: 'seats_in_use' })
    expect(await setExtraSeats(boss, 1)).toEqual({ ok: true, extraSeats: 1 })
  })

  test('the trial has no extra seats, and only the owner buys them', async () => {
    process.env.BILLING_SANDBOX = 'true'
    const trial = await owner(null)
    expect(await setExtraSeats(trial, 1)).toEqual({ ok: false, code: 'seats_need_plan' })
    const boss = await owner('professional')
    const colleague = await owner(null)
    await invite(boss, colleague.email)
    const { rows } = await admin.query<{ link: string }>('select link from auth.local_outbox where to_email = $1 order by id desc limit 1', [colleague.email])
    await acceptInvitation(colleague, rows[0]!.link.split('/invitations/')[1]!)
    const member = (await memberSession(colleague.id, boss.workspace.id))!
    await expect(setExtraSeats(member, 3)).rejects.toMatchObject({ init: { status: 403 } })
  })
})

describe('with Stripe', () => {
  test("the seat price's quantity on the subscription is created, then changed; the webhook keeps the count in step", async () => {
    Object.assign(process.env, STRIPE_ENV)
    const subscriptionId = `sub_${randomUUID().replace(/-/g, '').slice(0, 14)}`
    const workspaceId = randomUUID()
    let seatItem: { id: string; quantity: number } | null = null
    const start = new Date()
    // The subscription as Stripe answers it: the plan's item, and the seat item once there is one.
    const current = () => {
      const subscription = subscriptionObject({ userId: workspaceId, id: subscriptionId, start, end: addMonths(start, 1), priceId: 'price_pro_m' })
      const plan = subscription.items.data[0]
      if (seatItem) subscription.items.data.push({ ...plan, id: seatItem.id, quantity: seatItem.quantity, price: { ...plan.price, id: 'price_seat_m', lookup_key: null } })
      return subscription
    }
    server = await startFixtureServer((request) => {
      const path = request.path.split('?')[0]
      if (request.method === 'GET' && path === `/v1/subscriptions/${subscriptionId}`) return { body: current() }
      if (request.method === 'POST' && path === '/v1/subscription_items') {
        expect(request.form?.get('price')).toBe('price_seat_m')
        expect(request.form?.get('subscription')).toBe(subscriptionId)
        seatItem = { id: 'si_seats', quantity: Number(request.form?.get('quantity')) }
        return { body: { id: 'si_seats', object: 'subscription_item', quantity: seatItem.quantity, price: { id: 'price_seat_m', object: 'price' } } }
      }
      if (request.method === 'POST' && path === '/v1/subscription_items/si_seats') {
        seatItem = { id: 'si_seats', quantity: Number(request.form?.get('quantity')) }
        return { body: { id: 'si_seats', object: 'subscription_item', quantity: seatItem.quantity, price: { id: 'price_seat_m', object: 'price' } } }
      }
      return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${path})` } } }
    })
    process.env.STRIPE_API_BASE = server.url
    const boss = await owner('professional', subscriptionId, workspaceId)
    expect(await setExtraSeats(boss, 3)).toEqual({ ok: true, extraSeats: 3 })
    expect(seatItem).toEqual({ id: 'si_seats', quantity: 3 })
    expect(await setExtraSeats(boss, 5)).toEqual({ ok: true, extraSeats: 5 })
    expect(seatItem).toEqual({ id: 'si_seats', quantity: 5 })
    expect((await readTeam(boss)).seats.limit).toBe(8)

    // The quantity changed in Stripe (its dashboard, its portal): the subscription event brings it here.
    seatItem = { id: 'si_seats', quantity: 2 }
    const answer = await handleStripeWebhook(webhookRequest(stripeEvent('customer.subscription.updated', current()), 'whsec_fixture'))
    expect(answer.status).toBe(200)
    expect((await readTeam(boss)).seats).toMatchObject({ limit: 5, extra: 2 })
  })

  test('Stripe refusing the change bills nothing and changes nothing', async () => {
    Object.assign(process.env, STRIPE_ENV)
    server = await startFixtureServer(() => ({ status: 400, body: { error: { type: 'invalid_request_error', message: 'No such subscription' } } }))
    process.env.STRIPE_API_BASE = server.url
    const boss = await owner('professional', 'sub_missing')
    expect(await setExtraSeats(boss, 2)).toEqual({ ok: false, code: 'seats_provider_failed' })
    expect((await readTeam(boss)).seats.extra).toBe(0)
  })
})
