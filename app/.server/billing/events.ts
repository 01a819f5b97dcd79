// Payment events → subscriptions and credits. ONE code path for Stripe webhooks and the local
// sandbox: both hand a Stripe-shaped event to processBillingEvent().
//
// Every event is applied once: its id is inserted into billing_events (`on conflict do nothing`)
// in the same transaction as the subscription change and the credit reload, so a retried or
// duplicated delivery changes nothing. Credit reloads also carry their own idempotency key
// ('reload:<subscription row id>:<period start ISO>'), so the several events Stripe sends for one
// new period (checkout completed, subscription created/updated, invoice paid) reload once.
import { syncExtraSeats } from '#app/.server/workspaces/seats.ts'
import { sql } from 'kysely'
import { z } from 'zod'
import { isBillingFrequency, isPaidPlanId, nextCreditDate, type BillingFrequency } from '#app/domain/billing.ts'
import { PLAN_CATALOG, planIdFromLabel, type PaidPlanId } from '#app/domain/plans.ts'
import type { SubscriptionStatus } from '#app/.server/db.ts'
import { billingDb, type BillingTrx } from './db.ts'
import { planForPrice } from './stripe.ts'
import { isUuid } from '#app/domain/ids.ts'

// ---------------------------------------------------------------------------
// The parts of Stripe's objects we read (API 2025+: periods live on subscription items; the
// older top-level fields are read too). Loose: every other field is ignored.

const Metadata = z.record(z.string(), z.string()).nullish()
const IdOrObject = z.union([z.string(), z.looseObject({ id: z.string() })]).nullish()

const PriceSchema = z.looseObject({
  id: z.string().nullish(),
  lookup_key: z.string().nullish(),
  metadata: Metadata,
  recurring: z.looseObject({ interval: z.string().nullish() }).nullish(),
})

const SubscriptionSchema = z.looseObject({
  id: z.string().min(1),
  customer: IdOrObject,
  status: z.string(),
  cancel_at_period_end: z.boolean().nullish(),
  cancel_at: z.number().nullish(),
  ended_at: z.number().nullish(),
  current_period_start: z.number().nullish(),
  current_period_end: z.number().nullish(),
  metadata: Metadata,
  items: z
    .looseObject({
      data: z.array(
        z.looseObject({
          price: PriceSchema.nullish(),
          plan: PriceSchema.nullish(),
          quantity: z.number().nullish(),
          current_period_start: z.number().nullish(),
          current_period_end: z.number().nullish(),
        }),
      ),
    })
    .nullish(),
})
export type SubscriptionObject = z.infer<typeof SubscriptionSchema>

const CheckoutSessionSchema = z.looseObject({
  id: z.string(),
  mode: z.string().nullish(),
  client_reference_id: z.string().nullish(),
  customer: IdOrObject,
  metadata: Metadata,
  subscription: z.union([z.string(), SubscriptionSchema]).nullish(),
})

const InvoiceSchema = z.looseObject({
  id: z.string().nullish(),
  billing_reason: z.string().nullish(),
  subscription: IdOrObject, // before API 2025-03-31
  parent: z
    .looseObject({
      subscription_details: z.looseObject({ subscription: IdOrObject, metadata: Metadata }).nullish(),
    })
    .nullish(),
  lines: z
    .looseObject({
      data: z.array(z.looseObject({ period: z.looseObject({ start: z.number(), end: z.number() }).nullish() })),
    })
    .nullish(),
})

export interface BillingEvent {
  id: string
  type: string
  created?: number
  data: { object: unknown }
}

const EventSchema = z.looseObject({ id: z.string().min(1), type: z.string().min(1), created: z.number().optional(), data: z.looseObject({ object: z.unknown() }) })

/** A verified webhook payload (or sandbox event) as a BillingEvent; null when it is not shaped like one. */
export function asBillingEvent(value: unknown): BillingEvent | null {
  const parsed = EventSchema.safeParse(value)
  return parsed.success ? (parsed.data as BillingEvent) : null
}

export const HANDLED_EVENT_TYPES = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_succeeded',
] as const

type BillingOutcome =
  | 'applied'
  | 'customer_linked'
  | 'unhandled_type'
  | 'invalid_object'
  | 'unknown_user'
  | 'unknown_plan'
  | 'unknown_subscription'
  | 'missing_period'
  | 'already_canceled'
  | 'not_a_period_invoice'
  | 'not_a_subscription'

export interface BillingEventResult {
  /** 'duplicate': this event id was already processed, nothing changed. */
  status: 'processed' | 'duplicate'
  outcome: BillingOutcome | 'duplicate'
  userId: string | null
  /** Whether credits were reloaded by this event. */
  reloaded: boolean
}

