import { expect, test } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { signUpViaRequest } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

test.describe('accessibility (axe, WCAG 2 A/AA, serious and critical)', () => {
  test.slow() // axe takes about a second per page on these machines

  test('public pages', async ({ page }) => {
    for (const path of ['/login', '/login?mode=signup', '/login?mode=forgot', '/reset-password']) {
      await page.goto(path)
      await expect(page.locator('h2').first()).toBeVisible()
      await expectNoA11yViolations(page)
    }
  })

  test('signed-in pages', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('a11y', testInfo) })
    for (const path of ['/', '/settings', '/exports', '/subscription']) {
      await page.goto(path)
      await expect(page.locator('h1')).toBeVisible()
      await expectNoA11yViolations(page)
    }
    // The open credits dropdown too.
    await page.getByTestId('credits-summary').click()
    await expect(page.getByTestId('plan-label')).toBeVisible()
    await expectNoA11yViolations(page)
  })
})
