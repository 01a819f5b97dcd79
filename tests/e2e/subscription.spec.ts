import { randomUUID } from 'node:crypto'
import { expect, test, type Page } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { createUser, sameOrigin, signUpViaRequest } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

/** The e2e server runs without STRIPE_SECRET_KEY: payments go through the built-in sandbox. */

const card = (page: Page, plan: 'basic' | 'professional' | 'premium') => page.getByTestId(`plan-${plan}`)

async function openCreditsMenu(page: Page) {
  await page.getByTestId('credits-summary').click()
  await expect(page.getByTestId('plan-label')).toBeVisible()
}

test.describe('subscription', () => {
  // A long journey (sign-up, checkout, search, portal, axe several times) on a 2-core machine.
  test.describe.configure({ timeout: 180_000 })

  test('a free-trial user upgrades in the sandbox, searches a region, switches to annual, cancels and expires back to the free trial', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('subscribe', testInfo) })
    await page.goto('/subscription')
    await expect(page.getByRole('heading', { name: 'Subscription', level: 1 })).toBeVisible()
    await expect(page.getByTestId('current-plan')).toHaveText('Current plan: Free Trial')

    // Monthly prices, then annual: the annual monthly price and its yearly total (× 12).
    await expect(card(page, 'basic').getByTestId('plan-price')).toHaveText('€39')
    await expect(card(page, 'professional').getByTestId('plan-price')).toHaveText('€69')
    await expect(card(page, 'premium').getByTestId('plan-price')).toHaveText('€149')
    await expect(card(page, 'professional')).toContainText('5,000 credits per month')
    await expect(card(page, 'basic')).not.toContainText('Search a whole region')
    await expect(card(page, 'professional')).toContainText('Search a whole region')
    await expectNoA11yViolations(page)

    await page.getByRole('link', { name: /^Annual/ }).click()
    await expect(page).toHaveURL(/frequency=annual/)
    await expect(page.getByRole('link', { name: /^Annual/ })).toHaveAttribute('aria-current', 'true')
    await expect(card(page, 'basic').getByTestId('plan-price')).toHaveText('€29')
    await expect(card(page, 'basic').getByTestId('plan-billing')).toHaveText('€348 billed yearly')
    await expect(card(page, 'professional').getByTestId('plan-billing')).toHaveText('€588 billed yearly')
    await expect(card(page, 'premium').getByTestId('plan-billing')).toHaveText('€1,188 billed yearly')
    await page.getByRole('link', { name: 'Monthly' }).click()
    await expect(card(page, 'professional').getByTestId('plan-price')).toHaveText('€69')

    // Checkout in the sandbox.
    await page.getByRole('button', { name: 'Choose Professional' }).click()
    await expect(page).toHaveURL(/\/billing\/sandbox\/checkout\?session=/)
    await expect(page.getByTestId('sandbox-banner')).toHaveText('Test payment — no real charge')
    await expect(page.getByRole('heading', { name: 'Professional plan', level: 1 })).toBeVisible()
    await expect(page.getByTestId('checkout-total')).toHaveText('€69.00')
    await expectNoA11yViolations(page)
    await page.getByRole('button', { name: 'Confirm test payment' }).click()
    await expect(page).toHaveURL((url) => url.pathname === '/subscription' && url.searchParams.get('checkout') === 'success')
    await expect(page.getByRole('status').filter({ hasText: 'Thank you! Your Professional plan is active.' })).toBeVisible()
    await expect(page.getByTestId('current-plan')).toContainText('Current plan: Professional (monthly) · renews on')
    await expect(card(page, 'professional')).toHaveAttribute('data-current', 'true')
    await expect(card(page, 'professional').getByRole('button', { name: 'Manage subscription' })).toBeVisible()
    await expect(card(page, 'premium').getByRole('button', { name: 'Switch to Premium' })).toBeVisible()

    // The header shows the new allowance and plan.
    await expect(page.getByTestId('credits-summary')).toHaveText('5,000 / 5,000 credits')
    await openCreditsMenu(page)
    await expect(page.getByTestId('plan-label')).toHaveText('Professional')

    // Region-level search is now allowed.
    await page.goto('/?sector=shop-bakery&country=France&region=Bretagne&run=1')
    await expect(page.locator('table tbody tr').first()).toBeVisible()
    await expect(page.getByRole('dialog')).toHaveCount(0)

    // The customer portal (sandbox): switch to annual billing.
    await page.goto('/subscription')
    await card(page, 'professional').getByRole('button', { name: 'Manage subscription' }).click()
    await expect(page).toHaveURL(/\/billing\/sandbox\/portal\?session=/)
    await expect(page.getByTestId('sandbox-banner')).toBeVisible()
    await expect(page.getByTestId('portal-plan')).toHaveText('Professional (monthly)')
    await expectNoA11yViolations(page)
    await page.getByRole('radio', { name: /^Annual/ }).check()
    await page.getByRole('button', { name: 'Update plan' }).click()
    await expect(page.getByText('Your plan has been updated.')).toBeVisible()
    await expect(page.getByTestId('portal-plan')).toHaveText('Professional (annual)')

    // Cancel at the end of the period, after a confirmation step (a GET state: it works without JS).
    await page.getByRole('link', { name: 'Cancel subscription' }).click()
    const confirmCancel = page.getByTestId('cancel-confirm')
    await expect(confirmCancel.getByRole('heading', { name: 'Cancel your subscription?' })).toBeVisible()
    await expect(confirmCancel).toContainText('Your Professional plan stays active until')
    // With JS the link that was clicked is gone: focus lands on the question.
    if (testInfo.project.name !== 'chromium-nojs') await expect(confirmCancel.getByRole('heading', { name: 'Cancel your subscription?' })).toBeFocused()
    await expect(page.getByTestId('portal-status')).toHaveText('Active')
    await expectNoA11yViolations(page)
    await confirmCancel.getByRole('link', { name: 'Keep my subscription' }).click()
    await expect(confirmCancel).toHaveCount(0)
    await expect(page.getByTestId('portal-status')).toHaveText('Active')
    // A cancel post that did not come from the confirmation step asks first instead of canceling.
    const portalUrl = new URL(page.url())
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Update plan' }) })
    const hidden = Object.fromEntries(
      await Promise.all(['session', 'subscriptionId', 'version'].map(async (field) => [field, await form.locator(`input[name=${field}]`).inputValue()] as const)),
    )
    const unconfirmed = await page.request.post(`${portalUrl.pathname}${portalUrl.search}`, { form: { ...hidden, intent: 'cancel' }, headers: sameOrigin(baseURL), maxRedirects: 0 })
    expect(unconfirmed.status()).toBe(302)
    expect(unconfirmed.headers()['location']).toContain('confirm=cancel')
    await page.reload()
    await expect(page.getByTestId('portal-status')).toHaveText('Active')
    await page.getByRole('link', { name: 'Cancel subscription' }).click()
    await page.getByRole('button', { name: 'Yes, cancel subscription' }).click()
    await expect(page.getByText('Your subscription will end at the end of the period.')).toBeVisible()
    await expect(page.getByTestId('portal-status')).toHaveText('Canceling')
    await page.getByRole('link', { name: 'Return to LeadAtlas' }).click()
    await expect(page).toHaveURL((url) => url.pathname === '/subscription')
    const currentPlan = page.getByTestId('current-plan')
    await expect(currentPlan).toContainText('Current plan: Professional (annual) · ends on')
    const inAYear = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).formatToParts(new Date(Date.now() + 365 * 86_400_000))
    await expect(currentPlan).toContainText(inAYear.find((part) => part.type === 'year')!.value)
    await expect(page.getByText('Canceling', { exact: true })).toBeVisible()
    await openCreditsMenu(page)
    await expect(page.getByTestId('plan-label')).toHaveText('Professional')
    await expectNoA11yViolations(page)

    // Sandbox tool: the period ends now → the subscription ends, back to the free trial.
    await card(page, 'professional').getByRole('button', { name: 'Manage subscription' }).click()
    await expect(page).toHaveURL(/\/billing\/sandbox\/portal/)
    await expect(page.getByText('the subscription ends and your account returns to the Free Trial')).toBeVisible()
    await page.getByRole('button', { name: 'End period now' }).click()
    await expect(page.getByText('Your subscription has ended. Your account is back on the Free Trial.')).toBeVisible()
    await page.getByRole('link', { name: 'Return to LeadAtlas' }).click()
    await expect(page.getByTestId('current-plan')).toHaveText('Current plan: Free Trial')
    await expect(card(page, 'professional').getByRole('button', { name: 'Choose Professional' })).toBeVisible()
    await openCreditsMenu(page)
    await expect(page.getByTestId('plan-label')).toHaveText('Free Trial')
  })

  test('canceling the sandbox checkout leaves the plan unchanged', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('checkout-cancel', testInfo) })
    await page.goto('/subscription?frequency=annual')
    await page.getByRole('button', { name: 'Choose Premium' }).click()
    await expect(page.getByTestId('checkout-total')).toHaveText('€1,188.00')
    await page.getByRole('link', { name: 'Cancel and return to LeadAtlas' }).click()
    await expect(page.getByText('Checkout canceled. You have not been charged.')).toBeVisible()
    await expect(page.getByTestId('current-plan')).toHaveText('Current plan: Free Trial')
    await expect(page.getByRole('link', { name: /^Annual/ })).toHaveAttribute('aria-current', 'true')
  })
})

