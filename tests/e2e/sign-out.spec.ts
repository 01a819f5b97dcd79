import { expect, test } from '@playwright/test'
import { emailInput, signIn, submitSignIn } from './support/auth.ts'
import { createUser } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

test.describe('session', () => {
  test('protected pages send visitors to /login?redirectTo=…, and signing in returns there', async ({ page, request, baseURL }, testInfo) => {
    const user = await createUser(request, baseURL, { email: uniqueEmail('redirect', testInfo) })
    for (const path of ['/settings', '/exports', '/subscription', '/search']) {
      await page.goto(path)
      await expect(page).toHaveURL((url) => url.pathname === '/login' && url.searchParams.get('redirectTo') === path)
    }
    await page.goto('/')
    await expect(page).toHaveURL((url) => url.pathname === '/login' && !url.searchParams.has('redirectTo'))

    await page.goto('/subscription?tab=annual')
    await expect(page).toHaveURL((url) => url.pathname === '/login' && url.searchParams.get('redirectTo') === '/subscription?tab=annual')
    await expect(page.getByText('Please sign in to continue.')).toBeVisible()
    await submitSignIn(page, user, { goto: false })
    await page.waitForURL((url) => url.pathname === '/subscription')
    expect(new URL(page.url()).search).toBe('?tab=annual')
    await expect(page.getByRole('heading', { name: 'Subscription', level: 1 })).toBeVisible()
  })

  test('redirectTo never leaves the site', async ({ page, request, baseURL }, testInfo) => {
    const user = await createUser(request, baseURL, { email: uniqueEmail('openredirect', testInfo) })
    await page.goto('/login?redirectTo=%2F%2Fevil.example%2Fphish')
    await submitSignIn(page, user, { goto: false })
    await page.waitForURL((url) => url.pathname !== '/login')
    expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin)
  })

  test('"Sign out" in the sidebar shows "Signing out..." then /login, and the session is gone', async ({ page, request, baseURL, javaScriptEnabled }, testInfo) => {
    const user = await createUser(request, baseURL, { email: uniqueEmail('signout', testInfo) })
    await signIn(page, user)
    await expect(page).toHaveURL((url) => url.pathname === '/')

    // The message shows only briefly (300 ms with JS, 1 s without), which a busy machine's
    // polling can miss, so it is observed deterministically: without JS in the /logout document
    // (with the meta refresh that moves on), with JS by a MutationObserver in the page, which
    // survives the client-side navigations.
    const logoutDocument = javaScriptEnabled
      ? null
      : page.waitForResponse((response) => response.request().resourceType() === 'document' && new URL(response.url()).pathname === '/logout')
    if (javaScriptEnabled) {
      await page.evaluate(() => {
        const seen = () => document.body.textContent?.includes('Signing out...') && document.documentElement.setAttribute('data-saw-signing-out', '')
        new MutationObserver(seen).observe(document.body, { childList: true, subtree: true, characterData: true })
      })
    }
    await page.locator('aside').getByRole('link', { name: 'Sign out' }).click()
    if (logoutDocument) {
      const html = await (await logoutDocument).text()
      expect(html).toContain('Signing out...')
      expect(html).toContain('http-equiv="refresh" content="1;url=/login"')
    }
    await page.waitForURL((url) => url.pathname === '/login')
    await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible()
    if (javaScriptEnabled) await expect(page.locator('html')).toHaveAttribute('data-saw-signing-out', '')
    await expect(emailInput(page)).toBeVisible()
    if (javaScriptEnabled) {
      // One client-side move: no leftover meta refresh reloads /login a moment later.
      const reloads: string[] = []
      page.on('request', (request) => void (request.resourceType() === 'document' && reloads.push(request.url())))
      await page.waitForTimeout(1_200)
      expect(reloads).toEqual([])
    }

    await page.goto('/settings')
    await expect(page).toHaveURL((url) => url.pathname === '/login' && url.searchParams.get('redirectTo') === '/settings')
    // Back in: the old session cookie did not survive.
    await signIn(page, user, { goto: false })
    await expect(page).toHaveURL((url) => url.pathname === '/settings')
  })
})
