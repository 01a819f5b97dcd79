import { expect, test } from '@playwright/test'
import { signIn, submitSignIn } from './support/auth.ts'
import { createUser, nextDocumentPost, nextPost } from './support/http.ts'
import { readResetLink } from './support/outbox.ts'
import { uniqueEmail } from './support/users.ts'

test.describe('password reset', () => {
  test('forgot password → email → new password → back to sign-in with the new password', async ({ page, request, baseURL, javaScriptEnabled }, testInfo) => {
    const user = await createUser(request, baseURL, { email: uniqueEmail('reset', testInfo) })
    const newPassword = 'brand-new-secret-7'

    await page.goto('/login')
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    await page.waitForURL(/mode=forgot/)
    const dialog = page.getByRole('dialog', { name: 'Reset Password' })
    await expect(dialog).toBeVisible()
    await dialog.getByLabel('Email').fill(user.email)
    await dialog.getByRole('button', { name: 'Send reset link' }).click()
    await expect(page.getByRole('dialog', { name: 'Email sent!' })).toBeVisible()
    await expect(page.getByRole('dialog', { name: 'Email sent!' })).toContainText(user.email)

    const link = await readResetLink(user.email)
    expect(new URL(link).origin).toBe(new URL(baseURL!).origin)
    expect(new URL(link).pathname).toBe('/reset-password')
    await page.goto(link)
    // The one-time token is exchanged for a session and leaves the URL.
    await expect(page).toHaveURL((url) => url.pathname === '/reset-password' && !url.search)
    await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible()

    const password = page.getByLabel('New password', { exact: true })
    const confirm = page.getByLabel('Confirm password', { exact: true })
    const submit = page.getByRole('button', { name: 'Update password' })
    await password.fill(newPassword)
    await confirm.fill(`${newPassword}-typo`)
    const mismatchPost = javaScriptEnabled ? null : nextDocumentPost(page, '/reset-password')
    await submit.click()
    if (mismatchPost) expect((await mismatchPost).status()).toBe(400)
    await expect(page.getByText('Passwords do not match.')).toBeVisible()

    await password.fill('12345')
    await confirm.fill('12345')
    await submit.click()
    await expect(page.getByText('Password must contain at least 6 characters.')).toBeVisible()

    // A common password passes the browser's length rule; the server refuses it next to the field.
    await password.fill('password')
    await confirm.fill('password')
    const commonPost = nextPost(page, '/reset-password')
    await submit.click()
    expect((await commonPost).status()).toBe(400)
    await expect(page.getByText('This password is too common and easy to guess. Please choose another one.')).toBeVisible()
    await expect(password).toHaveAttribute('aria-invalid', 'true')

    await password.fill(newPassword)
    await confirm.fill(newPassword)
    const loginDocuments: string[] = []
    page.on('request', (req) => {
      if (req.resourceType() === 'document' && new URL(req.url()).pathname === '/login') loginDocuments.push(req.url())
    })
    const submittedAt = Date.now()
    await submit.click()
    await expect(page.getByRole('heading', { name: 'Password updated' })).toBeVisible()
    await expect(page.getByText('Password updated successfully. You can now sign in.')).toBeVisible()

    // With JS a timer navigates after 3 s; without JS a meta refresh does the same.
    await page.waitForURL((url) => url.pathname === '/login', { timeout: 15_000 })
    // Not straight away: the success screen stays up for 3 s (a lower bound holds on a busy machine).
    expect(Date.now() - submittedAt).toBeGreaterThanOrEqual(2_900)
    await expect(page.getByRole('status').filter({ hasText: 'Password updated successfully. You can now sign in.' })).toBeVisible()
    // With JS the move is one client-side navigation (no full reload on top); without JS one document load.
    await page.waitForTimeout(1_000)
    expect(loginDocuments).toHaveLength(javaScriptEnabled ? 0 : 1)

    await submitSignIn(page, user, { goto: false })
    await expect(page.getByRole('alert')).toHaveText('Invalid login credentials')
    await signIn(page, { email: user.email, password: newPassword }, { goto: false })
    await expect(page).toHaveURL((url) => url.pathname === '/')

    // The link was single-use.
    await page.context().clearCookies()
    await page.goto(link)
    await expect(page.getByText('An error occurred while verifying the link.')).toBeVisible()
  })

  test('the reset dialog validates, and Cancel returns to sign-in', async ({ page }) => {
    await page.goto('/login?mode=forgot')
    const dialog = page.getByRole('dialog', { name: 'Reset Password' })
    await dialog.getByRole('button', { name: 'Send reset link' }).click()
    await expect(dialog.getByText('Email is required')).toBeVisible()
    await dialog.getByRole('link', { name: 'Cancel' }).click()
    await page.waitForURL((url) => url.pathname === '/login' && !url.searchParams.has('mode'))
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible()
    // Reopening starts clean: no error, no "sent" state.
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    await expect(page.getByRole('dialog', { name: 'Reset Password' })).toBeVisible()
    await expect(page.getByText('Email is required')).toHaveCount(0)
    await page.getByRole('link', { name: 'Close' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
  })

  test('a link without a token, or with a bogus one, is refused', async ({ page }) => {
    const invalid = await page.goto('/reset-password')
    expect(invalid?.status()).toBe(400)
    await expect(page.getByRole('heading', { name: 'Link invalid' })).toBeVisible()
    await expect(page.getByRole('alert')).toHaveText('Invalid or expired reset link.')
    await expect(page.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/login?mode=forgot')

    const bogus = await page.goto('/reset-password?token_hash=not-a-real-token&type=recovery')
    expect(bogus?.status()).toBe(400)
    await expect(page.getByRole('alert')).toHaveText('An error occurred while verifying the link.')
  })

  test('required=true shows the security variant, and still needs a session to update', async ({ page, javaScriptEnabled }) => {
    await page.goto('/reset-password?required=true')
    await expect(page.getByRole('heading', { name: 'Security update required' })).toBeVisible()
    await page.getByLabel('New password', { exact: true }).fill('another-secret-1')
    await page.getByLabel('Confirm password', { exact: true }).fill('another-secret-1')
    const post = javaScriptEnabled ? null : nextDocumentPost(page, '/reset-password')
    await page.getByRole('button', { name: 'Update password' }).click()
    if (post) expect((await post).status()).toBe(401)
    await expect(page.getByRole('alert')).toHaveText('Invalid or expired reset link.')
  })
})
