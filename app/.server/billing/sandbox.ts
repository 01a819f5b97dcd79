// The local payment sandbox, used when STRIPE_SECRET_KEY is not set (the embedded default).
// It plays Stripe's part: it keeps its own record of each test subscription
// (billing_sandbox_subscriptions), and every change it makes is sent as a Stripe-shaped event
// through processBillingEvent() — the very code path of the Stripe webhook — in one transaction.
// Nothing is charged. Event ids are derived from the checkout nonce or the subscription version,
// so a double-submitted sandbox form applies once.
import crypto from 'node:crypto'
import type { Selectable } from 'kysely'
import { addMonths, periodMonths, planPricing, type BillingFrequency } from '#app/domain/billing.ts'
import type { PaidPlanId } from '#app/domain/plans.ts'
import { sandboxBillingSecret } from './config.ts'
import { billingDb, type BillingSandboxSubscriptionsTable, type BillingTrx } from './db.ts'
import { processBillingEvent, type BillingEvent, type BillingEventResult } from './events.ts'
import { sandboxPriceId } from './stripe.ts'
import { signSandboxToken, TOKEN_TTL_SECONDS, verifySandboxToken, type SandboxCheckoutToken, type SandboxPortalToken } from './tokens.ts'

const SANDBOX_CHECKOUT_PATH = '/billing/sandbox/checkout'
export const SANDBOX_PORTAL_PATH = '/billing/sandbox/portal'

export interface SandboxSubscription {
  id: string
  userId: string
  customerId: string
  plan: PaidPlanId
  frequency: BillingFrequency
  status: 'active' | 'canceled'
  cancelAtPeriodEnd: boolean
  currentPeriodStart: Date
  currentPeriodEnd: Date
  endedAt: Date | null
  version: number
}

type SandboxRow = Selectable<BillingSandboxSubscriptionsTable>

function fromRow(row: SandboxRow): SandboxSubscription {
  return {
    id: row.id,
    userId: row.user_id,
    customerId: row.customer_id,
    plan: row.plan_id,
    frequency: row.frequency,
    status: row.status,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    currentPeriodStart: row.current_period_start,
    currentPeriodEnd: row.current_period_end,
    endedAt: row.ended_at,
    version: row.version,
  }
}

/** Stripe timestamps are whole seconds: so are the sandbox's. */
function wholeSeconds(date: Date) {
  return new Date(Math.floor(date.getTime() / 1000) * 1000)
}
const unix = (date: Date) => Math.floor(date.getTime() / 1000)
const shortHash = (value: string) => crypto.createHash('sha256').update(value).digest('hex').slice(0, 24)

function sandboxCustomerId(userId: string) {
  return `cus_sandbox_${userId.replace(/-/g, '').slice(0, 24)}`
}

// ---------------------------------------------------------------------------
// Session urls (what the checkout / portal calls answer in sandbox mode)

/** The nonce comes from the caller's idempotency key: a double submit gets the same checkout session. */
export function sandboxCheckoutUrl({ userId, plan, frequency, idempotencyKey, origin, now = new Date() }: { userId: string; plan: PaidPlanId; frequency: BillingFrequency; idempotencyKey: string; origin: string; now?: Date }) {
  const token: SandboxCheckoutToken = {
    kind: 'checkout',
    userId,
    plan,
    frequency,
    nonce: shortHash(`${userId}:${plan}:${frequency}:${idempotencyKey}`),
    exp: unix(now) + TOKEN_TTL_SECONDS,
  }
  return `${origin}${SANDBOX_CHECKOUT_PATH}?session=${encodeURIComponent(signSandboxToken(token, sandboxBillingSecret()))}`
}

export function sandboxPortalUrl({ userId, origin, plan, frequency, now = new Date() }: { userId: string; origin: string; plan?: PaidPlanId; frequency?: BillingFrequency; now?: Date }) {
  const token: SandboxPortalToken = { kind: 'portal', userId, plan, frequency, nonce: crypto.randomBytes(8).toString('hex'), exp: unix(now) + TOKEN_TTL_SECONDS }
  return `${origin}${SANDBOX_PORTAL_PATH}?session=${encodeURIComponent(signSandboxToken(token, sandboxBillingSecret()))}`
}

export type TokenCheck<T> = { ok: true; token: T } | { ok: false; reason: 'invalid' | 'forbidden' }

