import { expect, type Page } from '@playwright/test'
import { DEFAULT_PASSWORD, type TestUser, uniqueEmail } from './users.ts'

export interface Profile {
  firstName?: string
  lastName?: string
  companyName?: string
  phone?: string
}

/** Inputs by their visible label; `exact` keeps "Password" from matching the "Show password" toggle. */
export const emailInput = (page: Page) => page.getByLabel('Email', { exact: true })
export const passwordInput = (page: Page) => page.getByLabel('Password', { exact: true })

/**
 * Signs a new user up through the UI (step 1, then step 2 saved or skipped) and waits for "/".
 * Works with and without JavaScript: it only waits for URLs and text, never for client state.
 */
export async function signUp(page: Page, options: { email?: string; password?: string; skipProfile?: boolean; profile?: Profile } = {}): Promise<TestUser> {
  const user = { email: options.email ?? uniqueEmail('signup'), password: options.password ?? DEFAULT_PASSWORD }
  await page.goto('/login?mode=signup')
  await emailInput(page).fill(user.email)
  await passwordInput(page).fill(user.password)
  await page.getByRole('button', { name: 'Sign up', exact: true }).click()
  await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('step') === 'profile')
  await expect(page.getByRole('heading', { name: 'Complete Your Profile' })).toBeVisible()
  if (options.skipProfile) {
    await page.getByRole('button', { name: 'Skip for now' }).click()
  } else {
    const profile = options.profile ?? {}
    if (profile.firstName) await page.getByLabel('First name').fill(profile.firstName)
    if (profile.lastName) await page.getByLabel('Last name').fill(profile.lastName)
    if (profile.companyName) await page.getByLabel('Company name').fill(profile.companyName)
    if (profile.phone) await page.getByLabel('Phone number').fill(profile.phone)
    await page.getByRole('button', { name: 'Save and continue' }).click()
  }
  await page.waitForURL((url) => url.pathname === '/')
  return user
}

/** Fills the sign-in form on the current /login page (or opens it) and submits it. */
export async function submitSignIn(page: Page, user: TestUser, { goto = true }: { goto?: boolean } = {}) {
  if (goto) await page.goto('/login')
  await emailInput(page).fill(user.email)
  await passwordInput(page).fill(user.password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

/** Signs in through the UI and waits until the app left /login. */
export async function signIn(page: Page, user: TestUser, options: { goto?: boolean } = {}) {
  await submitSignIn(page, user, options)
  await page.waitForURL((url) => url.pathname !== '/login')
}