test.describe('payment calls (HTTP)', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'HTTP-level checks run once')

  test('checkout and portal answer {url} for the session user, 403 for another user_id, 400 for bad input', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('api-billing', testInfo) })
    const api = page.request
    const headers = sameOrigin(baseURL)

    const ok = await api.post('/api/stripe/create-checkout-session', { headers, data: { plan_id: 'professional', frequency: 'annual' } })
    expect(ok.status()).toBe(200)
    const { url } = (await ok.json()) as { url: string }
    expect(url).toMatch(/\/billing\/sandbox\/checkout\?session=/)

    const other = await api.post('/api/stripe/create-checkout-session', { headers, data: { plan_id: 'professional', frequency: 'monthly', user_id: randomUUID() } })
    expect(other.status()).toBe(403)
    expect(await other.json()).toMatchObject({ error: 'You are not allowed to do this.' })
    const otherPortal = await api.post('/api/stripe/create-portal-session', { headers, data: { user_id: randomUUID() } })
    expect(otherPortal.status()).toBe(403)

    for (const data of [{ plan_id: 'gold', frequency: 'monthly' }, { plan_id: 'basic', frequency: 'weekly' }, { plan_id: 'basic' }]) {
      const bad = await api.post('/api/stripe/create-checkout-session', { headers, data })
      expect(bad.status(), JSON.stringify(data)).toBe(400)
      expect(typeof (await bad.json()).error).toBe('string')
    }
    const notJson = await api.post('/api/stripe/create-checkout-session', { headers: { ...headers, 'Content-Type': 'application/json' }, data: '{oops' })
    expect(notJson.status()).toBe(400)

    const portal = await api.post('/api/stripe/create-portal-session', { headers, data: {} })
    expect(portal.status()).toBe(200)
    expect((await portal.json()).url).toMatch(/\/billing\/sandbox\/portal\?session=/)
  })

  test("without a session the calls are 401, and a user cannot open someone else's sandbox checkout", async ({ page, browser, baseURL, request }, testInfo) => {
    const anonymous = await request.post('/api/stripe/create-checkout-session', { headers: sameOrigin(baseURL), data: { plan_id: 'basic', frequency: 'monthly' } })
    expect(anonymous.status()).toBe(401)

    await signUpViaRequest(page, baseURL, { email: uniqueEmail('owner', testInfo) })
    const created = await page.request.post('/api/stripe/create-checkout-session', { headers: sameOrigin(baseURL), data: { plan_id: 'premium', frequency: 'monthly' } })
    const { url } = (await created.json()) as { url: string }

    const intruder = await browser.newContext()
    try {
      const intruderPage = await intruder.newPage()
      const user = await createUser(intruderPage.request, baseURL, { email: uniqueEmail('intruder', testInfo) })
      expect(user.email).toBeTruthy()
      const response = await intruderPage.goto(new URL(url).pathname + new URL(url).search)
      expect(response?.status()).toBe(403)
      await expect(intruderPage.getByText('This payment session belongs to another account.')).toBeVisible()
      const session = new URL(url).searchParams.get('session')!
      const confirm = await intruderPage.request.post(`/billing/sandbox/checkout?session=${encodeURIComponent(session)}`, { headers: sameOrigin(baseURL), form: { session } })
      expect(confirm.status()).toBe(403)
    } finally {
      await intruder.close()
    }
  })

  test('the Stripe webhook is reachable without an Origin header (signature, not CSRF, protects it)', async ({ request }) => {
    const response = await request.post('/api/stripe/webhook', {
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': 't=1,v1=deadbeef' },
      data: JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: { object: {} } }),
    })
    // 404 when STRIPE_WEBHOOK_SECRET is not set (the embedded default: no webhook), 400 (bad signature) when it is;
    // never the cross-site refusal (403).
    expect([400, 404]).toContain(response.status())
    expect(await response.json()).toHaveProperty('error')
  })
})