// ---------------------------------------------------------------------------

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null))
const fromUnix = (seconds: number | null | undefined) => (typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(seconds * 1000) : null)

/** Stripe's status → ours (user_subscriptions.status). Only active and canceling count (SPEC §4). */
export function mapSubscriptionStatus(stripeStatus: string, cancelScheduled: boolean): SubscriptionStatus {
  switch (stripeStatus) {
    case 'active':
    case 'trialing':
      return cancelScheduled ? 'canceling' : 'active'
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled'
    case 'incomplete':
      return 'incomplete'
    default: // past_due, unpaid, paused
      return 'past_due'
  }
}

/** The period the subscription is in: the earliest item end and the latest item start. */
export function subscriptionPeriod(subscription: SubscriptionObject): { start: Date | null; end: Date | null } {
  const items = subscription.items?.data ?? []
  const starts = items.map((item) => item.current_period_start).filter((value): value is number => typeof value === 'number')
  const ends = items.map((item) => item.current_period_end).filter((value): value is number => typeof value === 'number')
  return {
    start: fromUnix(starts.length ? Math.max(...starts) : subscription.current_period_start),
    end: fromUnix(ends.length ? Math.min(...ends) : subscription.current_period_end),
  }
}

function subscriptionPlan(subscription: SubscriptionObject): { plan: PaidPlanId; frequency: BillingFrequency } | null {
  for (const item of subscription.items?.data ?? []) {
    const match = planForPrice(item.price) ?? planForPrice(item.plan)
    if (match) return match
  }
  const plan = subscription.metadata?.plan_id
  const frequency = subscription.metadata?.frequency
  if (isPaidPlanId(plan) && isBillingFrequency(frequency)) return { plan, frequency }
  return null
}

/** The workspace a subscription is for (its metadata's `user_id` names the workspace; a personal one's id is its user's). */
async function userExists(trx: BillingTrx, userId: string | null | undefined): Promise<string | null> {
  if (!isUuid(userId)) return null
  const row = await trx.selectFrom('workspaces').select('id').where('id', '=', userId).executeTakeFirst()
  return row?.id ?? null
}

async function linkCustomer(trx: BillingTrx, userId: string, customerId: string | null) {
  if (!customerId) return
  await trx
    .insertInto('billing_customers')
    .values({ user_id: userId, stripe_customer_id: customerId })
    .onConflict((oc) => oc.doNothing())
    .execute()
}

/** Resets the user's credits to the plan allowance; false when this key was already used. */
async function reloadCredits(trx: BillingTrx, userId: string, credits: number, key: string, metadata: Record<string, string>): Promise<boolean> {
  const { rows } = await sql<{ ok: boolean }>`select public.apply_credit_change(${userId}::uuid, ${credits}, 'subscription_reload', ${key}, null, null, null, ${JSON.stringify(metadata)}::jsonb) as ok`.execute(trx)
  return rows[0]?.ok === true
}

export function reloadKey(subscriptionRowId: string, at: Date) {
  return `reload:${subscriptionRowId}:${at.toISOString()}`
}

function capNextCreditDate(next: Date | null, periodEnd: Date, canceling: boolean): Date | null {
  if (!next) return null
  if (next.getTime() >= periodEnd.getTime()) return canceling ? null : periodEnd
  return next
}

// ---------------------------------------------------------------------------

