import { data } from 'react-router'
import type { Route } from './+types/api.stripe.webhook'
import { handleStripeWebhook } from '#app/.server/billing/webhook.ts'

/**
 * POST /api/stripe/webhook — Stripe's events, verified with STRIPE_WEBHOOK_SECRET over the raw
 * body. No session: the signature is the authentication (and Stripe sends no Origin header, so
 * the cross-site check lets it through).
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== 'POST') return data({ error: 'Use POST' }, { status: 405 })
  const answer = await handleStripeWebhook(request)
  return data(answer.body, { status: answer.status })
}

export function loader() {
  return data({ error: 'Use POST' }, { status: 405 })
}
