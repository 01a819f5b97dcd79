import { expect, test } from '@playwright/test'
import { signUpViaRequest } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

/**
 * Not a test: captures the main screens into scratch/screens/<project>/ for a human look.
 * Run with `SCREENSHOTS=1 npx playwright test screens` (after `npm run build`).
 */
test.skip(!process.env.SCREENSHOTS, 'set SCREENSHOTS=1 to capture the screens')
test.use({ reducedMotion: 'reduce' })

test('capture screens', async ({ page, baseURL }, testInfo) => {
  test.slow()
  const dir = `scratch/screens/${testInfo.project.name.replace(/^chromium-/, '')}`
  const shot = (name: string, fullPage = true) => page.screenshot({ path: `${dir}/${name}.png`, fullPage })

  await page.goto('/login')
  await shot('login')
  await page.goto('/login?mode=signup')
  await shot('signup')
  await page.goto('/login?mode=forgot')
  await shot('forgot')
  await page.goto('/reset-password')
  await shot('reset-password-invalid')
  await page.goto('/reset-password?required=true')
  await shot('reset-password-form')
  await page.setViewportSize({ width: 375, height: 812 })
  await page.goto('/login')
  await shot('login-mobile')
  await page.setViewportSize({ width: 1440, height: 900 })

  await signUpViaRequest(page, baseURL, { email: uniqueEmail('screens', testInfo) })
  await page.goto('/login?mode=signup&step=profile')
  await shot('signup-profile')
  await page.goto('/')
  await expect(page.locator('h1')).toBeVisible()
  await shot('home-desktop')
  await page.getByTestId('credits-summary').click()
  await shot('home-desktop-credits')
  await page.goto('/settings')
  await shot('settings')
  await page.getByLabel('First name').fill('Ada')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Your profile has been updated successfully.')).toBeVisible()
  await shot('settings-saved')
  await page.getByLabel('Company name').fill('x'.repeat(121))
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('This field is too long (maximum 120 characters).')).toBeVisible()
  await shot('settings-error')
  const savedCollapse = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/preferences'))
  await page.locator('aside').getByRole('button', { name: 'Collapse sidebar' }).click()
  await savedCollapse
  await expect(page.locator('aside')).toHaveAttribute('data-collapsed', 'true')
  await page.goto('/exports')
  await shot('exports-collapsed')
  const savedExpand = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/preferences'))
  await page.locator('aside').getByRole('button', { name: 'Expand sidebar' }).click()
  await savedExpand
  await expect(page.locator('aside')).toHaveAttribute('data-collapsed', 'false')
  await page.goto('/nope')
  await shot('not-found')

  await page.setViewportSize({ width: 375, height: 812 })
  await page.goto('/settings')
  await shot('settings-mobile')
  await page.goto('/')
  await shot('home-mobile')
  await page.getByRole('link', { name: 'Open menu' }).click()
  await expect(page.getByRole('dialog', { name: 'Main menu' })).toBeVisible()
  await shot('home-mobile-drawer', false)
})
