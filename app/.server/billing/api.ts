// The payment calls of SPEC §7 as JSON: POST /api/stripe/create-checkout-session
// {plan_id, frequency, user_id} and POST /api/stripe/create-portal-session {user_id} → {url} or
// {error} (a message, with a machine-readable `code`). The user is the session's; a user_id naming
// someone else is refused (403); bad input is a 400, never a 500.
import type { SessionUser } from '#app/.server/auth.ts'
import { isBillingFrequency, isPaidPlanId } from '#app/domain/billing.ts'
import { planIdFromLabel } from '#app/domain/plans.ts'
import { BILLING_ERROR_KEYS, billingErrorStatus, createCheckoutSession, createPortalSession, type BillingError } from './service.ts'

export interface ApiAnswer {
  status: number
  body: { url: string } | { error: string; code: string }
}

type Translate = (key: string) => string

const failure = (status: number, code: string, error: string): ApiAnswer => ({ status, body: { error, code } })

function errorAnswer(error: BillingError, t: Translate): ApiAnswer {
  return failure(billingErrorStatus(error), error, t(BILLING_ERROR_KEYS[error]))
}

/** user_id is optional; when sent it must be the signed-in user. */
function checkUserId(body: Record<string, unknown>, user: SessionUser, t: Translate): ApiAnswer | null {
  if (body.user_id === undefined || body.user_id === null) return null
  if (typeof body.user_id !== 'string') return failure(400, 'invalid_user_id', t('billing.api.invalidUserId'))
  if (body.user_id !== user.id) return failure(403, 'forbidden', t('api.forbidden'))
  return null
}

/** The caller's idempotency_key, a default one, or null when the one sent is unusable. */
function idempotencyKeyFrom(body: Record<string, unknown>, user: SessionUser, now: Date): string | null {
  const key = body.idempotency_key
  if (key === undefined || key === null) {
    // Without a key from the caller, identical calls within the same minute share a session.
    return `api:${user.id}:${Math.floor(now.getTime() / 60_000)}`
  }
  if (typeof key !== 'string' || key.length < 8 || key.length > 200) return null
  return key
}

export async function checkoutApi(
  user: SessionUser,
  body: Record<string, unknown>,
  { origin, locale, t, now = new Date() }: { origin: string; locale?: string; t: Translate; now?: Date },
): Promise<ApiAnswer> {
  const forbidden = checkUserId(body, user, t)
  if (forbidden) return forbidden
  const plan = typeof body.plan_id === 'string' ? planIdFromLabel(body.plan_id) : null
  if (!isPaidPlanId(plan)) return failure(400, 'invalid_plan', t('billing.api.invalidPlan'))
  if (!isBillingFrequency(body.frequency)) return failure(400, 'invalid_frequency', t('billing.api.invalidFrequency'))
  const idempotencyKey = idempotencyKeyFrom(body, user, now)
  if (idempotencyKey === null) return failure(400, 'invalid_idempotency_key', t('billing.api.invalidIdempotencyKey'))
  const result = await createCheckoutSession({ user, plan, frequency: body.frequency, origin, idempotencyKey, locale, now })
  return result.ok ? { status: 200, body: { url: result.url } } : errorAnswer(result.error, t)
}

export async function portalApi(
  user: SessionUser,
  body: Record<string, unknown>,
  { origin, locale, t }: { origin: string; locale?: string; t: Translate },
): Promise<ApiAnswer> {
  const forbidden = checkUserId(body, user, t)
  if (forbidden) return forbidden
  const result = await createPortalSession({ user, origin, locale })
  return result.ok ? { status: 200, body: { url: result.url } } : errorAnswer(result.error, t)
}
