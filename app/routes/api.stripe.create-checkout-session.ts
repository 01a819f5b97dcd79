import { data } from 'react-router'
import type { Route } from './+types/api.stripe.create-checkout-session'
import { readJsonObject, requireApiUser } from '#app/.server/api.ts'
import { checkoutApi } from '#app/.server/billing/api.ts'
import { appOrigin } from '#app/.server/billing/config.ts'
import { getInstance, getLocale } from '#app/.server/i18n.ts'

/**
 * POST /api/stripe/create-checkout-session {plan_id, frequency: 'monthly'|'annual', user_id}
 * → {url} or {error, code} (SPEC §7). The user is the session's: another user_id is a 403.
 * An optional idempotency_key makes retries return the same session.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return data({ error: 'Use POST', code: 'method_not_allowed' }, { status: 405 })
  const user = await requireApiUser(context)
  const body = await readJsonObject(request, context)
  const t = getInstance(context).t
  const answer = await checkoutApi(user, body, { origin: appOrigin(request), locale: getLocale(context), t: (key) => t(key) })
  return data(answer.body, { status: answer.status })
}

export function loader() {
  return data({ error: 'Use POST', code: 'method_not_allowed' }, { status: 405 })
}
