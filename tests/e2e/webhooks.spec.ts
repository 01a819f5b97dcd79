import { expect, test } from '@playwright/test'
import { startWebhookReceiver, verifyDelivery, type WebhookReceiver } from '../support/webhook-receiver.ts'
import { expectNoA11yViolations } from './support/a11y.ts'
import { signUpViaRequest } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

const jsEnabled = () => test.info().project.use.javaScriptEnabled !== false
// playwright.config.ts allow-lists two loopback ports for the server's deliveries: one per project.
const receiverPort = () => Number(process.env.E2E_WEBHOOK_PORT) + (jsEnabled() ? 0 : 1)

let receiver: WebhookReceiver | undefined
test.afterEach(async () => {
  await receiver?.close()
  receiver = undefined
})

test.describe('webhooks at /settings/api/webhooks', () => {
  test('add an endpoint (secret once), send a test event, read the log, redeliver, disable, rotate, delete', async ({ page, baseURL }, testInfo) => {
    // Many round trips, without JavaScript each a full page: more than the default minute on a busy machine.
    test.slow()
    receiver = await startWebhookReceiver(receiverPort())
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('webhooks', testInfo) })
    await page.goto('/settings/api')
    await page.getByRole('link', { name: 'Manage webhooks' }).click()
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible()
    await expect(page.getByText('No endpoint yet.')).toBeVisible()
    await expectNoA11yViolations(page)

    // Nothing typed is lost on a refusal.
    await page.getByLabel('Endpoint URL').fill(receiver.url('/e2e'))
    await page.getByRole('checkbox', { name: /Export completed/ }).uncheck()
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    await expect(page.getByText('Choose at least one event.')).toBeVisible()
    await expect(page.getByLabel('Endpoint URL')).toHaveValue(receiver.url('/e2e'))
    await expect(page.getByRole('checkbox', { name: /Export completed/ })).not.toBeChecked()
    await page.getByLabel('Endpoint URL').fill('http://10.0.0.1/hook')
    await page.getByRole('checkbox', { name: /Export failed/ }).check()
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    await expect(page.getByText('This address is not allowed')).toBeVisible()

    await page.getByLabel('Endpoint URL').fill(receiver.url('/e2e'))
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    const secret = await page.getByLabel('Signing secret').inputValue()
    expect(secret).toMatch(/^whsec_/)
    if (jsEnabled()) await expect(page.getByTestId('webhook-secret').getByRole('button', { name: 'Copy' })).toBeVisible()
    const row = page.getByTestId('webhook-endpoint-row')
    await expect(row).toContainText(receiver.url('/e2e'))
    await expect(row).toContainText('Export failed')
    await expect(row).toContainText('Active')
    await expectNoA11yViolations(page)
    await page.screenshot({ path: testInfo.outputPath('webhooks-created.png'), fullPage: true })

    await page.goto('/settings/api/webhooks')
    expect(await page.content()).not.toContain(secret)
    await row.getByRole('link', { name: /Manage the endpoint/ }).click()
    await expect(page.getByRole('heading', { name: 'Webhook endpoint', level: 1 })).toBeVisible()

    await page.getByRole('button', { name: 'Send test event' }).click()
    await expect(page.getByText('A test event is on its way')).toBeVisible()
    const [delivery] = await receiver.waitFor('/e2e', 1, 30_000)
    expect(verifyDelivery(secret, delivery!)).toMatchObject({ type: 'test', data: {} })
    await expect(async () => {
      await page.reload()
      await expect(page.getByTestId('webhook-delivery').first()).toContainText('Delivered')
    }).toPass({ timeout: 30_000 })
    await expect(page.getByTestId('webhook-delivery').first()).toContainText('204')
    await expectNoA11yViolations(page)

    await page.getByRole('button', { name: /Redeliver the test event/ }).click()
    await expect(page.getByText('Sent again')).toBeVisible()
    const again = await receiver.waitFor('/e2e', 2, 30_000)
    expect(again[1]!.headers['webhook-id']).toBe(delivery!.headers['webhook-id'])

    await page.getByRole('checkbox', { name: /Export completed/ }).check()
    await page.getByRole('button', { name: 'Save events' }).click()
    await expect(page.getByText('Events saved.')).toBeVisible()
    await expect(page.getByRole('checkbox', { name: /Export completed/ })).toBeChecked()

    await page.getByRole('button', { name: 'Disable' }).click()
    await expect(page.getByText('The endpoint is disabled')).toBeVisible()
    await page.getByRole('button', { name: 'Enable' }).click()
    await expect(page.getByText('The endpoint is enabled.')).toBeVisible()

    await page.getByRole('button', { name: 'Rotate secret' }).click()
    const rotated = await page.getByLabel('Signing secret').inputValue()
    expect(rotated).toMatch(/^whsec_/)
    expect(rotated).not.toBe(secret)
    await page.screenshot({ path: testInfo.outputPath('webhook-endpoint.png'), fullPage: true })
    await page.setViewportSize({ width: 375, height: 800 })
    // Loaded at that width (the desktop sidebar animates away on a resize).
    await page.goto(new URL(page.url()).pathname)
    await expect(page.getByTestId('webhook-delivery').first()).toBeVisible()
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0)
    await page.screenshot({ path: testInfo.outputPath('webhook-endpoint-375.png'), fullPage: true })
    await page.setViewportSize({ width: 1440, height: 900 })

    await page.getByText('Delete this endpoint…').click()
    await page.getByRole('button', { name: 'Delete endpoint' }).click()
    await expect(page.getByText('The endpoint is deleted.')).toBeVisible()
    await expect(page.getByText('No endpoint yet.')).toBeVisible()
  })
})

test.describe('webhooks in French', () => {
  test.use({ locale: 'fr-FR', viewport: { width: 375, height: 800 } })

  test('at 375 px and 1440 px: a refused URL, then an endpoint whose delivery fails', async ({ page, baseURL }, testInfo) => {
    test.slow()
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('webhooks-fr', testInfo) })
    await page.goto('/settings/api/webhooks')
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible()
    await page.getByLabel('URL de l’adresse').fill('https://intranet.local/leadatlas')
    await page.getByRole('button', { name: 'Ajouter l’adresse' }).click()
    await expect(page.getByText('Cette adresse n’est pas autorisée')).toBeVisible()
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(await overflow()).toBeLessThanOrEqual(0)
    await expectNoA11yViolations(page)
    await page.screenshot({ path: testInfo.outputPath('webhooks-fr-375.png'), fullPage: true })

    // Allow-listed, but nothing listens there (or the other spec's receiver, on another path): a failing delivery.
    await page.getByLabel('URL de l’adresse').fill(`http://127.0.0.1:${receiverPort()}/fr`)
    await page.getByRole('button', { name: 'Ajouter l’adresse' }).click()
    await expect(page.getByLabel('Secret de signature')).toHaveValue(/^whsec_/)
    await page.getByRole('link', { name: /Gérer l’adresse/ }).click()
    await page.getByRole('button', { name: 'Envoyer un événement de test' }).click()
    await expect(page.getByText('Un événement de test est en route')).toBeVisible()
    await expect(async () => {
      await page.reload()
      await expect(page.getByTestId('webhook-delivery').first().getByRole('table')).toBeVisible()
    }).toPass({ timeout: 30_000 })
    expect(await overflow()).toBeLessThanOrEqual(0)
    await expectNoA11yViolations(page)
    await page.screenshot({ path: testInfo.outputPath('webhook-endpoint-fr-375.png'), fullPage: true })
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.screenshot({ path: testInfo.outputPath('webhook-endpoint-fr-1440.png'), fullPage: true })
  })
})
