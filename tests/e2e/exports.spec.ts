import { expect, test, type Page } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { signUp } from './support/auth.ts'

// A village-sized demo search: few leads, so an export with two enrichments completes on the
// 100 free-trial credits.
const SEARCH = `/?sector=shop-bakery&country=France&region=${encodeURIComponent('Bretagne')}&department=${encodeURIComponent('Finistère')}&city=${encodeURIComponent('Plouguerneau')}&run=1`

async function waitForStatus(page: Page, statuses: RegExp) {
  // The page refreshes itself while processing (revalidation with JS, meta refresh without);
  // reloading here keeps the wait independent of either.
  await expect(async () => {
    await page.reload()
    await expect(page.locator('[data-status]').first()).toHaveAttribute('data-status', statuses, { timeout: 1000 })
  }).toPass({ timeout: 90_000, intervals: [1000, 2000] })
}

test.describe('exports', () => {
  test.describe.configure({ timeout: 180_000 })

  test('search → enrich and export → progress → detail → download → add enrichment → delete', async ({ page }) => {
    await signUp(page, { skipProfile: true })
    await page.goto(SEARCH)
    await expect(page.locator('table tbody tr').first()).toBeVisible()
    await page.getByRole('link', { name: 'Enrich and export' }).click()
    const dialog = page.getByRole('dialog', { name: 'Enrich and export' })
    await expect(dialog).toBeVisible()
    await expectNoA11yViolations(page)
    await dialog.getByLabel('Export name').fill('E2E bakeries')
    // Phone + email only (website and social are on by default).
    await dialog.getByLabel('Website', { exact: true }).uncheck()
    await dialog.getByLabel('Social media', { exact: true }).uncheck()
    await dialog.getByLabel(/Company registry/).uncheck()
    await dialog.getByRole('button', { name: 'Start export' }).click()
    // Started, the export's own page opens, not the list (issue "Polish round 3", item 4); the list shows it too.
    await page.waitForURL(/\/exports\/[0-9a-f-]{36}\?started=1$/)
    await expect(page.getByRole('status').filter({ hasText: 'Export started.' })).toBeVisible()
    const exportPath = new URL(page.url()).pathname
    await page.goto('/exports')
    const row = page.getByRole('link', { name: /E2E bakeries/ })
    await expect(row).toBeVisible()
    await expectNoA11yViolations(page)

    await row.click()
    await page.waitForURL((url) => url.pathname === exportPath)
    await waitForStatus(page, /^(completed|interrupted)$/)
    await expect(page.getByRole('heading', { name: 'E2E bakeries' })).toBeVisible()
    await expect(page.getByText('Demo data')).toBeVisible()
    const rows = page.getByTestId('lead-row')
    expect(await rows.count()).toBeGreaterThan(0)
    expect(await rows.count()).toBeLessThanOrEqual(10)
    // Emails found on the demo websites show in the email column.
    await expect(page.locator('td[data-column=email] a[href^="mailto:"]').first()).toBeVisible()
    // Each number shows its line type (demo listings give landlines; some contact pages add the owner's mobile).
    await expect(page.locator('td[data-column=phone]').getByText('Landline', { exact: true }).first()).toBeVisible()
    await expectNoA11yViolations(page)

    // Paging is plain links.
    const next = page.getByRole('link', { name: 'Next' })
    if (await next.count()) {
      await next.click()
      await expect(page).toHaveURL(/page=2/)
      await page.getByRole('link', { name: 'Previous' }).click()
      await expect(page).toHaveURL(/page=1/)
    }

    // CSV download: BOM, header and the leads, for this user only.
    const exportId = new URL(page.url()).pathname.split('/').pop()!
    const csv = await page.request.get(`/api/exports/${exportId}/download?format=csv`)
    expect(csv.status()).toBe(200)
    expect(csv.headers()['content-disposition']).toMatch(/attachment; filename="e2e_bakeries_\d{4}-\d{2}-\d{2}\.csv"/)
    const body = await csv.body()
    expect(body.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]))
    expect(body.toString('utf8')).toContain('@')
    // Every business number with its type: the main one's type, then the others ("mobile: +33 6 …").
    expect(body.toString('utf8').split('\r\n')[0]).toContain('Phone type,Other phones')
    expect(body.toString('utf8')).toMatch(/,landline,/)
    expect(body.toString('utf8')).toMatch(/mobile: \+33 6/)
    // The Download menu offers both CSV dialects (submit buttons of a GET form: JS on and off), English first for an English user.
    await page.getByText('Download', { exact: true }).click()
    const choices = page.locator('button[data-choice]')
    await expect(choices.first()).toBeVisible()
    expect(await choices.evaluateAll((buttons) => buttons.map((button) => button.getAttribute('data-choice')))).toEqual(['csv-comma', 'csv-semicolon', 'xlsx'])
    await expect(page.getByRole('button', { name: /CSV \(,\) Excel in English/ })).toBeVisible()
    const semicolonButton = page.getByRole('button', { name: /CSV \(;\) Excel in French/ })
    await expect(semicolonButton).toBeVisible()
    await expect(page.getByRole('button', { name: /^Excel Excel workbook/ })).toBeVisible()
    await expectNoA11yViolations(page)
    // French Excel's dialect: ";" between fields, "," in numbers, same rows.
    const frenchCsv = await page.request.get(`/api/exports/${exportId}/download?${await semicolonButton.getAttribute('name')}=${await semicolonButton.getAttribute('value')}`)
    expect(frenchCsv.status()).toBe(200)
    const [frenchHeader, firstLead] = (await frenchCsv.body()).subarray(3).toString('utf8').split('\r\n')
    expect(frenchHeader).toMatch(/^Name;Address;City;Postal code;/)
    expect(firstLead!.split(';').length).toBeGreaterThanOrEqual(frenchHeader!.split(';').length)
    expect(body.toString('utf8').split('\r\n')[0]).toMatch(/^\uFEFF?Name,Address,City,Postal code,/)
    expect((await page.request.get(`/api/exports/${exportId}/download?format=csv&separator=tab`)).status()).toBe(400)
    await page.keyboard.press('Escape')
    const xlsx = await page.request.get(`/api/exports/${exportId}/download?format=xlsx`)
    expect(xlsx.status()).toBe(200)
    expect((await xlsx.body()).subarray(0, 2).toString()).toBe('PK')

    // Add enrichment (completed exports only).
    if ((await page.locator('[data-status]').first().getAttribute('data-status')) === 'completed') {
      await page.getByRole('link', { name: 'Add enrichment' }).click()
      const add = page.getByRole('dialog', { name: 'Add enrichment' })
      await expect(add).toBeVisible()
      await expect(add.getByRole('checkbox', { name: /^Phone/ })).toBeDisabled()
      await add.getByLabel('Social media', { exact: true }).check()
      await add.getByRole('button', { name: 'Add enrichment' }).click()
      await expect(page.getByText('Enrichment added. The export is processing.')).toBeVisible()
      await waitForStatus(page, /^(completed|interrupted)$/)
      await expect(page.getByRole('columnheader', { name: 'Social media' })).toBeVisible()
    }

    // Delete with confirmation: a direct button (a one-item menu was one click too many).
    await expect(page.locator('summary', { hasText: 'Actions' })).toHaveCount(0)
    await page.getByRole('link', { name: 'Delete' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete this export?' })
    await expect(confirm).toBeVisible()
    await confirm.getByRole('button', { name: 'Delete export' }).click()
    await page.waitForURL((url) => url.pathname === '/exports')
    await expect(page.getByText('Export deleted.')).toBeVisible()
    await expect(page.getByText('You have no exports yet.')).toBeVisible()
  })

  test("another user's export is not found, in pages and API", async ({ page, browser, baseURL }) => {
    await signUp(page, { skipProfile: true })
    await page.goto(SEARCH.replace('&run=1', '&run=1&export=1'))
    await page.getByRole('dialog', { name: 'Enrich and export' }).getByRole('button', { name: 'Start export' }).click()
    await page.waitForURL(/\/exports\/[0-9a-f-]{36}\?started=1$/)
    const exportId = new URL(page.url()).pathname.split('/').pop()!

    const other = await browser.newContext({ baseURL })
    const otherPage = await other.newPage()
    await signUp(otherPage, { skipProfile: true })
    const response = await otherPage.goto(`/exports/${exportId}`)
    expect(response?.status()).toBe(404)
    await expect(otherPage.getByText('Export not found')).toBeVisible()
    const origin = { Origin: new URL(baseURL!).origin }
    expect((await otherPage.request.get(`/api/exports/${exportId}/download?format=csv`)).status()).toBe(404)
    expect((await otherPage.request.post('/api/exports/resume', { headers: origin, data: { exportId, userId: 'someone-else' } })).status()).toBe(403)
    await other.close()
    // A fresh tab: without JavaScript the processing export's page refreshes itself, which could cut this navigation short.
    const fresh = await page.context().newPage()
    expect((await fresh.goto('/exports/not-a-uuid'))?.status()).toBe(404)
  })
})
