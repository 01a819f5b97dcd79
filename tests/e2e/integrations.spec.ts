import { expect, test, type Page } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { signUpViaRequest } from './support/http.ts'
import { seedRichExport } from './support/seed-exports.ts'
import { uniqueEmail } from './support/users.ts'

// CRM push (issue 30), with and without JavaScript: an admin connects HubSpot (a wrong token is refused with the
// CRM's reason, the typed name kept), tests it, edits the mapping, pushes a completed export, reads the report, pushes
// again without creating anything, pushes one ticked lead, and disconnects after a confirmation. The CRM is the local
// fake (tests/support/crm-fakes/serve.ts): each token is an account of its own.

const INTEGRATIONS = '/settings/integrations'
const LEADS = 6

/** A token no other test uses: its own fake HubSpot account. */
const tokenFor = (email: string) => `pat-eu1-${email.replace(/[^a-z0-9]/gi, '').slice(0, 40)}`

/** The form that takes a pasted credential (beside it, "Connect by signing in" takes none). */
const pasteForm = (page: Page) => page.locator('#crm-connect')

async function connectHubspot(page: Page, label: string, token: string) {
  const form = pasteForm(page)
  await form.getByLabel('CRM', { exact: true }).selectOption({ label: 'HubSpot' })
  await form.getByLabel('Connection name').fill(label)
  await form.getByLabel('Token, API key or service account JSON').fill(token)
  await form.getByRole('button', { name: 'Connect', exact: true }).click()
}

/** The report page until the push is done (the page refreshes itself, with or without JavaScript). */
async function waitForReport(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: /^Push to HubSpot/ })).toBeVisible()
  await expect(page.locator('[data-status="completed"]')).toBeVisible({ timeout: 30_000 })
}

async function pushAll(page: Page, exportId: string) {
  await page.goto(`/exports/${exportId}/push`)
  await page.getByLabel(`All leads (${LEADS})`).check()
  await page.getByRole('button', { name: 'Push leads' }).click()
  await waitForReport(page)
}

