// Billing configuration, read from the environment on every call (cheap), so tests and the
// embedded default can switch between the real Stripe API and the local sandbox.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { BillingFrequency } from '#app/domain/billing.ts'
import type { PaidPlanId } from '#app/domain/plans.ts'

export type BillingMode = 'stripe' | 'sandbox' | 'off'

/**
 * 'stripe' when STRIPE_SECRET_KEY is set; otherwise the local sandbox (test payments, no real
 * charge) unless BILLING_SANDBOX=false, which turns payments off (checkout then fails politely).
 */
export function billingMode(): BillingMode {
  if (process.env.STRIPE_SECRET_KEY) return 'stripe'
  const sandbox = (process.env.BILLING_SANDBOX ?? 'true').trim().toLowerCase()
  return sandbox === 'false' || sandbox === '0' || sandbox === 'off' ? 'off' : 'sandbox'
}

export function isSandboxEnabled() {
  return billingMode() === 'sandbox'
}

/** STRIPE_PRICE_<PLAN>_<FREQUENCY>, e.g. STRIPE_PRICE_PROFESSIONAL_ANNUAL. */
export function priceEnvName(plan: PaidPlanId, frequency: BillingFrequency) {
  return `STRIPE_PRICE_${plan.toUpperCase()}_${frequency.toUpperCase()}`
}

export function stripePriceId(plan: PaidPlanId, frequency: BillingFrequency): string | null {
  return process.env[priceEnvName(plan, frequency)]?.trim() || null
}

/** The Stripe API host override (tests point it at a local fixture server). */
export function stripeApiBase(): { host: string; port: number; protocol: 'http' | 'https' } | null {
  const base = process.env.STRIPE_API_BASE?.trim()
  if (!base) return null
  const url = new URL(base)
  const protocol = url.protocol === 'http:' ? 'http' : 'https'
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol }
}

export function stripeWebhookSecret(): string | null {
  return process.env.STRIPE_WEBHOOK_SECRET?.trim() || null
}

let sandboxSecret: Buffer | undefined

/**
 * The HMAC key of sandbox tokens: SANDBOX_BILLING_SECRET, else a random key kept in the data
 * directory (so tokens survive a restart and every process on that directory agrees), else a
 * random key for this process.
 */
export function sandboxBillingSecret(): Buffer {
  const configured = process.env.SANDBOX_BILLING_SECRET?.trim()
  if (configured) return Buffer.from(configured, 'utf8')
  if (sandboxSecret) return sandboxSecret
  const file = path.resolve(process.env.DATA_DIR ?? '.data', 'billing-sandbox.key')
  try {
    sandboxSecret = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url')
    if (sandboxSecret.length < 32) throw new Error('short key')
  } catch {
    sandboxSecret = crypto.randomBytes(32)
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true })
      // wx: when two processes race, the first key written wins and the loser reads it back.
      fs.writeFileSync(file, sandboxSecret.toString('base64url'), { mode: 0o600, flag: 'wx' })
    } catch {
      try {
        const existing = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url')
        if (existing.length >= 32) sandboxSecret = existing
      } catch {
        // Read-only or missing directory: keep the in-memory key (tokens end with the process).
      }
    }
  }
  return sandboxSecret
}

/** The public origin that Stripe and the sandbox send the browser back to. */
export function appOrigin(request: Request): string {
  return process.env.APP_URL ? new URL(process.env.APP_URL).origin : new URL(request.url).origin
}
