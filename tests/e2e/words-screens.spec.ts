import { expect, test } from '@playwright/test'
import { sql } from './support/db.ts'
import { signUpViaRequest } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

/**
 * Not a test: captures the header, sign-in, subscription, export modal and sandbox portal at 375 and
 * 1440 px, in English and French, into scratch/screens/words/. `SCREENSHOTS=1 npx playwright test words-screens --project=chromium-js`.
 */
test.skip(!process.env.SCREENSHOTS, 'set SCREENSHOTS=1 to capture the screens')
test.use({ reducedMotion: 'reduce' })

const SEARCH = `/?${new URLSearchParams({ sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Plouguerneau' })}&run=1`
const WIDTHS = [375, 1440] as const

for (const language of ['en', 'fr'] as const) {
  test.describe(language, () => {
    test.use({ locale: language === 'fr' ? 'fr-FR' : 'en-US' })
    test(`capture (${language})`, async ({ page, baseURL }, testInfo) => {
      test.slow()
      const dir = `scratch/screens/words/${language}`
      const shot = async (name: string, fullPage = true) => {
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: width === 375 ? 812 : 900 })
          await page.waitForTimeout(150)
          await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage })
        }
      }
      await page.goto('/login')
      await shot('login')

      const { email } = await signUpViaRequest(page, baseURL, { email: uniqueEmail(`words-${language}`, testInfo) })
      await page.goto(SEARCH)
      await expect(page.locator('table tbody tr').first()).toBeVisible()
      await shot('header-search', false)
      await page.setViewportSize({ width: 375, height: 812 })
      await page.locator('header a[aria-controls="mobile-menu"]').click()
      await page.screenshot({ path: `${dir}/drawer-375.png` })
      await page.keyboard.press('Escape')

      await page.goto(`${SEARCH}&export=1`)
      await shot('export-modal', false)
      await page.locator('#export-form input[name=name]').fill('')
      await page.locator('#export-form button[type=submit]').click()
      await page.waitForTimeout(300)
      await shot('export-modal-name-error', false)

      await page.goto('/subscription')
      await shot('subscription')

      // Sandbox checkout, then the portal and its cancel confirmation.
      await page.setViewportSize({ width: 1440, height: 900 })
      await page.getByTestId('plan-professional').locator('button[type=submit]').click()
      await page.waitForURL(/\/billing\/sandbox\/checkout/)
      await page.locator('form button[type=submit]').last().click()
      await page.waitForURL((url) => url.pathname === '/subscription')
      await shot('subscription-professional')
      await page.getByTestId('plan-professional').locator('button[type=submit]').click()
      await page.waitForURL(/\/billing\/sandbox\/portal/)
      await shot('portal')
      await page.goto(`${page.url()}&confirm=cancel#cancel-title`)
      await shot('portal-cancel-confirm')

      await sql(
        `select public.apply_credit_change(u.id, -c.remaining_credits, 'adjustment', 'e2e-drain:' || u.id)
           from auth.users u join public.user_credits c on c.user_id = u.id where u.email = $1 and c.remaining_credits > 0`,
        [email],
      )
      await page.goto(`${SEARCH}&export=1`)
      await shot('export-modal-no-credits', false)
    })
  })
}