test.describe('CRM integrations', () => {
  test.describe.configure({ timeout: 180_000 })

  test('connect HubSpot, map, push an export twice without duplicates, push a chosen lead, disconnect', async ({ page, baseURL }, testInfo) => {
    const email = uniqueEmail('crm', testInfo)
    await signUpViaRequest(page, baseURL, { email })
    const exportId = await seedRichExport(email, { name: 'Boulangeries – CRM', count: LEADS, distinctSirens: true })

    await page.goto('/settings')
    await page.getByRole('link', { name: /^CRM integrations/ }).click()
    await expect(page.getByRole('heading', { name: 'CRM integrations', level: 1 })).toBeVisible()
    await expect(page.getByText('No CRM connected yet.')).toBeVisible()
    await expectNoA11yViolations(page)

    // The CRM refuses a wrong token: its reason is shown, the name typed is kept, nothing is stored.
    await connectHubspot(page, 'Sales HubSpot', 'pat-eu1-wrong-token-1234')
    await expect(page.getByText(/The CRM refused the credential/)).toBeVisible()
    await expect(pasteForm(page).getByLabel('Connection name')).toHaveValue('Sales HubSpot')
    // The server never sends a credential back into a page (with JavaScript the browser keeps what was typed).
    if (testInfo.project.name === 'chromium-nojs') await expect(page.getByLabel('Token, API key or service account JSON')).toHaveValue('')

    const token = tokenFor(email)
    await connectHubspot(page, 'Sales HubSpot', token)
    await expect(page.getByText('Connected. Your CRM is ready to receive leads.')).toBeVisible()
    const connection = page.getByTestId('crm-connection')
    await expect(connection).toContainText('HubSpot · Sales HubSpot')
    await expect(connection).toContainText(`Credential ${token.slice(0, 4)}…${token.slice(-4)}`)
    await expect(page.content()).resolves.not.toContain(token)

    await page.getByRole('button', { name: 'Test connection' }).click()
    await expect(page.getByText(/The connection works \(account \d+\)\./)).toBeVisible()

    await page.getByRole('link', { name: 'Field mapping' }).click()
    await page.getByLabel('Phone (E.164)').selectOption({ label: 'Don’t send' })
    await page.getByRole('button', { name: 'Save mapping' }).click()
    await expect(page.getByText('Field mapping saved.')).toBeVisible()
    await page.getByRole('link', { name: 'Field mapping' }).click()
    await expect(page.getByLabel('Phone (E.164)')).toHaveValue('skip')

    // From the export: push every lead, then again (nothing new), then one ticked lead.
    await page.goto(`/exports/${exportId}`)
    await page.getByRole('link', { name: 'Push to CRM' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Push “Boulangeries – CRM” to a CRM' })).toBeVisible()
    await expectNoA11yViolations(page)
    await pushAll(page, exportId)
    await expect(page.getByTestId('push-counts')).toHaveText(`${LEADS} created · 0 updated · 0 skipped · 0 failed`)
    await expect(page.getByTestId('push-items').getByRole('listitem')).toHaveCount(LEADS)
    await expectNoA11yViolations(page)

    await pushAll(page, exportId)
    await expect(page.getByTestId('push-counts')).toHaveText(`0 created · 0 updated · ${LEADS} skipped · 0 failed`)
    await expect(page.getByText('Nothing changed since the last push').first()).toBeVisible()

    await page.goto(`/exports/${exportId}/push`)
    await page.getByLabel('Only the leads ticked below').check()
    await page.getByRole('button', { name: 'Push leads' }).click()
    await expect(page.getByText('Tick at least one lead, or choose “All leads”.')).toBeVisible()
    await page.getByLabel('Only the leads ticked below').check()
    await page.getByRole('checkbox').first().check()
    await page.getByRole('button', { name: 'Push leads' }).click()
    await waitForReport(page)
    await expect(page.getByTestId('push-counts')).toHaveText('0 created · 0 updated · 1 skipped · 0 failed')

    await page.getByRole('link', { name: 'Back to pushes' }).click()
    await expect(page.getByRole('heading', { name: 'Pushes of this export' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'HubSpot · Sales HubSpot' })).toHaveCount(3)

    // Disconnect asks first.
    await page.goto(INTEGRATIONS)
    await page.getByRole('link', { name: 'Disconnect' }).click()
    await expect(page.getByRole('alertdialog')).toContainText('Disconnect HubSpot · Sales HubSpot?')
    await page.getByRole('alertdialog').getByRole('button', { name: 'Disconnect' }).click()
    await expect(page.getByText('Disconnected. The records already in your CRM stay there.')).toBeVisible()
    await expect(page.getByTestId('crm-connection')).toHaveCount(0)
  })

  test('connect HubSpot by signing in (OAuth): approved, it is connected; a forged callback connects nothing', async ({ page, baseURL }, testInfo) => {
    const email = uniqueEmail('crm-oauth', testInfo)
    await signUpViaRequest(page, baseURL, { email })
    // A callback this browser did not start (no state cookie, or another state) is refused.
    await page.goto(`${INTEGRATIONS}/oauth?code=stolen&state=forged`)
    await expect(page.getByText('The CRM sent back an approval this browser did not ask for (or it took more than 10 minutes). Start again.')).toBeVisible()
    await expect(page.getByTestId('crm-connection')).toHaveCount(0)

    const form = page.locator('#crm-oauth')
    await expect(form.getByRole('heading', { name: 'Connect by signing in to your CRM' })).toBeVisible()
    await form.getByLabel('Connection name').fill('HubSpot (OAuth)')
    await form.getByRole('button', { name: 'Continue to the CRM' }).click()
    // The fake CRM approves at once and sends the browser back to the callback.
    await expect(page.getByText('Connected. Your CRM is ready to receive leads.')).toBeVisible()
    await expect(page.getByTestId('crm-connection')).toContainText('HubSpot · HubSpot (OAuth)')
    await expect(page.getByTestId('crm-connection')).toContainText('Credential OAuth')
    await page.getByRole('button', { name: 'Test connection' }).click()
    await expect(page.getByText(/The connection works \(account \d+\)\./)).toBeVisible()
    await expectNoA11yViolations(page)
  })

  test('screens: the integrations page at 1440 px in English and the push report at 375 px in French', async ({ page, baseURL }, testInfo) => {
    test.skip(testInfo.project.name === 'chromium-nojs', 'screenshots once')
    const email = uniqueEmail('crm-screens', testInfo)
    await signUpViaRequest(page, baseURL, { email })
    const exportId = await seedRichExport(email, { name: 'Boulangeries du Finistère', count: LEADS, distinctSirens: true })
    await page.goto(INTEGRATIONS)
    await connectHubspot(page, 'Sales HubSpot', tokenFor(email))
    await expect(page.getByText('Connected. Your CRM is ready to receive leads.')).toBeVisible()
    await page.getByRole('link', { name: 'Field mapping' }).click()
    await expect(page.getByRole('heading', { name: 'Field mapping · HubSpot · Sales HubSpot' })).toBeVisible()
    await expect(pasteForm(page).getByLabel('Connection name')).toHaveValue('')
    await page.screenshot({ path: testInfo.outputPath('integrations-1440-en.png'), fullPage: true })
    await expectNoA11yViolations(page)
    await pushAll(page, exportId)
    await page.getByRole('button', { name: 'Français' }).click()
    await page.setViewportSize({ width: 375, height: 800 })
    await expect(page.getByRole('heading', { level: 1, name: /^Envoi vers HubSpot/ })).toBeVisible()
    await page.screenshot({ path: testInfo.outputPath('push-report-375-fr.png'), fullPage: true })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await expectNoA11yViolations(page)
    await page.goto(`/exports/${exportId}/push`)
    await page.screenshot({ path: testInfo.outputPath('push-375-fr.png'), fullPage: true })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await page.goto(INTEGRATIONS)
    await page.screenshot({ path: testInfo.outputPath('integrations-375-fr.png'), fullPage: true })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await expectNoA11yViolations(page)
  })
})
