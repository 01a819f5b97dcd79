import { expect, test, type Page } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { signUp } from './support/auth.ts'

// The village-sized demo search of exports.spec.ts: its phone + email export fits the 100 free-trial credits.
const SEARCH = `/?sector=shop-bakery&country=France&region=${encodeURIComponent('Bretagne')}&department=${encodeURIComponent('Finistère')}&city=${encodeURIComponent('Plouguerneau')}&run=1`

async function waitForStatus(page: Page, statuses: RegExp) {
  await expect(async () => {
    await page.reload()
    await expect(page.locator('[data-status]').first()).toHaveAttribute('data-status', statuses, { timeout: 1000 })
  }).toPass({ timeout: 90_000, intervals: [1000, 2000] })
}

/** Exports the search with phone + email and opens the export once it has finished. */
async function exportPhonesAndEmails(page: Page, name: string) {
  await page.goto(SEARCH)
  await expect(page.locator('table tbody tr').first()).toBeVisible()
  await page.getByRole('link', { name: 'Enrich and export' }).click()
  const dialog = page.getByRole('dialog', { name: 'Enrich and export' })
  await dialog.getByLabel('Export name').fill(name)
  await dialog.getByLabel('Website', { exact: true }).uncheck()
  await dialog.getByLabel('Social media', { exact: true }).uncheck()
  await dialog.getByLabel(/Company registry/).uncheck()
  await dialog.getByRole('button', { name: 'Start export' }).click()
  await page.waitForURL(/\/exports\/[0-9a-f-]{36}\?started=1$/)
  await waitForStatus(page, /^completed$/)
  return new URL(page.url()).pathname.split('/').pop() as string
}

test.describe('never pay twice', () => {
  test.describe.configure({ timeout: 240_000 })

  test('the same search exported again costs 0 credits and its leads are marked reused, on the page and in the file', async ({ page }, testInfo) => {
    await signUp(page, { skipProfile: true })
    await exportPhonesAndEmails(page, 'First bakeries')
    const firstCost = Number((await page.getByTestId('credits-used').innerText()).replace(/\D/g, ''))
    expect(firstCost).toBeGreaterThan(0)
    await expect(page.getByTestId('reused-mark')).toHaveCount(0)
    await expect(page.getByTestId('reused-count')).toHaveCount(0)

    // Before the repeat starts, its cost already leaves out what never-pay-twice will not charge (and says so).
    await page.goto(SEARCH.replace('&run=1', '&run=1&export=1'))
    const dialog = page.getByRole('dialog', { name: 'Enrich and export' })
    await dialog.getByLabel('Website', { exact: true }).uncheck()
    await dialog.getByLabel('Social media', { exact: true }).uncheck()
    await dialog.getByLabel(/Company registry/).uncheck()
    if (testInfo.project.name === 'chromium-nojs') {
      // Without JavaScript the panel follows the choices through "Recalculate", which keeps every one of them.
      await dialog.getByTestId('cost-recalculate').click()
      await expect(dialog.getByLabel('Website', { exact: true })).not.toBeChecked()
      await expect(dialog.getByLabel('Email', { exact: true })).toBeChecked()
    }
    const leads = Number((await dialog.getByTestId('cost-leads').innerText()).replace(/\D/g, ''))
    await expect(dialog.getByTestId('cost-maxCredits')).toHaveText(String(leads * 2 - firstCost))
    await expect(dialog.getByTestId('cost-already-paid')).toContainText(`${leads} leads,`)
    await expect(dialog.getByTestId('cost-already-paid')).toContainText('already paid within 90 days')

    const secondId = await exportPhonesAndEmails(page, 'Same bakeries again')
    await expect(page.getByTestId('credits-used')).toHaveText('0')
    // Every result the first export paid for comes back free: the summary counts them.
    await expect(page.getByTestId('reused-count')).toHaveText(`${firstCost} results reused for free`)
    const marks = page.getByTestId('lead-row').getByTestId('reused-mark')
    expect(await marks.count()).toBeGreaterThan(0)
    await expect(marks.first()).toContainText('Reused')
    await expectNoA11yViolations(page)

    // The file says so too, with the date of the purchase; and where each email was found.
    const csv = await page.request.get(`/api/exports/${secondId}/download?format=csv`)
    expect(csv.status()).toBe(200)
    const text = (await csv.body()).toString('utf8')
    expect(text).toContain('Email sources')
    expect(text).toMatch(/Reused \(\d{4}-\d{2}-\d{2}\)/)
    expect(text).not.toMatch(/,Found[,\r]/)

    if (process.env.SCREENSHOTS) {
      const dir = `scratch/reuse/${testInfo.project.name.replace(/^chromium-/, '')}`
      for (const language of ['en', 'fr']) {
        if (language === 'fr') {
          await page.getByRole('button', { name: 'Français' }).click()
          await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
        }
        for (const [width, height] of [[1440, 900], [375, 812]] as const) {
          await page.setViewportSize({ width, height })
          await page.goto(`/exports/${secondId}`)
          await page.screenshot({ path: `${dir}/detail-${language}-${width}.png`, fullPage: true })
        }
      }
    }
  })
})
