// POST /api/stripe/webhook: verifies Stripe's signature over the raw body, then applies the event
// through processBillingEvent() (the sandbox's code path too). Answers:
//   200 processed, duplicate or ignored · 400 bad signature or payload · 413 too large ·
//   404 webhooks not configured (the endpoint does not exist) · 500 processing failed (Stripe retries; nothing was applied).
import { stripeWebhookSecret } from './config.ts'
import { asBillingEvent, HANDLED_EVENT_TYPES, processBillingEvent, type BillingEvent } from './events.ts'
import { constructStripeEvent, getStripe } from './stripe.ts'
import { env } from '#app/.server/env.server.ts'

const MAX_BODY_BYTES = 512 * 1024

export interface WebhookAnswer {
  status: number
  body: Record<string, unknown>
}

async function readLimited(request: Request): Promise<string | null> {
  const declared = Number(request.headers.get('Content-Length') ?? '0')
  if (declared > MAX_BODY_BYTES) return null
  const text = await request.text()
  return Buffer.byteLength(text, 'utf8') > MAX_BODY_BYTES ? null : text
}

/**
 * With the Stripe API configured, subscription events are applied with the subscription as it is
 * now (events can arrive late or out of order), and checkout sessions with their subscription.
 */
async function withFreshSubscription(event: BillingEvent): Promise<BillingEvent> {
  if (!env.STRIPE_SECRET_KEY) return event
  const object = event.data.object as { subscription?: unknown; id?: unknown }
  if (event.type === 'checkout.session.completed' && typeof object.subscription === 'string') {
    const subscription = await getStripe().subscriptions.retrieve(object.subscription)
    return { ...event, data: { ...event.data, object: { ...object, subscription } } }
  }
  if ((event.type === 'customer.subscription.created' || event.type === 'customer.subscription.updated') && typeof object.id === 'string') {
    const subscription = await getStripe().subscriptions.retrieve(object.id)
    return { ...event, data: { ...event.data, object: subscription } }
  }
  return event
}

export async function handleStripeWebhook(request: Request): Promise<WebhookAnswer> {
  const secret = stripeWebhookSecret()
  if (!secret) return { status: 404, body: { error: 'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET).' } }
  const signature = request.headers.get('Stripe-Signature')
  if (!signature) return { status: 400, body: { error: 'Missing Stripe-Signature header.' } }
  const payload = await readLimited(request)
  if (payload === null) return { status: 413, body: { error: 'Payload too large.' } }
  let verified: unknown
  try {
    verified = constructStripeEvent(payload, signature, secret)
  } catch {
    return { status: 400, body: { error: 'Invalid signature.' } }
  }
  const event = asBillingEvent(verified)
  if (!event) return { status: 400, body: { error: 'Not an event.' } }
  if (!(HANDLED_EVENT_TYPES as readonly string[]).includes(event.type)) {
    return { status: 200, body: { received: true, outcome: 'unhandled_type' } }
  }
  try {
    const result = await processBillingEvent(await withFreshSubscription(event), { source: 'stripe' })
    if (result.status === 'processed' && result.outcome !== 'applied' && result.outcome !== 'customer_linked') {
      console.warn(`[billing] webhook ${event.id} (${event.type}) ignored: ${result.outcome}`)
    }
    return { status: 200, body: { received: true, status: result.status, outcome: result.outcome } }
  } catch (error) {
    console.error(`[billing] webhook ${event.id} (${event.type}) failed:`, error)
    return { status: 500, body: { error: 'Processing failed; retry later.' } }
  }
}
