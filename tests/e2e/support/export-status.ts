import { expect, type Page } from '@playwright/test'

/** Reloads the export's page until it has ended (the page refreshes itself too: with JS, or a meta refresh without). */
export async function waitForExportEnd(page: Page, timeout = 150_000) {
  await expect(async () => {
    await page.reload()
    await expect(page.locator('[data-status]').first()).toHaveAttribute('data-status', /^(completed|interrupted)$/, { timeout: 1000 })
  }).toPass({ timeout, intervals: [1000, 2000] })
}
