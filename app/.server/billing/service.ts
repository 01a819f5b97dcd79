// The billing service: checkout and customer-portal sessions (Stripe, or the local sandbox when no
// STRIPE_SECRET_KEY is set) and the subscription overview of the subscription page.
import crypto from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { SessionUser } from '#app/.server/auth.ts'
import { adminDb, withUser, type Database } from '#app/.server/db.ts'
import { isBillingFrequency, type BillingFrequency } from '#app/domain/billing.ts'
import { resolvePlan, type PaidPlanId, type PlanId } from '#app/domain/plans.ts'
import { can } from '#app/domain/workspace-roles.ts'
import { billingMode, stripePriceId } from './config.ts'
import { billingDb } from './db.ts'
import { sandboxCheckoutUrl, sandboxPortalUrl } from './sandbox.ts'
import { getStripe, isStripeRefusal } from './stripe.ts'
import { currentSubscription } from '#app/.server/credits.ts'

export type BillingError =
  /** "Error creating checkout session." */
  | 'checkout_failed'
  /** "Error creating customer portal session." */
  | 'portal_failed'
  /** "Network or server error." */
  | 'network'
  /** A paid user asked for a checkout: they manage their plan in the portal. */
  | 'already_subscribed'
  /** No payment provider here (billing off): plan changes are not offered. */
  | 'unavailable'
  /** Only the workspace's owner manages its subscription. */
  | 'forbidden_role'

export type SessionResult = { ok: true; url: string } | { ok: false; error: BillingError }

export interface SubscriptionOverview {
  plan: PlanId
  frequency: BillingFrequency | null
  status: 'active' | 'canceling' | null
  /** ISO date: renews on (active) or ends on (canceling). */
  currentPeriodEnd: string | null
}

export const FREE_TRIAL_OVERVIEW: SubscriptionOverview = { plan: 'free_trial', frequency: null, status: null, currentPeriodEnd: null }

/** The same rule as the credits summary (SPEC §4): the newest active/canceling subscription, if its period is running. */
async function readCurrent(db: Kysely<Database> | Transaction<Database>, userId: string, now: Date): Promise<SubscriptionOverview> {
  const row = await currentSubscription(db, userId)
  const plan = resolvePlan(row ?? null, now)
  if (!row || plan === 'free_trial') return FREE_TRIAL_OVERVIEW
  return {
    plan,
    frequency: isBillingFrequency(row.frequency) ? row.frequency : 'monthly',
    status: row.status === 'canceling' ? 'canceling' : 'active',
    currentPeriodEnd: row.current_period_end ? row.current_period_end.toISOString() : null,
  }
}

/** For the subscription page: read as the user (RLS). */
export async function getSubscriptionOverview(user: SessionUser, now: Date = new Date()): Promise<SubscriptionOverview> {
  return withUser(user.claims, (trx) => readCurrent(trx, user.workspace.id, now))
}

// ---------------------------------------------------------------------------

