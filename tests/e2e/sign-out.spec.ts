import { expect, test } from '@playwright/test'
import { emailInput, signIn, submitSignIn } from './support/auth.ts'
import { createUser, nextPost } from './support/http.ts'
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

  test('"Sign out" in the sidebar is one click (a POST) to /login, and the session is gone', async ({ page, request, baseURL }, testInfo) => {
    const user = await createUser(request, baseURL, { email: uniqueEmail('signout', testInfo) })
    await signIn(page, user)
    await expect(page).toHaveURL((url) => url.pathname === '/')

    const logoutPost = nextPost(page, '/logout')
    await page.locator('aside').getByRole('button', { name: 'Sign out' }).click()
    await logoutPost
    await page.waitForURL((url) => url.pathname === '/login')
    await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible()
    await expect(emailInput(page)).toBeVisible()

    await page.goto('/settings')
    await expect(page).toHaveURL((url) => url.pathname === '/login' && url.searchParams.get('redirectTo') === '/settings')
    // Back in: the old session cookie did not survive.
    await signIn(page, user, { goto: false })
    await expect(page).toHaveURL((url) => url.pathname === '/settings')
  })

  test('a GET /logout from another site does not sign out; the page it shows asks, and its button signs out', async ({ page, request, baseURL }, testInfo) => {
    const user = await createUser(request, baseURL, { email: uniqueEmail('signout-csrf', testInfo) })
    await signIn(page, user)
    // Another site links to /logout and loads it as an image: a top-level navigation carries the
    // SameSite=Lax cookies, so only the method protects the session.
    const logoutUrl = new URL('/logout', baseURL).href
    await page.route('http://evil.example/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: `<img src="${logoutUrl}" alt=""><a href="${logoutUrl}">Win a prize</a>` }),
    )
    await page.goto('http://evil.example/')
    await page.getByRole('link', { name: 'Win a prize' }).click()
    await page.waitForURL((url) => url.pathname === '/logout')
    await expect(page.getByRole('heading', { name: 'Sign out' })).toBeVisible()
    await expect(page.getByText(`You are signed in as ${user.email}.`)).toBeVisible()

    // A cross-site POST is refused (React Router's own check on document actions, then the Origin middleware).
    const forged = await page.request.post('/logout', { form: { signOut: '1' }, headers: { Origin: 'http://evil.example' }, maxRedirects: 0 })
    expect([400, 403]).toContain(forged.status())

    await page.goto('/settings')
    await expect(page).toHaveURL((url) => url.pathname === '/settings')

    // The page's own button signs out; signed out, /logout just leads to sign-in.
    await page.goto('/logout')
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL((url) => url.pathname === '/login')
    await page.goto('/settings')
    await expect(page).toHaveURL((url) => url.pathname === '/login' && url.searchParams.get('redirectTo') === '/settings')
    await page.goto('/logout')
    await expect(page).toHaveURL((url) => url.pathname === '/login')
  })

  for (const javaScriptEnabled of [true, false]) {
    test(`a session cookie copied before sign-out opens no page afterwards (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({ browser, page, request, baseURL }, testInfo) => {
      const user = await createUser(request, baseURL, { email: uniqueEmail(`signout-copy-${javaScriptEnabled ? 'js' : 'nojs'}`, testInfo) })
      await signIn(page, user)
      await expect(page).toHaveURL((url) => url.pathname === '/')
      // The cookies as they are while signed in: the access token in them is signed and good for an hour.
      const copied = await page.context().cookies()
      expect(copied.length).toBeGreaterThan(0)
      const thief = await browser.newContext({ javaScriptEnabled, baseURL })
      try {
        await thief.addCookies(copied)
        const stolen = await thief.newPage()
        await stolen.goto('/settings')
        await expect(stolen).toHaveURL((url) => url.pathname === '/settings')

        await page.goto('/settings')
        await page.locator('aside').getByRole('button', { name: 'Sign out' }).click()
        await page.waitForURL((url) => url.pathname === '/login')

        // The session is revoked on the server: the copy (whose token has not expired) no longer opens a page.
        await thief.clearCookies()
        await thief.addCookies(copied)
        await stolen.goto('/settings')
        await expect(stolen).toHaveURL((url) => url.pathname === '/login' && url.searchParams.get('redirectTo') === '/settings')
        const direct = await thief.request.get('/exports', { maxRedirects: 0 })
        expect(direct.status()).toBe(302)
      } finally {
        await thief.close()
      }
    })
  }
})
