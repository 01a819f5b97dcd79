import { expect, test } from '@playwright/test'
import { emailInput, passwordInput, signIn, submitSignIn } from './support/auth.ts'
import { readLatestEmail } from './support/outbox.ts'
import { createUser, nextDocumentPost, nextPost, sameOrigin } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

test.describe('sign-in and sign-up errors', () => {
  for (const mode of ['signup', 'signin'] as const) {
    test(`${mode}: bad email and short password show the validation messages, keeping the email`, async ({ page, javaScriptEnabled, baseURL }) => {
      await page.goto(mode === 'signup' ? '/login?mode=signup' : '/login')
      await emailInput(page).fill('not-an-email')
      await passwordInput(page).fill('123')
      // Without JS the browser posts the form and the server answers 400 with the re-rendered
      // form; with JS the same schema runs in the browser first and nothing is posted.
      const post = javaScriptEnabled ? null : nextDocumentPost(page, '/login')
      await page.getByRole('button', { name: mode === 'signup' ? 'Sign up' : 'Sign in', exact: true }).click()
      if (post) expect((await post).status()).toBe(400)
      await expect(page.getByText('Please enter a valid email address')).toBeVisible()
      await expect(page.getByText('Password must be at least 6 characters')).toBeVisible()
      await expect(emailInput(page)).toHaveValue('not-an-email')
      await expect(emailInput(page)).toHaveAttribute('aria-invalid', 'true')
      // The server never echoes a password back.
      if (!javaScriptEnabled) await expect(passwordInput(page)).toHaveValue('')

      // Empty fields: "required" messages.
      await emailInput(page).fill('')
      await passwordInput(page).fill('')
      const post2 = javaScriptEnabled ? null : nextDocumentPost(page, '/login')
      await page.getByRole('button', { name: mode === 'signup' ? 'Sign up' : 'Sign in', exact: true }).click()
      if (post2) expect((await post2).status()).toBe(400)
      await expect(page.getByText('Email is required')).toBeVisible()
      await expect(page.getByText('Password is required')).toBeVisible()

      // The server enforces the same rules whatever the client does.
      const response = await page.request.post(mode === 'signup' ? '/login?mode=signup' : '/login', {
        form: { intent: mode, email: 'not-an-email', password: '123' },
        headers: sameOrigin(baseURL),
        maxRedirects: 0,
      })
      expect(response.status()).toBe(400)
    })
  }

  test('sign-up with a registered address answers "check your email" like any sign-up, and the owner is told by email', async ({ page, request, baseURL, javaScriptEnabled }, testInfo) => {
    const user = await createUser(request, baseURL, { email: uniqueEmail('dup', testInfo) })
    await page.goto('/login?mode=signup')
    await emailInput(page).fill(user.email)
    await passwordInput(page).fill('another-password')
    const post = javaScriptEnabled ? null : nextDocumentPost(page, '/login')
    await page.getByRole('button', { name: 'Sign up', exact: true }).click()
    if (post) expect((await post).status()).toBe(200)
    const notice = page.getByRole('status').filter({ hasText: 'Check your email' })
    await expect(notice).toHaveText(`Check your email: we sent a message to ${user.email} with the next step.`)
    await expect(page.getByText('already been registered')).toHaveCount(0)
    await expect(page).toHaveURL(/mode=signup/)

    const email = await readLatestEmail(user.email)
    expect(email.subject).toBe('Someone tried to create an account with your address')
    expect(email.text).toContain('Sign in to LeadAtlas:')
    // The account is untouched: its own password still signs in.
    await signIn(page, user)
    await expect(page).toHaveURL((url) => url.pathname === '/')
  })

  test('sign-up with a common password says so next to the password field, in French too', async ({ page, baseURL, javaScriptEnabled }, testInfo) => {
    const email = uniqueEmail('common', testInfo)
    await page.goto('/login?mode=signup')
    await emailInput(page).fill(email)
    await passwordInput(page).fill('password')
    // The check runs on the server (its dictionary stays out of the browser): a post either way.
    const post = nextPost(page, '/login')
    await page.getByRole('button', { name: 'Sign up', exact: true }).click()
    expect((await post).status()).toBe(400)
    await expect(page.getByText('This password is too common and easy to guess. Please choose another one.')).toBeVisible()
    await expect(passwordInput(page)).toHaveAttribute('aria-invalid', 'true')
    await expect(emailInput(page)).toHaveValue(email)
    if (!javaScriptEnabled) await expect(passwordInput(page)).toHaveValue('')

    const french = await page.request.post('/login?mode=signup', {
      form: { intent: 'signup', email, password: '123456' },
      headers: { ...sameOrigin(baseURL), 'Accept-Language': 'fr-FR' },
      maxRedirects: 0,
    })
    expect(french.status()).toBe(400)
    expect(await french.text()).toContain('Ce mot de passe est trop courant et facile à deviner. Veuillez en choisir un autre.')
  })

  test('wrong password shows "Invalid login credentials" in a red box', async ({ page, request, baseURL, javaScriptEnabled }, testInfo) => {
    const user = await createUser(request, baseURL, { email: uniqueEmail('wrongpw', testInfo) })
    await page.goto('/login')
    const post = javaScriptEnabled ? null : nextDocumentPost(page, '/login')
    await submitSignIn(page, { ...user, password: 'not-the-password' }, { goto: false })
    if (post) expect((await post).status()).toBe(400)
    const alert = page.getByRole('alert')
    await expect(alert).toHaveText('Invalid login credentials')
    await expect(alert).toHaveClass(/bg-red-50/)
    await expect(emailInput(page)).toHaveValue(user.email)
    await expect(page).toHaveURL((url) => url.pathname === '/login')
    // An unknown account gets the same answer (no account enumeration).
    const unknown = uniqueEmail('nobody', testInfo)
    const second = nextPost(page, '/login')
    await submitSignIn(page, { email: unknown, password: 'whatever-123' }, { goto: false })
    expect((await second).status()).toBe(400)
    await expect(emailInput(page)).toHaveValue(unknown)
    await expect(page.getByRole('alert')).toHaveText('Invalid login credentials')
  })
})