async function findCustomerId(userId: string): Promise<string | null> {
  const db = billingDb()
  const link = await db.selectFrom('billing_customers').select('stripe_customer_id').where('user_id', '=', userId).executeTakeFirst()
  if (link) return link.stripe_customer_id
  const fromSubscription = await db
    .selectFrom('user_subscriptions')
    .select('stripe_customer_id')
    .where('user_id', '=', userId)
    .where('stripe_customer_id', 'is not', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  return fromSubscription?.stripe_customer_id ?? null
}

/** The user's Stripe customer, created once (idempotency key per user) and remembered. */
async function ensureCustomer(user: SessionUser): Promise<string> {
  const existing = await findCustomerId(user.workspace.id)
  if (existing) return existing
  const customer = await getStripe().customers.create(
    { email: user.email || undefined, metadata: { user_id: user.workspace.id } },
    { idempotencyKey: `leadatlas-customer:${user.workspace.id}` },
  )
  const db = billingDb()
  await db.insertInto('billing_customers').values({ user_id: user.workspace.id, stripe_customer_id: customer.id }).onConflict((oc) => oc.doNothing()).execute()
  const saved = await db.selectFrom('billing_customers').select('stripe_customer_id').where('user_id', '=', user.workspace.id).executeTakeFirst()
  return saved?.stripe_customer_id ?? customer.id
}

const stripeLocale = (locale: string | undefined) => (locale === 'fr' ? 'fr' : locale === 'en' ? 'en' : 'auto')

/**
 * A checkout session for a free-trial user (SPEC §4): its url, or an error. `idempotencyKey` comes
 * from the submitted form (or the API caller), so a double submit returns the same session.
 */
export async function createCheckoutSession({
  user,
  plan,
  frequency,
  origin,
  idempotencyKey,
  locale,
  now = new Date(),
}: {
  user: SessionUser
  plan: PaidPlanId
  frequency: BillingFrequency
  origin: string
  idempotencyKey: string
  locale?: string
  now?: Date
}): Promise<SessionResult> {
  if (!can(user.workspace.role, 'billing')) return { ok: false, error: 'forbidden_role' }
  try {
    const current = await readCurrent(adminDb(), user.workspace.id, now)
    if (current.plan !== 'free_trial') return { ok: false, error: 'already_subscribed' }
    const mode = billingMode()
    if (mode === 'off') return { ok: false, error: 'unavailable' }
    if (mode === 'sandbox') return { ok: true, url: sandboxCheckoutUrl({ userId: user.workspace.id, plan, frequency, idempotencyKey, origin, now }) }

    const price = stripePriceId(plan, frequency)
    if (!price) {
      console.error(`[billing] no Stripe price configured for ${plan}/${frequency}: set STRIPE_PRICE_${plan.toUpperCase()}_${frequency.toUpperCase()}`)
      return { ok: false, error: 'checkout_failed' }
    }
    const customer = await ensureCustomer(user)
    const metadata = { user_id: user.workspace.id, plan_id: plan, frequency }
    const key = crypto.createHash('sha256').update(`${user.workspace.id}:${plan}:${frequency}:${idempotencyKey}`).digest('hex')
    const session = await getStripe().checkout.sessions.create(
      {
        mode: 'subscription',
        customer,
        client_reference_id: user.workspace.id,
        line_items: [{ price, quantity: 1 }],
        metadata,
        subscription_data: { metadata },
        success_url: `${origin}/subscription?checkout=success`,
        cancel_url: `${origin}/subscription?checkout=canceled&frequency=${frequency}`,
        locale: stripeLocale(locale),
      },
      { idempotencyKey: `leadatlas-checkout:${key}` },
    )
    if (!session.url) return { ok: false, error: 'checkout_failed' }
    return { ok: true, url: session.url }
  } catch (error) {
    console.error('[billing] checkout session failed:', (error as Error).message)
    return { ok: false, error: isStripeRefusal(error) ? 'checkout_failed' : 'network' }
  }
}

/** A customer-portal session for a paid user (SPEC §4): its url, or an error. */
export async function createPortalSession({
  user,
  origin,
  plan,
  frequency,
  locale,
}: {
  user: SessionUser
  origin: string
  /** The plan the user clicked, preselected by the sandbox portal. */
  plan?: PaidPlanId
  frequency?: BillingFrequency
  locale?: string
}): Promise<SessionResult> {
  if (!can(user.workspace.role, 'billing')) return { ok: false, error: 'forbidden_role' }
  try {
    const mode = billingMode()
    if (mode === 'off') return { ok: false, error: 'unavailable' }
    if (mode === 'sandbox') return { ok: true, url: sandboxPortalUrl({ userId: user.workspace.id, origin, plan, frequency }) }
    const customer = await findCustomerId(user.workspace.id)
    if (!customer) {
      console.error(`[billing] no Stripe customer for user ${user.workspace.id}: nothing to manage in the portal`)
      return { ok: false, error: 'portal_failed' }
    }
    const session = await getStripe().billingPortal.sessions.create({ customer, return_url: `${origin}/subscription`, locale: stripeLocale(locale) })
    return { ok: true, url: session.url }
  } catch (error) {
    console.error('[billing] portal session failed:', (error as Error).message)
    return { ok: false, error: isStripeRefusal(error) ? 'portal_failed' : 'network' }
  }
}

/** The locale key of each error's text (SPEC §8). */
export const BILLING_ERROR_KEYS: Record<BillingError, string> = {
  checkout_failed: 'subscription.errors.checkout',
  portal_failed: 'subscription.errors.portal',
  network: 'subscription.errors.network',
  already_subscribed: 'subscription.errors.alreadySubscribed',
  unavailable: 'subscription.errors.unavailable',
  forbidden_role: 'subscription.errors.ownerOnly',
}

/** The HTTP status of each error: the caller's conflict, our missing provider, or the provider failing. */
export function billingErrorStatus(error: BillingError): number {
  return error === 'already_subscribed' ? 409 : error === 'forbidden_role' ? 403 : error === 'unavailable' ? 503 : 502
}