async function applySubscription(
  trx: BillingTrx,
  event: BillingEvent,
  subscription: SubscriptionObject,
  { deleted, userHint, now }: { deleted: boolean; userHint?: string | null; now: Date },
): Promise<{ outcome: BillingOutcome; userId: string | null; reloaded: boolean }> {
  const existing = await trx
    .selectFrom('user_subscriptions')
    .selectAll()
    .where('stripe_subscription_id', '=', subscription.id)
    .forUpdate()
    .executeTakeFirst()
  const customerId = idOf(subscription.customer)
  let userId =
    (await userExists(trx, subscription.metadata?.user_id)) ?? (await userExists(trx, userHint)) ?? existing?.user_id ?? null
  if (!userId && customerId) {
    const link = await trx.selectFrom('billing_customers').select('user_id').where('stripe_customer_id', '=', customerId).executeTakeFirst()
    userId = link?.user_id ?? null
  }
  if (!userId) return { outcome: 'unknown_user', userId: null, reloaded: false }
  // Stripe never revives a canceled subscription: a late "updated" must not undo a "deleted".
  if (existing?.status === 'canceled' && !deleted) return { outcome: 'already_canceled', userId, reloaded: false }

  const planInfo = subscriptionPlan(subscription) ?? (existing ? planFromRow(existing) : null)
  if (!planInfo) return { outcome: 'unknown_plan', userId, reloaded: false }
  const period = subscriptionPeriod(subscription)
  if (!period.end) return { outcome: 'missing_period', userId, reloaded: false }

  const cancelAt = fromUnix(subscription.cancel_at)
  const cancelScheduled = Boolean(subscription.cancel_at_period_end) || cancelAt !== null
  const status: SubscriptionStatus = deleted ? 'canceled' : mapSubscriptionStatus(subscription.status, cancelScheduled)
  // The plan is kept until the scheduled cancellation (or the end of the period), then ends.
  let periodEnd = period.end
  if (cancelAt && cancelAt.getTime() < periodEnd.getTime()) periodEnd = cancelAt
  if (deleted) {
    const endedAt = fromUnix(subscription.ended_at) ?? now
    if (endedAt.getTime() < periodEnd.getTime()) periodEnd = endedAt
  }

  await linkCustomer(trx, userId, customerId)
  const values = {
    plan_id: planInfo.plan,
    status,
    frequency: planInfo.frequency,
    current_period_end: periodEnd,
    stripe_customer_id: customerId,
  }
  const row = await trx
    .insertInto('user_subscriptions')
    .values({ ...values, user_id: userId, stripe_subscription_id: subscription.id, next_credit_date: null })
    .onConflict((oc) => oc.column('stripe_subscription_id').doUpdateSet(values))
    .returning(['id'])
    .executeTakeFirstOrThrow()

  const counts = (status === 'active' || status === 'canceling') && periodEnd.getTime() > now.getTime()
  let next: Date | null = null
  let reloaded = false
  if (counts) {
    const canceling = status === 'canceling'
    const periodStart = period.start ?? now
    const credits = PLAN_CATALOG[planInfo.plan].monthlyCredits
    const metadata = { event: event.id, plan: planInfo.plan, frequency: planInfo.frequency, subscription: subscription.id }
    // A new period (or the first time the subscription counts): reload to the plan allowance.
    reloaded = await reloadCredits(trx, userId, credits, reloadKey(row.id, periodStart), metadata)
    if (reloaded) {
      next = nextCreditDate({ periodStart, periodEnd, after: new Date(Math.max(now.getTime(), periodStart.getTime())), canceling })
    } else {
      // Same period: an upgrade tops the balance up to the bigger allowance (once per plan and
      // period); a downgrade keeps the credits until the next reload.
      const previous = existing ? planFromRow(existing) : null
      if (previous && PLAN_CATALOG[previous.plan].monthlyCredits < credits && existing?.status !== 'canceled') {
        reloaded = await reloadCredits(trx, userId, credits, `upgrade:${row.id}:${periodStart.toISOString()}:${planInfo.plan}`, metadata)
      }
      const kept = existing?.next_credit_date ?? null
      next = kept
        ? capNextCreditDate(kept, periodEnd, canceling)
        : nextCreditDate({ periodStart, periodEnd, after: now, canceling })
    }
  }
  await trx.updateTable('user_subscriptions').set({ next_credit_date: next }).where('id', '=', row.id).where('user_id', '=', userId).execute()
  // Seats bought beyond the plan's follow the subscription's seat quantity (none once it has ended).
  await syncExtraSeats(trx, userId, deleted ? [] : (subscription.items?.data ?? []))
  return { outcome: 'applied', userId, reloaded }
}

function planFromRow(row: { plan_id: string; frequency: string | null }): { plan: PaidPlanId; frequency: BillingFrequency } | null {
  const plan = planIdFromLabel(row.plan_id)
  if (!isPaidPlanId(plan)) return null
  return { plan, frequency: isBillingFrequency(row.frequency) ? row.frequency : 'monthly' }
}

