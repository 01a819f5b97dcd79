// Signed sandbox session tokens: HMAC-SHA256 over a small JSON payload, so a user can only
// confirm the checkout (or open the portal) that was created for them, and only for a while.
import crypto from 'node:crypto'
import { isBillingFrequency, isPaidPlanId, type BillingFrequency } from '#app/domain/billing.ts'
import type { PaidPlanId } from '#app/domain/plans.ts'

export interface SandboxCheckoutToken {
  kind: 'checkout'
  userId: string
  plan: PaidPlanId
  frequency: BillingFrequency
  /** Unique per checkout session: the sandbox subscription and event ids derive from it. */
  nonce: string
  /** Expiry, epoch seconds. */
  exp: number
}

export interface SandboxPortalToken {
  kind: 'portal'
  userId: string
  /** The plan the user clicked on the subscription page, preselected in the portal. */
  plan?: PaidPlanId
  frequency?: BillingFrequency
  nonce: string
  exp: number
}

export type SandboxToken = SandboxCheckoutToken | SandboxPortalToken

export const TOKEN_TTL_SECONDS = 60 * 60

function mac(secret: Buffer, body: string) {
  return crypto.createHmac('sha256', secret).update(`leadatlas-billing-sandbox.${body}`).digest('base64url')
}

export function signSandboxToken(token: SandboxToken, secret: Buffer): string {
  const compact = { k: token.kind, u: token.userId, p: token.plan, f: token.frequency, n: token.nonce, e: token.exp }
  const body = Buffer.from(JSON.stringify(compact), 'utf8').toString('base64url')
  return `${body}.${mac(secret, body)}`
}

/** The token's content when its signature is valid and it has not expired; otherwise null. */
export function verifySandboxToken(value: unknown, secret: Buffer, now: Date = new Date()): SandboxToken | null {
  if (typeof value !== 'string' || value.length > 2048) return null
  const [body, signature, ...rest] = value.split('.')
  if (!body || !signature || rest.length) return null
  const expected = Buffer.from(mac(secret, body))
  const given = Buffer.from(signature)
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null
  let raw: Record<string, unknown>
  try {
    raw = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>
  } catch {
    return null
  }
  if (typeof raw.u !== 'string' || typeof raw.n !== 'string' || typeof raw.e !== 'number') return null
  if (raw.e * 1000 <= now.getTime()) return null
  if (raw.k === 'checkout') {
    if (!isPaidPlanId(raw.p) || !isBillingFrequency(raw.f)) return null
    return { kind: 'checkout', userId: raw.u, plan: raw.p, frequency: raw.f, nonce: raw.n, exp: raw.e }
  }
  if (raw.k === 'portal') {
    return {
      kind: 'portal',
      userId: raw.u,
      plan: isPaidPlanId(raw.p) ? raw.p : undefined,
      frequency: isBillingFrequency(raw.f) ? raw.f : undefined,
      nonce: raw.n,
      exp: raw.e,
    }
  }
  return null
}