/** Verifies a sandbox token and that it was made for this user (someone else's session → forbidden). */
export function readSandboxToken<K extends 'checkout' | 'portal'>(value: unknown, kind: K, userId: string): TokenCheck<K extends 'checkout' ? SandboxCheckoutToken : SandboxPortalToken> {
  const token = verifySandboxToken(value, sandboxBillingSecret())
  if (!token || token.kind !== kind) return { ok: false, reason: 'invalid' }
  if (token.userId !== userId) return { ok: false, reason: 'forbidden' }
  return { ok: true, token: token as K extends 'checkout' ? SandboxCheckoutToken : SandboxPortalToken }
}

// ---------------------------------------------------------------------------
// Stripe-shaped objects

function sandboxSubscriptionObject(subscription: SandboxSubscription) {
  const pricing = planPricing(subscription.plan, subscription.frequency)
  const cancelAt = subscription.cancelAtPeriodEnd ? unix(subscription.currentPeriodEnd) : null
  return {
    id: subscription.id,
    object: 'subscription',
    livemode: false,
    customer: subscription.customerId,
    status: subscription.status,
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
    cancel_at: cancelAt,
    canceled_at: subscription.endedAt ? unix(subscription.endedAt) : null,
    ended_at: subscription.endedAt ? unix(subscription.endedAt) : null,
    currency: 'eur',
    metadata: { user_id: subscription.userId, plan_id: subscription.plan, frequency: subscription.frequency },
    items: {
      object: 'list',
      data: [
        {
          id: `si_${subscription.id.slice(4)}`,
          object: 'subscription_item',
          quantity: 1,
          current_period_start: unix(subscription.currentPeriodStart),
          current_period_end: unix(subscription.currentPeriodEnd),
          price: {
            id: sandboxPriceId(subscription.plan, subscription.frequency),
            object: 'price',
            currency: 'eur',
            lookup_key: `${subscription.plan}_${subscription.frequency}`,
            unit_amount: pricing.amountPerPeriod * 100,
            recurring: { interval: subscription.frequency === 'annual' ? 'year' : 'month', interval_count: 1 },
            metadata: { plan_id: subscription.plan },
          },
        },
      ],
    },
  }
}

function sandboxEvent(id: string, type: string, object: unknown, now: Date): BillingEvent & { object: 'event'; livemode: false } {
  return { id, object: 'event', type, created: unix(now), livemode: false, data: { object } }
}

// ---------------------------------------------------------------------------
// Reads

