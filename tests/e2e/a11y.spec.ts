import { expect, test } from '@playwright/test'
import { expectNoA11yViolationsAt } from './support/a11y.ts'
import { signUpViaRequest } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

test.describe('accessibility (axe, WCAG 2 A/AA, serious and critical)', () => {
  test.slow() // axe takes one to several seconds per page on these machines

  test('public pages', async ({ page }) => {
    await expectNoA11yViolationsAt(page, ['/login', '/login?mode=signup', '/login?mode=forgot', '/reset-password'], async (target) => {
      await expect(target.locator('h2').first()).toBeVisible()
    })
  })

  test('signed-in pages', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('a11y', testInfo) })
    await expectNoA11yViolationsAt(page, ['/', '/settings', '/exports', '/subscription'], async (target) => {
      await expect(target.locator('h1').first()).toBeVisible()
    })
  })

  test('the open credits dropdown', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('a11y-credits', testInfo) })
    await expectNoA11yViolationsAt(page, ['/subscription'], async (target) => {
      await target.getByTestId('credits-summary').click()
      await expect(target.getByTestId('plan-label')).toBeVisible()
    })
  })
})