async function applyInvoice(trx: BillingTrx, event: BillingEvent, now: Date): Promise<{ outcome: BillingOutcome; userId: string | null; reloaded: boolean }> {
  const parsed = InvoiceSchema.safeParse(event.data.object)
  if (!parsed.success) return { outcome: 'invalid_object', userId: null, reloaded: false }
  const invoice = parsed.data
  // Proration invoices (plan changes) are handled by customer.subscription.updated.
  if (invoice.billing_reason && invoice.billing_reason !== 'subscription_create' && invoice.billing_reason !== 'subscription_cycle') {
    return { outcome: 'not_a_period_invoice', userId: null, reloaded: false }
  }
  const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription) ?? idOf(invoice.subscription)
  if (!subscriptionId) return { outcome: 'not_a_subscription', userId: null, reloaded: false }
  const row = await trx.selectFrom('user_subscriptions').selectAll().where('stripe_subscription_id', '=', subscriptionId).forUpdate().executeTakeFirst()
  // Not known yet (events arrive in any order): the subscription event will reload when it comes.
  if (!row) return { outcome: 'unknown_subscription', userId: null, reloaded: false }
  const planInfo = planFromRow(row)
  if (!planInfo) return { outcome: 'unknown_plan', userId: row.user_id, reloaded: false }
  const periods = (invoice.lines?.data ?? []).map((line) => line.period).filter((period) => period != null)
  const latest = periods.sort((a, b) => b.end - a.end)[0]
  if (!latest) return { outcome: 'missing_period', userId: row.user_id, reloaded: false }
  const periodStart = new Date(latest.start * 1000)
  const invoiceEnd = new Date(latest.end * 1000)
  if (row.status !== 'active' && row.status !== 'canceling') return { outcome: 'applied', userId: row.user_id, reloaded: false }
  const canceling = row.status === 'canceling'
  // A paid renewal can arrive before customer.subscription.updated: it extends the period.
  const periodEnd = canceling || !row.current_period_end || row.current_period_end.getTime() >= invoiceEnd.getTime() ? row.current_period_end : invoiceEnd
  if (!periodEnd || periodEnd.getTime() <= now.getTime()) return { outcome: 'applied', userId: row.user_id, reloaded: false }
  const reloaded = await reloadCredits(trx, row.user_id, PLAN_CATALOG[planInfo.plan].monthlyCredits, reloadKey(row.id, periodStart), {
    event: event.id,
    plan: planInfo.plan,
    frequency: planInfo.frequency,
    subscription: subscriptionId,
  })
  const next = reloaded
    ? nextCreditDate({ periodStart, periodEnd, after: new Date(Math.max(now.getTime(), periodStart.getTime())), canceling })
    : capNextCreditDate(row.next_credit_date, periodEnd, canceling)
  await trx
    .updateTable('user_subscriptions')
    .set({ current_period_end: periodEnd, next_credit_date: next })
    .where('id', '=', row.id)
    .where('user_id', '=', row.user_id)
    .execute()
  return { outcome: 'applied', userId: row.user_id, reloaded }
}

async function dispatch(trx: BillingTrx, event: BillingEvent, now: Date): Promise<{ outcome: BillingOutcome; userId: string | null; reloaded: boolean }> {
  switch (event.type) {
    case 'checkout.session.completed': {
      const parsed = CheckoutSessionSchema.safeParse(event.data.object)
      if (!parsed.success) return { outcome: 'invalid_object', userId: null, reloaded: false }
      const session = parsed.data
      if (session.mode && session.mode !== 'subscription') return { outcome: 'not_a_subscription', userId: null, reloaded: false }
      const userId = (await userExists(trx, session.client_reference_id)) ?? (await userExists(trx, session.metadata?.user_id))
      if (!userId) return { outcome: 'unknown_user', userId: null, reloaded: false }
      await linkCustomer(trx, userId, idOf(session.customer))
      // The webhook expands the subscription before calling us; a bare id is left to the
      // customer.subscription.* events that Stripe also sends.
      if (session.subscription && typeof session.subscription === 'object') {
        return applySubscription(trx, event, session.subscription, { deleted: false, userHint: userId, now })
      }
      return { outcome: 'customer_linked', userId, reloaded: false }
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const parsed = SubscriptionSchema.safeParse(event.data.object)
      if (!parsed.success) return { outcome: 'invalid_object', userId: null, reloaded: false }
      return applySubscription(trx, event, parsed.data, { deleted: event.type === 'customer.subscription.deleted', now })
    }
    case 'invoice.paid':
    case 'invoice.payment_succeeded':
      return applyInvoice(trx, event, now)
    default:
      return { outcome: 'unhandled_type', userId: null, reloaded: false }
  }
}

/**
 * Applies one payment event, once. `trx` lets the sandbox change its own state and apply the event
 * atomically; the webhook passes none and gets its own transaction.
 */
export async function processBillingEvent(
  event: BillingEvent,
  { source, now = new Date(), trx }: { source: 'stripe' | 'sandbox'; now?: Date; trx?: BillingTrx },
): Promise<BillingEventResult> {
  const run = async (tx: BillingTrx): Promise<BillingEventResult> => {
    const object = (event.data?.object ?? {}) as { id?: unknown; object?: unknown }
    const inserted = await tx
      .insertInto('billing_events')
      .values({
        id: event.id,
        type: event.type,
        source,
        payload: { object_id: typeof object.id === 'string' ? object.id : null, object_type: typeof object.object === 'string' ? object.object : null },
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!inserted) return { status: 'duplicate', outcome: 'duplicate', userId: null, reloaded: false }
    const result = await dispatch(tx, event, now)
    await tx.updateTable('billing_events').set({ outcome: result.outcome, user_id: result.userId }).where('id', '=', event.id).execute()
    return { status: 'processed', ...result }
  }
  return trx ? run(trx) : billingDb().transaction().execute(run)
}
