// Billing configuration, read from the validated environment on every call (cheap), so tests and the
// embedded default can switch between the real Stripe API and the local sandbox.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { BillingFrequency } from '#app/domain/billing.ts'
import type { PaidPlanId } from '#app/domain/plans.ts'
import { env, parseEnv, validateEnv, type Env } from '#app/.server/env.server.ts'

export type BillingMode = 'stripe' | 'sandbox' | 'off'

/**
 * The settings billingMode() reads: typed like the rest of the configuration (BILLING_SANDBOX is the schema's
 * boolean), but a partial record, completed with the schema's defaults, rather than an `Env` built by parseEnv().
 * The mode decides whether anyone may give themselves a plan, so tests also feed it values the schema refuses at
 * start-up (an APP_URL that is not a URL must still mean 'off'), and parseEnv() would throw on those first.
 */
type BillingSettings = Partial<Pick<Env, 'STRIPE_SECRET_KEY' | 'BILLING_SANDBOX' | 'HOST' | 'APP_URL'>>

/** The schema's defaults, for the settings a caller leaves out. */
const DEFAULTS = parseEnv({})

/**
 * 'stripe' when STRIPE_SECRET_KEY is set. Otherwise the local sandbox (test payments, no real
 * charge) only where nobody else can reach it — the app listens on loopback and its public origin
 * is loopback — or when BILLING_SANDBOX=true says so explicitly; anywhere else plan changes are
 * 'off', or anyone could give themselves a plan. BILLING_SANDBOX=false forces 'off'.
 */
export function billingMode(settings: BillingSettings = validateEnv()): BillingMode {
  if (settings.STRIPE_SECRET_KEY) return 'stripe'
  if (settings.BILLING_SANDBOX !== undefined) return settings.BILLING_SANDBOX ? 'sandbox' : 'off'
  return servedOnLoopback(settings) ? 'sandbox' : 'off'
}

export function isSandboxEnabled() {
  return billingMode() === 'sandbox'
}

function servedOnLoopback(settings: BillingSettings) {
  const listensOnLoopback = isLoopbackHost(settings.HOST ?? DEFAULTS.HOST)
  let publicHost = '127.0.0.1'
  try {
    if (settings.APP_URL) publicHost = new URL(settings.APP_URL).hostname
  } catch {
    return false
  }
  return listensOnLoopback && isLoopbackHost(publicHost)
}

function isLoopbackHost(host: string) {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare)
}

/** What start-up says about billing, so an operator cannot miss a disabled or simulated checkout. */
export function billingStartupNotice(settings: BillingSettings = validateEnv()): string {
  const mode = billingMode(settings)
  if (mode === 'stripe') return 'Billing: Stripe'
  if (mode === 'sandbox') return 'Billing: local test-payment sandbox (no real charge, no Stripe key)'
  return 'WARNING: billing is OFF: no STRIPE_SECRET_KEY and not on a loopback origin, so plan changes are unavailable. Set STRIPE_SECRET_KEY (or BILLING_SANDBOX=true for a test deployment).'
}

/** STRIPE_PRICE_<PLAN>_<FREQUENCY>, e.g. STRIPE_PRICE_PROFESSIONAL_ANNUAL. */
function priceEnvName(plan: PaidPlanId, frequency: BillingFrequency) {
  return `STRIPE_PRICE_${plan.toUpperCase() as Uppercase<PaidPlanId>}_${frequency.toUpperCase() as Uppercase<BillingFrequency>}` as const
}

export function stripePriceId(plan: PaidPlanId, frequency: BillingFrequency): string | null {
  return validateEnv()[priceEnvName(plan, frequency)] ?? null
}

/** The Stripe API host override (tests point it at a local fixture server). */
export function stripeApiBase(): { host: string; port: number; protocol: 'http' | 'https' } | null {
  const base = env.STRIPE_API_BASE
  if (!base) return null
  const url = new URL(base)
  const protocol = url.protocol === 'http:' ? 'http' : 'https'
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol }
}

export function stripeWebhookSecret(): string | null {
  return env.STRIPE_WEBHOOK_SECRET ?? null
}

let sandboxSecret: Buffer | undefined

/**
 * The HMAC key of sandbox tokens: SANDBOX_BILLING_SECRET, else a random key kept in the data
 * directory (so tokens survive a restart and every process on that directory agrees), else a
 * random key for this process.
 */
export function sandboxBillingSecret(): Buffer {
  const configured = env.SANDBOX_BILLING_SECRET
  if (configured) return Buffer.from(configured, 'utf8')
  if (sandboxSecret) return sandboxSecret
  const file = path.resolve(env.DATA_DIR, 'billing-sandbox.key')
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
  return env.APP_URL ? new URL(env.APP_URL).origin : new URL(request.url).origin
}
