// The Stripe API client (only when STRIPE_SECRET_KEY is set) and the price <-> plan mapping.
import Stripe from 'stripe'
import { BILLING_FREQUENCIES, isPaidPlanId, type BillingFrequency } from '#app/domain/billing.ts'
import { PAID_PLAN_IDS, type PaidPlanId } from '#app/domain/plans.ts'
import { stripeApiBase, stripePriceId } from './config.ts'
import { env } from '#app/.server/env.server.ts'

let cached: { signature: string; client: Stripe } | undefined

/** One client per (key, API base): tests change both between cases. */
export function getStripe(): Stripe {
  const key = env.STRIPE_SECRET_KEY
  if (!key) throw new Error('STRIPE_SECRET_KEY is not set')
  const base = stripeApiBase()
  const signature = `${key}|${env.STRIPE_API_BASE ?? ''}`
  if (cached?.signature !== signature) {
    const client = new Stripe(key, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: 'LeadAtlas' },
      ...(base ? { host: base.host, port: base.port, protocol: base.protocol } : {}),
    })
    cached = { signature, client }
  }
  return cached.client
}

/**
 * Stripe answered and refused the request (bad price, invalid customer, auth…), as opposed to
 * network or server trouble (Stripe unreachable, timeouts, 5xx, our database): SPEC §8 shows the
 * first as "Error creating … session." and the second as "Network or server error.".
 */
export function isStripeRefusal(error: unknown): boolean {
  if (!(error instanceof Stripe.errors.StripeError)) return false
  if (error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeAPIError) return false
  return typeof error.statusCode !== 'number' || error.statusCode < 500
}

/** The webhook signature check (static: it needs only the webhook secret). */
export function constructStripeEvent(payload: string, signature: string, secret: string): unknown {
  return Stripe.webhooks.constructEvent(payload, signature, secret)
}

/** Sandbox price ids follow the same shape as the env-configured ones, so one mapping serves both. */
export function sandboxPriceId(plan: PaidPlanId, frequency: BillingFrequency) {
  return `price_sandbox_${plan}_${frequency}`
}

export interface PriceLike {
  id?: string | null
  lookup_key?: string | null
  metadata?: Record<string, string> | null
  recurring?: { interval?: string | null; interval_count?: number | null } | null
}

/**
 * Which plan and frequency a Stripe price stands for: the STRIPE_PRICE_* variables first, then the
 * sandbox ids, then the price's lookup_key / metadata ("professional_annual", plan_id=…), with the
 * frequency from its recurring interval. null when nothing matches.
 */
export function planForPrice(price: PriceLike | null | undefined): { plan: PaidPlanId; frequency: BillingFrequency } | null {
  if (!price) return null
  for (const plan of PAID_PLAN_IDS) {
    for (const frequency of BILLING_FREQUENCIES) {
      if (price.id && (price.id === stripePriceId(plan, frequency) || price.id === sandboxPriceId(plan, frequency))) return { plan, frequency }
    }
  }
  const intervalFrequency: BillingFrequency | null =
    price.recurring?.interval === 'year' ? 'annual' : price.recurring?.interval === 'month' ? 'monthly' : null
  const fromMetadata = price.metadata?.plan_id ?? price.metadata?.plan
  if (isPaidPlanId(fromMetadata) && intervalFrequency) return { plan: fromMetadata, frequency: intervalFrequency }
  const [lookupPlan, lookupFrequency] = (price.lookup_key ?? '').toLowerCase().split(/[_\s-]+/)
  if (isPaidPlanId(lookupPlan)) {
    const frequency = lookupFrequency === 'annual' || lookupFrequency === 'yearly' ? 'annual' : lookupFrequency === 'monthly' ? 'monthly' : intervalFrequency
    if (frequency) return { plan: lookupPlan, frequency }
  }
  return null
}
