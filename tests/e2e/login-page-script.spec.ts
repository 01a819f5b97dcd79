// /login is served without React (issue 33 item 5): its own script (app/islands/login-page.ts) does what its forms need.
// The flows' own specs (sign-up, auth-errors, slow-network, modal-escape) run on it too; this one covers what only the
// page script does, and the same page without any script.
import { expect, test } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { emailInput, passwordInput } from './support/auth.ts'
import { createUser } from './support/http.ts'
import { waitForHydration } from './support/slow-network.ts'
import { DEFAULT_PASSWORD, uniqueEmail } from './support/users.ts'

test.describe('/login without React', () => {
  test('the password toggle shows and hides what was typed', async ({ page, javaScriptEnabled: js }) => {
    await page.goto('/login')
    await waitForHydration(page, { js })
    const toggle = page.getByRole('button', { name: 'Show password' })
    if (!js) {
      // It cannot work without a script, so it is not offered.
      await expect(toggle).toHaveCount(0)
      return
    }
    await passwordInput(page).fill('typed-secret')
    await toggle.click()
    await expect(passwordInput(page)).toHaveAttribute('type', 'text')
    const hide = page.getByRole('button', { name: 'Hide password' })
    await expect(hide).toHaveAttribute('aria-pressed', 'true')
    await hide.click()
    await expect(passwordInput(page)).toHaveAttribute('type', 'password')
    await expect(passwordInput(page)).toHaveValue('typed-secret')
  })

  test('the reset dialog opens in place; Back closes it, Tab stays inside it, axe finds nothing serious', async ({ page, javaScriptEnabled: js }) => {
    test.skip(!js, 'without JavaScript the link opens /login?mode=forgot, covered by reset-password.spec')
    const documents: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(request.url())
    })
    await page.goto('/login')
    await waitForHydration(page, { js })
    await emailInput(page).fill('carried@example.com')
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    const dialog = page.getByRole('dialog', { name: 'Reset Password' })
    await expect(dialog).toBeVisible()
    await expect(page).toHaveURL(/mode=forgot/)
    await expect(dialog.getByLabel('Email')).toHaveValue('carried@example.com')
    await expect(dialog.getByLabel('Email')).toBeFocused()
    // Tab goes round the dialog's controls, never to the page under it.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab')
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true)
    }
    await expectNoA11yViolations(page)
    await page.goBack()
    await expect(dialog).toBeHidden()
    await expect(page).not.toHaveURL(/mode=forgot/)
    await expect(emailInput(page)).toHaveValue('carried@example.com')
    // All of it without loading another page.
    expect(documents).toHaveLength(1)
  })

  test('a sign-in says it is pending and posts once, however often the button is pressed', async ({ page, request, baseURL, javaScriptEnabled: js }, testInfo) => {
    test.skip(!js, 'without JavaScript the browser shows its own loading state')
    const user = await createUser(request, baseURL, { email: uniqueEmail('login-pending', testInfo) })
    await page.goto('/login')
    await waitForHydration(page, { js })
    const posts: string[] = []
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/login', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback()
      posts.push(route.request().url())
      await held
      await route.fallback()
    })
    await emailInput(page).fill(user.email)
    await passwordInput(page).fill(user.password)
    // Watched and pressed again from inside the page: Playwright's own clicks and reads wait for the (held) navigation.
    const states: Array<{ label: string | null; disabled: boolean; busy: string | null }> = []
    await page.exposeFunction('reportState', (state: (typeof states)[number]) => states.push(state))
    await page.evaluate(() => {
      const submit = document.querySelector<HTMLButtonElement>('#credentials-form button[type="submit"]')!
      const report = (window as unknown as { reportState: (state: unknown) => void }).reportState
      new MutationObserver(() => report({ label: submit.textContent, disabled: submit.disabled, busy: submit.getAttribute('aria-busy') })).observe(submit, {
        attributes: true,
        childList: true,
        characterData: true,
        subtree: true,
      })
      submit.click()
      // What Enter in a field does, a moment later: nothing more may be posted.
      setTimeout(() => submit.form!.requestSubmit(), 200)
    })
    await expect.poll(() => states.at(-1)).toEqual({ label: 'Signing in...', disabled: true, busy: 'true' })
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(posts).toHaveLength(1)
    release()
    await page.waitForURL((url) => url.pathname === '/')
    expect(posts).toHaveLength(1)
  })

  test('"Skip for now" skips the checks that "Save and continue" makes', async ({ page, javaScriptEnabled: js }, testInfo) => {
    await page.goto('/login?mode=signup')
    await emailInput(page).fill(uniqueEmail('login-skip', testInfo))
    await passwordInput(page).fill(DEFAULT_PASSWORD)
    await page.getByRole('button', { name: 'Sign up', exact: true }).click()
    await page.waitForURL((url) => url.searchParams.get('step') === 'profile')
    await waitForHydration(page, { js })
    await page.getByLabel('Company name').fill('x'.repeat(121))
    await page.getByRole('button', { name: 'Save and continue' }).click()
    await expect(page.getByText('This field is too long (maximum 120 characters).')).toBeVisible()
    await page.getByRole('button', { name: 'Skip for now' }).click()
    await page.waitForURL((url) => url.pathname === '/')
  })

  test('the language switch after switching to sign-up in place returns to sign-up, in French', async ({ page, javaScriptEnabled: js }) => {
    await page.goto('/login')
    await waitForHydration(page, { js })
    await page.getByRole('link', { name: "Don't have an account? Sign up" }).click()
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible()
    await page.getByRole('button', { name: 'Français' }).click()
    await expect(page.getByRole('heading', { name: 'Créez votre compte' })).toBeVisible()
    await expect(page).toHaveURL(/mode=signup/)
    // Back to English for the other tests of this browser context.
    await page.getByRole('button', { name: 'English' }).click()
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible()
  })
})
