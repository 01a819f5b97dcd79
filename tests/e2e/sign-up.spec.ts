import { expect, test } from '@playwright/test'
import { emailInput, passwordInput, signUp } from './support/auth.ts'
import { signUpViaRequest } from './support/http.ts'
import { DEFAULT_PASSWORD, uniqueEmail } from './support/users.ts'

test.describe('sign-up', () => {
  test('step 1 then "Complete Your Profile", saved profile shows in the header and settings', async ({ page }, testInfo) => {
    const email = uniqueEmail('profile', testInfo)
    await page.goto('/login')
    await page.getByRole('link', { name: "Don't have an account? Sign up" }).click()
    await page.waitForURL(/mode=signup/)
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible()
    await expect(page.getByText('Step 1 of 2')).toBeVisible()
    await emailInput(page).fill(email)
    await passwordInput(page).fill(DEFAULT_PASSWORD)
    await page.getByRole('button', { name: 'Sign up', exact: true }).click()

    await page.waitForURL((url) => url.searchParams.get('step') === 'profile')
    await expect(page.getByRole('heading', { name: 'Complete Your Profile' })).toBeVisible()
    await expect(page.getByText('Step 2 of 2')).toBeVisible()
    await page.getByLabel('First name').fill('Ada')
    await page.getByLabel('Last name').fill('Lovelace')
    await page.getByLabel('Company name').fill('Analytical Engines Ltd')
    await page.getByLabel('Phone number').fill('+33 1 23 45 67 89')
    await page.getByRole('button', { name: 'Save and continue' }).click()

    await page.waitForURL((url) => url.pathname === '/')
    await expect(page.getByRole('heading', { name: 'Find leads', level: 1 })).toBeVisible()
    await expect(page.getByTestId('credits-summary')).toHaveText('100 / 100 credits')
    await page.getByTestId('credits-summary').click()
    await expect(page.getByTestId('plan-label')).toHaveText('Free Trial')
    await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100')
    await expect(page.getByRole('link', { name: 'Manage subscription' })).toBeVisible()

    await page.goto('/settings')
    await expect(page.getByLabel('First name')).toHaveValue('Ada')
    await expect(page.getByLabel('Last name')).toHaveValue('Lovelace')
    await expect(page.getByLabel('Company name')).toHaveValue('Analytical Engines Ltd')
    await expect(page.getByLabel('Phone number')).toHaveValue('+33 1 23 45 67 89')
    const emailField = page.getByLabel('Email')
    await expect(emailField).toHaveValue(email)
    await expect(emailField).not.toBeEditable()
    await expect(page.getByText('Your email address cannot be changed.')).toBeVisible()
  })

  test('"Skip for now" goes straight to "/"', async ({ page }, testInfo) => {
    await signUp(page, { email: uniqueEmail('skip', testInfo), skipProfile: true })
    await expect(page).toHaveURL((url) => url.pathname === '/')
    await expect(page.getByTestId('credits-summary')).toHaveText('100 / 100 credits')
    // A signed-in user who opens /login again is sent back into the app.
    await page.goto('/login')
    await expect(page).toHaveURL((url) => url.pathname === '/')
  })

  test('Enter in a profile field saves the profile (it is not "Skip for now")', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('enter', testInfo) })
    await page.goto('/login?mode=signup&step=profile')
    await page.getByLabel('First name').fill('Linus')
    await page.getByLabel('Phone number').fill('+46 8 123 456')
    await page.getByLabel('Phone number').press('Enter')
    await page.waitForURL((url) => url.pathname === '/')
    await page.goto('/settings')
    await expect(page.getByLabel('First name')).toHaveValue('Linus')
    await expect(page.getByLabel('Phone number')).toHaveValue('+46 8 123 456')
  })

  test('toggling between sign-in and sign-up', async ({ page }) => {
    await page.goto('/login?mode=signup')
    await page.getByRole('link', { name: 'Already have an account? Sign in' }).click()
    await page.waitForURL((url) => url.pathname === '/login' && !url.searchParams.has('mode'))
    await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible()
    await page.getByRole('link', { name: "Don't have an account? Sign up" }).click()
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible()
  })

  test('the profile step needs the account from step 1', async ({ page }) => {
    await page.goto('/login?mode=signup&step=profile')
    await expect(page).toHaveURL(/\/login\?mode=signup$/)
  })
})
