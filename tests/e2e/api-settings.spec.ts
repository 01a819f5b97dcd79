import { expect, test } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { signUpViaRequest } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

const jsEnabled = () => test.info().project.use.javaScriptEnabled !== false

test.describe('API keys at /settings/api', () => {
  test('create (shown once), use, revoke; the key opens /api/v1 and a session cookie does not', async ({ page, baseURL }, testInfo) => {
    const user = await signUpViaRequest(page, baseURL, { email: uniqueEmail('apikeys', testInfo) })
    await page.goto('/settings')
    await page.getByRole('link', { name: /API and webhooks/ }).click()
    await expect(page.getByRole('heading', { name: 'API and webhooks', level: 1 })).toBeVisible()
    await expect(page.getByText('No API key yet.')).toBeVisible()
    await expectNoA11yViolations(page)

    await page.getByRole('button', { name: 'Create key' }).click()
    await expect(page.getByText('Give the key a name.')).toBeVisible()

    await page.getByLabel('Key name').fill('HubSpot sync')
    await page.getByRole('button', { name: 'Create key' }).click()
    const notice = page.getByTestId('new-api-key')
    await expect(notice).toContainText('Key “HubSpot sync” created')
    const key = await page.getByLabel('Your new API key').inputValue()
    expect(key).toMatch(/^la_[0-9A-Za-z]{40}$/)
    if (jsEnabled()) await expect(notice.getByRole('button', { name: 'Copy' })).toBeVisible()
    const row = page.getByTestId('api-key-row')
    await expect(row).toContainText('HubSpot sync')
    await expect(row).toContainText(`${key.slice(0, 8)}…`)
    await expect(row).toContainText('Active')
    await expect(row).toContainText('Never')
    await expectNoA11yViolations(page)
    await page.screenshot({ path: testInfo.outputPath('api-settings-created.png'), fullPage: true })

    // The page never shows the key again.
    await page.goto('/settings/api')
    await expect(page.getByTestId('new-api-key')).toHaveCount(0)
    expect(await page.content()).not.toContain(key)

    // Over real HTTP: the key opens the API; the browser's session cookie alone does not.
    const me = await page.request.get('/api/v1/me', { headers: { Authorization: `Bearer ${key}` } })
    expect(me.status()).toBe(200)
    expect(await me.json()).toMatchObject({ email: user.email, plan: 'free_trial' })
    expect(me.headers()['ratelimit-limit']).toBeTruthy()
    const cookieOnly = await page.request.get('/api/v1/me')
    expect(cookieOnly.status()).toBe(401)
    expect(cookieOnly.headers()['content-type']).toMatch(/^application\/problem\+json/)
    // Cross-site origin does not matter to a bearer-key API (no cookies are read), and bodies are checked as documented.
    const tooLarge = await page.request.post('/api/v1/do-not-contact', {
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Origin: 'https://elsewhere.example' },
      data: JSON.stringify({ entries: ['x'.repeat(1024 * 1024 + 10)] }),
    })
    expect(tooLarge.status()).toBe(413)
    expect(await tooLarge.json()).toMatchObject({ code: 'payload_too_large' })
    const form = await page.request.post('/api/v1/do-not-contact', { headers: { Authorization: `Bearer ${key}` }, form: { entries: 'a@b.fr' } })
    expect(form.status()).toBe(415)

    await page.reload()
    await expect(row).not.toContainText('Never')
    await row.getByRole('button', { name: 'Revoke the key HubSpot sync' }).click()
    await expect(page.getByText('The key is revoked')).toBeVisible()
    await expect(row).toContainText('Revoked')
    // A revoked key's text still meets 4.5:1 (it was drawn at 60 % opacity: 8 serious axe nodes).
    await expectNoA11yViolations(page)
    const revoked = await page.request.get('/api/v1/me', { headers: { Authorization: `Bearer ${key}` } })
    expect(revoked.status()).toBe(401)
  })

})

test.describe('API keys in French', () => {
  test.use({ locale: 'fr-FR', viewport: { width: 375, height: 800 } })

  test('at 375 px', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('apikeys-fr', testInfo) })
    await page.goto('/settings/api')
    await expect(page.getByRole('heading', { name: 'API et webhooks', level: 1 })).toBeVisible()
    await page.getByLabel('Nom de la clé').fill('Synchro Pipedrive')
    await page.getByRole('button', { name: 'Créer une clé' }).click()
    await expect(page.getByTestId('new-api-key')).toContainText('Clé « Synchro Pipedrive » créée')
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    await expectNoA11yViolations(page)
    await page.screenshot({ path: testInfo.outputPath('api-settings-fr-375.png'), fullPage: true })
  })
})
