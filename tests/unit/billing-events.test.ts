import { afterEach, describe, expect, it } from 'vitest'
import { mapSubscriptionStatus, subscriptionPeriod, type SubscriptionObject } from '#app/.server/billing/events.ts'
import { planForPrice, sandboxPriceId } from '#app/.server/billing/stripe.ts'
import { signSandboxToken, verifySandboxToken, type SandboxCheckoutToken } from '#app/.server/billing/tokens.ts'

const secret = Buffer.from('a'.repeat(32))
const now = new Date('2027-01-01T00:00:00Z')
const token: SandboxCheckoutToken = { kind: 'checkout', userId: '11111111-1111-4111-8111-111111111111', plan: 'professional', frequency: 'annual', nonce: 'abc', exp: now.getTime() / 1000 + 3600 }

describe('sandbox session tokens', () => {
  it('round-trips', () => {
    expect(verifySandboxToken(signSandboxToken(token, secret), secret, now)).toEqual(token)
  })
  it('refuses a tampered, foreign-key, expired or malformed token', () => {
    const signed = signSandboxToken(token, secret)
    const [body, mac] = signed.split('.')
    const forged = Buffer.from(JSON.stringify({ k: 'checkout', u: token.userId, p: 'premium', f: 'annual', n: 'abc', e: token.exp })).toString('base64url')
    expect(verifySandboxToken(`${forged}.${mac}`, secret, now)).toBeNull()
    expect(verifySandboxToken(`${body}.${mac}x`, secret, now)).toBeNull()
    expect(verifySandboxToken(signed, Buffer.from('b'.repeat(32)), now)).toBeNull()
    expect(verifySandboxToken(signed, secret, new Date(token.exp * 1000))).toBeNull()
    expect(verifySandboxToken('nope', secret, now)).toBeNull()
    expect(verifySandboxToken(undefined, secret, now)).toBeNull()
    expect(verifySandboxToken(`${body}.${mac}.extra`, secret, now)).toBeNull()
  })
})

describe('Stripe subscription → user_subscriptions', () => {
  it('maps statuses; a scheduled cancellation is "canceling"', () => {
    expect(mapSubscriptionStatus('active', false)).toBe('active')
    expect(mapSubscriptionStatus('trialing', false)).toBe('active')
    expect(mapSubscriptionStatus('active', true)).toBe('canceling')
    expect(mapSubscriptionStatus('canceled', false)).toBe('canceled')
    expect(mapSubscriptionStatus('incomplete_expired', false)).toBe('canceled')
    expect(mapSubscriptionStatus('incomplete', false)).toBe('incomplete')
    expect(mapSubscriptionStatus('past_due', false)).toBe('past_due')
    expect(mapSubscriptionStatus('unpaid', true)).toBe('past_due')
  })
  it('reads the period from the items (API 2025+) or the legacy top-level fields', () => {
    const items: SubscriptionObject = { id: 'sub_1', status: 'active', items: { data: [{ current_period_start: 100, current_period_end: 200 }, { current_period_start: 120, current_period_end: 180 }] } }
    expect(subscriptionPeriod(items)).toEqual({ start: new Date(120_000), end: new Date(180_000) })
    const legacy: SubscriptionObject = { id: 'sub_2', status: 'active', current_period_start: 10, current_period_end: 20 }
    expect(subscriptionPeriod(legacy)).toEqual({ start: new Date(10_000), end: new Date(20_000) })
  })
})

describe('price → plan', () => {
  afterEach(() => {
    delete process.env.STRIPE_PRICE_PREMIUM_ANNUAL
  })
  it('uses the STRIPE_PRICE_* variables first', () => {
    process.env.STRIPE_PRICE_PREMIUM_ANNUAL = 'price_123'
    expect(planForPrice({ id: 'price_123' })).toEqual({ plan: 'premium', frequency: 'annual' })
  })
  it('knows the sandbox prices, lookup keys and price metadata', () => {
    expect(planForPrice({ id: sandboxPriceId('basic', 'monthly') })).toEqual({ plan: 'basic', frequency: 'monthly' })
    expect(planForPrice({ id: 'price_x', lookup_key: 'professional_annual' })).toEqual({ plan: 'professional', frequency: 'annual' })
    expect(planForPrice({ id: 'price_y', lookup_key: 'premium', recurring: { interval: 'month' } })).toEqual({ plan: 'premium', frequency: 'monthly' })
    expect(planForPrice({ id: 'price_z', metadata: { plan_id: 'basic' }, recurring: { interval: 'year' } })).toEqual({ plan: 'basic', frequency: 'annual' })
    expect(planForPrice({ id: 'price_unknown' })).toBeNull()
    expect(planForPrice(null)).toBeNull()
  })
})
