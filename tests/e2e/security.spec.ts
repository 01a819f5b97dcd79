import { expect, test } from '@playwright/test'
import { sameOrigin, signUpViaRequest } from './support/http.ts'
import { seedExports } from './support/seed-exports.ts'
import { uniqueEmail } from './support/users.ts'

const evil = { Origin: 'http://evil.example' }

test.describe('hardening', () => {
  test('cross-site posts are refused (403/400, never 500) and change nothing', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('csrf', testInfo) })

    const language = await page.request.post('/preferences', { form: { intent: 'language', language: 'fr', redirectTo: '/' }, headers: evil, maxRedirects: 0 })
    expect([400, 403]).toContain(language.status())
    const sidebar = await page.request.post('/preferences', { form: { intent: 'sidebar', collapsed: '1', redirectTo: '/' }, headers: evil, maxRedirects: 0 })
    expect([400, 403]).toContain(sidebar.status())
    const settings = await page.request.post('/settings', { form: { firstName: 'Hacked' }, headers: evil, maxRedirects: 0 })
    expect([400, 403]).toContain(settings.status())
    const login = await page.request.post('/login', { form: { intent: 'signin', email: 'a@b.co', password: 'whatever' }, headers: evil, maxRedirects: 0 })
    expect([400, 403]).toContain(login.status())
    // A Referer from elsewhere (no Origin) is refused as well.
    const referer = await page.request.post('/preferences', {
      form: { intent: 'language', language: 'fr' },
      headers: { Referer: 'http://evil.example/page' },
      maxRedirects: 0,
    })
    expect([400, 403]).toContain(referer.status())

    await page.goto('/settings')
    await expect(page.getByLabel('First name')).toHaveValue('')
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    await expect(page.locator('aside')).toHaveAttribute('data-collapsed', 'false')

    // The same post from our own origin goes through.
    const ok = await page.request.post('/preferences', { form: { intent: 'language', language: 'fr', redirectTo: '/' }, headers: sameOrigin(baseURL), maxRedirects: 0 })
    expect(ok.status()).toBe(302)
  })

  test('signed-in data (.data of client navigations) is never cached, like the pages', async ({ page, baseURL }, testInfo) => {
    const user = await signUpViaRequest(page, baseURL, { email: uniqueEmail('data-cache', testInfo) })
    const [exportId] = await seedExports(user.email, [{ name: 'Cached?' }])
    for (const url of ['/exports.data', `/exports/${exportId}.data`, '/subscription.data', '/exports']) {
      const response = await page.request.get(url, { maxRedirects: 0 })
      expect(response.status(), url).toBe(200)
      expect(response.headers()['cache-control'], url).toBe('private, no-store')
    }
    // The export's own data really is in it: a signed-in answer, not a redirect to sign in.
    expect(await (await page.request.get(`/exports/${exportId}.data`)).text()).toContain('Cached?')
  })

  test('an unknown URL gets the 404 page', async ({ page }) => {
    const response = await page.goto('/this/does/not/exist')
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Back to Find leads' })).toHaveAttribute('href', '/')
  })

  test('bad posts are 400s: unknown intents, unsupported languages', async ({ request, baseURL }) => {
    const headers = sameOrigin(baseURL)
    const login = await request.post('/login', { form: { intent: 'launch-missiles' }, headers, maxRedirects: 0 })
    expect(login.status()).toBe(400)
    const noIntent = await request.post('/login', { form: { email: 'a@b.co' }, headers, maxRedirects: 0 })
    expect(noIntent.status()).toBe(400)
    const preferences = await request.post('/preferences', { form: { intent: 'nope' }, headers, maxRedirects: 0 })
    expect(preferences.status()).toBe(400)
    const language = await request.post('/preferences', { form: { intent: 'language', language: 'de' }, headers, maxRedirects: 0 })
    expect(language.status()).toBe(400)
    // Signed out, a protected action sends the visitor to sign in rather than failing.
    const settings = await request.post('/settings', { form: { firstName: 'x' }, headers, maxRedirects: 0 })
    expect(settings.status()).toBe(302)
    expect(settings.headers().location).toMatch(/^\/login\?redirectTo=%2Fsettings/)
  })

  test('plan rules hold on a direct export post: a free-trial user cannot export all of France', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('plan-post', testInfo) })
    const response = await page.request.post('/search', {
      form: { intent: 'create-export', name: 'All of France', sector: 'shop-bakery', country: 'France', options: 'email', idempotencyKey: `k-${Date.now()}` },
      headers: sameOrigin(baseURL),
      maxRedirects: 0,
    })
    expect(response.status()).toBe(403)
    expect(await response.text()).toContain('Your plan requires selecting a region')
    await page.goto('/exports')
    await expect(page.getByText('You have no exports yet.')).toBeVisible()
  })
})
