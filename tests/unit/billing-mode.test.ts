// Billing cannot be given away: the test-payment sandbox runs only where nobody else can reach it.
import { describe, expect, test } from 'vitest'
import { billingMode, billingStartupNotice } from '#app/.server/billing/config.ts'

describe('billing mode', () => {
  test('a Stripe key means Stripe, whatever else is set', () => {
    expect(billingMode({ STRIPE_SECRET_KEY: 'sk_test_x', APP_URL: 'https://app.example.com', BILLING_SANDBOX: true })).toBe('stripe')
  })

  test('the sandbox runs on a loopback origin served on loopback (npm start on a laptop)', () => {
    expect(billingMode({})).toBe('sandbox')
    expect(billingMode({ APP_URL: 'http://127.0.0.1:3000', HOST: '127.0.0.1' })).toBe('sandbox')
    expect(billingMode({ APP_URL: 'http://localhost:3000' })).toBe('sandbox')
    expect(billingMode({ APP_URL: 'http://[::1]:3000', HOST: '::1' })).toBe('sandbox')
  })

  test('anywhere else, without Stripe, plan changes are off', () => {
    expect(billingMode({ APP_URL: 'https://app.example.com' })).toBe('off')
    expect(billingMode({ APP_URL: 'http://10.0.0.5:3000' })).toBe('off')
    // Listening on every interface is reachable by others, whatever the printed URL says.
    expect(billingMode({ APP_URL: 'http://127.0.0.1:3000', HOST: '0.0.0.0' })).toBe('off')
    expect(billingMode({ APP_URL: 'not a url' })).toBe('off')
    expect(billingMode({ APP_URL: 'http://127.0.0.1.evil.example' })).toBe('off')
  })

  test('BILLING_SANDBOX decides explicitly, both ways', () => {
    expect(billingMode({ APP_URL: 'https://staging.example.com', BILLING_SANDBOX: true })).toBe('sandbox')
    expect(billingMode({ BILLING_SANDBOX: false })).toBe('off')
  })

  test('start-up says loudly when billing is off', () => {
    expect(billingStartupNotice({ APP_URL: 'https://app.example.com' })).toMatch(/^WARNING: billing is OFF/)
    expect(billingStartupNotice({})).toMatch(/sandbox \(no real charge/)
    expect(billingStartupNotice({ STRIPE_SECRET_KEY: 'sk_live_x' })).toBe('Billing: Stripe')
  })
})
