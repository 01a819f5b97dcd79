import { expect, test } from '@playwright/test'
import { signUpViaRequest } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

test.describe('language', () => {
  test('English by default for a new visitor', async ({ page }) => {
    await page.goto('/login')
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true')
  })

  test('a page whose texts come with it (app/i18n.ts pageTexts) speaks both languages, reached by a link and switched in place', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('lang-page-texts', testInfo) })
    await page.goto('/settings/api')
    // A client navigation (with JavaScript) loads the page's texts with its module.
    await page.getByRole('link', { name: /webhooks/i }).first().click()
    await expect(page.getByRole('heading', { name: 'Your endpoints' })).toBeVisible()
    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Français' }).click()
    await expect(page.getByRole('heading', { name: 'Vos adresses' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Ajouter une adresse' })).toBeVisible()
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Vos adresses' })).toBeVisible()
  })

  test('the header switcher turns the UI French, and it sticks after a reload', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('lang', testInfo) })
    await page.goto('/')
    const nav = page.locator('aside')
    await expect(nav.getByRole('link', { name: 'Find leads' })).toBeVisible()

    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Français' }).click()
    await expect(nav.getByRole('link', { name: 'Trouver des prospects' })).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
    await expect(page).toHaveURL((url) => url.pathname === '/')
    await expect(page.getByRole('button', { name: 'Français' })).toHaveAttribute('aria-pressed', 'true')

    // Remembered in a cookie, so the server renders French from then on.
    const cookie = (await page.context().cookies()).find((c) => c.name === 'lng')
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' })
    await page.reload()
    await expect(nav.getByRole('link', { name: 'Trouver des prospects' })).toBeVisible()
    await expect(nav.getByRole('button', { name: 'Se déconnecter' })).toBeVisible()
    await page.goto('/settings')
    await expect(page.getByText('Votre adresse e-mail ne peut pas être modifiée.')).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr')

    // And back; the switcher stays on the page it was used from.
    await page.getByRole('group', { name: 'Langue' }).getByRole('button', { name: 'English' }).click()
    await expect(page.getByText('Your email address cannot be changed.')).toBeVisible()
    await expect(page).toHaveURL((url) => url.pathname === '/settings')
  })

  test('the switcher also works on the sign-in page', async ({ page }) => {
    await page.goto('/login?mode=signup')
    await page.getByRole('button', { name: 'Français' }).click()
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
    await expect(page).toHaveURL(/mode=signup/)
    await expect(page.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'false')
  })

  test.describe('with a French browser', () => {
    test.use({ locale: 'fr-FR' })
    test('Accept-Language fr gives French to a new visitor', async ({ page }) => {
      await page.goto('/login')
      await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
      await expect(page.getByRole('button', { name: 'Français' })).toHaveAttribute('aria-pressed', 'true')
      await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toHaveCount(0)
      await expect(page.getByRole('link', { name: /Mot de passe oublié/ })).toBeVisible()
      const invalid = await page.goto('/reset-password')
      expect(invalid?.status()).toBe(400)
      // SPEC §8 gives the French texts for the reset screens.
      await expect(page.getByRole('alert')).toHaveText('Lien de réinitialisation invalide ou expiré.')
    })
  })
})