export async function getSandboxSubscription(userId: string, now: Date = new Date()): Promise<SandboxSubscription | null> {
  const row = await billingDb()
    .selectFrom('billing_sandbox_subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .where('current_period_end', '>', now)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row ? fromRow(row) : null
}

// ---------------------------------------------------------------------------
// Checkout

export type SandboxResult = { ok: true; event: BillingEventResult | null } | { ok: false; reason: 'already_subscribed' | 'no_subscription' }

/** "Pay" a sandbox checkout session: creates the test subscription and sends checkout.session.completed. */
export async function confirmSandboxCheckout(token: SandboxCheckoutToken, now: Date = new Date()): Promise<SandboxResult> {
  const at = wholeSeconds(now)
  const subscriptionId = `sub_sandbox_${token.nonce}`
  return billingDb()
    .transaction()
    .execute(async (trx) => {
      // One subscription at a time per workspace, like the real checkout (a paid workspace is sent to the portal).
      await trx.selectFrom('workspaces').select('id').where('id', '=', token.userId).forUpdate().executeTakeFirst()
      const other = await trx
        .selectFrom('billing_sandbox_subscriptions')
        .select('id')
        .where('user_id', '=', token.userId)
        .where('status', '=', 'active')
        .where('current_period_end', '>', at)
        .where('id', '!=', subscriptionId)
        .executeTakeFirst()
      if (other) return { ok: false, reason: 'already_subscribed' } as const
      await trx
        .insertInto('billing_sandbox_subscriptions')
        .values({
          id: subscriptionId,
          user_id: token.userId,
          customer_id: sandboxCustomerId(token.userId),
          plan_id: token.plan,
          frequency: token.frequency,
          status: 'active',
          current_period_start: at,
          current_period_end: addMonths(at, periodMonths(token.frequency)),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
      const row = await trx.selectFrom('billing_sandbox_subscriptions').selectAll().where('id', '=', subscriptionId).where('user_id', '=', token.userId).executeTakeFirstOrThrow()
      const subscription = fromRow(row)
      const session = {
        id: `cs_sandbox_${token.nonce}`,
        object: 'checkout.session',
        mode: 'subscription',
        status: 'complete',
        payment_status: 'paid',
        client_reference_id: token.userId,
        customer: subscription.customerId,
        currency: 'eur',
        amount_total: planPricing(subscription.plan, subscription.frequency).amountPerPeriod * 100,
        metadata: { user_id: token.userId, plan_id: token.plan, frequency: token.frequency },
        subscription: sandboxSubscriptionObject(subscription),
      }
      const event = sandboxEvent(`evt_sandbox_cs_${token.nonce}`, 'checkout.session.completed', session, at)
      return { ok: true, event: await processBillingEvent(event, { source: 'sandbox', now: at, trx }) } as const
    })
}

// ---------------------------------------------------------------------------
// Portal

export type SandboxChange =
  | { action: 'update'; plan: PaidPlanId; frequency: BillingFrequency }
  | { action: 'cancel' }
  | { action: 'resume' }
  /** Sandbox only: the current period ends now (renewal, or the end of a canceling subscription). */
  | { action: 'end_period' }

/**
 * Applies a portal change the way Stripe would, then sends the resulting event. `version` is the
 * subscription version the form was rendered with: a stale or repeated submission changes nothing.
 */
export async function changeSandboxSubscription(
  { userId, subscriptionId, version, change }: { userId: string; subscriptionId: string; version: number; change: SandboxChange },
  now: Date = new Date(),
): Promise<SandboxResult> {
  const at = wholeSeconds(now)
  return billingDb()
    .transaction()
    .execute(async (trx) => {
      const row = await trx
        .selectFrom('billing_sandbox_subscriptions')
        .selectAll()
        .where('id', '=', subscriptionId)
        .where('user_id', '=', userId)
        .forUpdate()
        .executeTakeFirst()
      if (!row || row.status !== 'active') return { ok: false, reason: 'no_subscription' } as const
      if (row.version !== version) return { ok: true, event: null } as const
      const current = fromRow(row)
      const next = applyChange(current, change, at)
      if (!next) return { ok: true, event: null } as const
      return { ok: true, event: await saveAndSend(trx, current, next, at) } as const
    })
}

/** The new state after a change, or null when the change changes nothing. */
function applyChange(current: SandboxSubscription, change: SandboxChange, at: Date): { state: SandboxSubscription; type: string } | null {
  const months = periodMonths(current.frequency)
  // A new period always starts after the current one began (two changes within one second
  // must still be two periods, each with its reload).
  const newStart = at.getTime() > current.currentPeriodStart.getTime() ? at : new Date(current.currentPeriodStart.getTime() + 1000)
  switch (change.action) {
    case 'update': {
      if (change.plan === current.plan && change.frequency === current.frequency) return null
      // Like Stripe: a new billing interval starts a new period now; a new plan on the same
      // interval keeps the period (and the change is prorated).
      const newPeriod = change.frequency !== current.frequency
      return {
        type: 'customer.subscription.updated',
        state: {
          ...current,
          plan: change.plan,
          frequency: change.frequency,
          cancelAtPeriodEnd: false,
          currentPeriodStart: newPeriod ? newStart : current.currentPeriodStart,
          currentPeriodEnd: newPeriod ? addMonths(newStart, periodMonths(change.frequency)) : current.currentPeriodEnd,
        },
      }
    }
    case 'cancel':
      return current.cancelAtPeriodEnd ? null : { type: 'customer.subscription.updated', state: { ...current, cancelAtPeriodEnd: true } }
    case 'resume':
      return current.cancelAtPeriodEnd ? { type: 'customer.subscription.updated', state: { ...current, cancelAtPeriodEnd: false } } : null
    case 'end_period':
      if (current.cancelAtPeriodEnd) {
        return { type: 'customer.subscription.deleted', state: { ...current, status: 'canceled', currentPeriodEnd: at, endedAt: at } }
      }
      return { type: 'customer.subscription.updated', state: { ...current, currentPeriodStart: newStart, currentPeriodEnd: addMonths(newStart, months) } }
  }
}

async function saveAndSend(trx: BillingTrx, current: SandboxSubscription, next: { state: SandboxSubscription; type: string }, at: Date) {
  const version = current.version + 1
  const state = { ...next.state, version }
  await trx
    .updateTable('billing_sandbox_subscriptions')
    .set({
      plan_id: state.plan,
      frequency: state.frequency,
      status: state.status,
      cancel_at_period_end: state.cancelAtPeriodEnd,
      current_period_start: state.currentPeriodStart,
      current_period_end: state.currentPeriodEnd,
      ended_at: state.endedAt,
      version,
    })
    .where('id', '=', current.id)
    .where('user_id', '=', current.userId)
    .execute()
  const event = sandboxEvent(`evt_sandbox_${current.id.slice(12)}_v${version}`, next.type, sandboxSubscriptionObject(state), at)
  return processBillingEvent(event, { source: 'sandbox', now: at, trx })
}
