import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { emailInput, passwordInput } from './support/auth.ts'
import { createUser, signUpViaRequest } from './support/http.ts'
import { waitForHydration } from './support/slow-network.ts'
import { uniqueEmail } from './support/users.ts'

/*
 * Page weight (the design card's users are on flaky connections): the first paint waits for no
 * stylesheet, and the search page's first load carries neither zod (form validation), nor conform
 * (the export modal's forms), nor the Headless UI combobox: each arrives when it is first used.
 * /login, a new visitor's first page, is served without React: one small script of its own checks its forms (with
 * app/domain/auth-fields.ts, not zod) and drives its dialog.
 */

const ASSETS = path.resolve('build/client/assets')
/** Budget of the search page's scripts (ARCHITECTURE §9), brotli as served, messages included. */
const SEARCH_PAGE_BUDGET_KB = 150
/**
 * Budget of /login's scripts, signed out, brotli as served (issue 33: ≤ 100 KB). React, React DOM, React Router and
 * i18next alone weigh ~108 KB, so the page does not hydrate: its script (app/islands/login-page.ts) is ~2 KB.
 */
const LOGIN_PAGE_BUDGET_KB = 10

/** Text that only the deferred libraries' code contains (each checked to exist in some chunk). */
const DEFERRED = { zod: 'ZodError', headlessUi: 'headlessui', conform: 'Form element is required to trigger submission' }

function assetFiles(): string[] {
  return fs.readdirSync(ASSETS).filter((file) => file.endsWith('.js'))
}

/** The scripts React Router loads for a page: the entry and the page's routes (`ids`, layouts first), and their static imports. */
function pageScripts(ids: string[]): string[] {
  const manifestFile = assetFiles().find((file) => file.startsWith('manifest-'))!
  const text = fs.readFileSync(path.join(ASSETS, manifestFile), 'utf8')
  const manifest = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as {
    entry: { module: string; imports: string[] }
    routes: Record<string, { module: string; imports?: string[] }>
  }
  const routes = ids.map((id) => manifest.routes[id]!)
  const urls = [manifest.entry.module, ...manifest.entry.imports, ...routes.flatMap((route) => [route.module, ...(route.imports ?? [])])]
  return [...new Set(urls.map((url) => path.basename(url)))]
}

/** Bytes a browser that takes brotli receives for `file`. */
function servedBytes(file: string): number {
  const compressed = path.join(ASSETS, `${file}.br`)
  return fs.statSync(fs.existsSync(compressed) ? compressed : path.join(ASSETS, file)).size
}

/**
 * The interface messages a signed-in page loads after hydration starts (app/i18n.ts): the signed-out pages' namespaces
 * (`en-…`, `fr-…`) and the app's bundle (`signedIn-…`, one a language). The larger language of each counts.
 */
function messageBytes(): number {
  const largest = (pattern: RegExp) => Math.max(...assetFiles().filter((file) => pattern.test(file)).map(servedBytes))
  return largest(/^(en|fr)-[\w-]+\.js$/) + largest(/^signedIn-[\w-]+\.js$/)
}

const code = (file: string) => fs.readFileSync(path.join(ASSETS, file), 'utf8')

test.describe('page weight', () => {
  test('the search page first loads within its budget, without zod, conform or the combobox (build output)', async ({ javaScriptEnabled: js }) => {
    test.skip(!js, 'reads the build output once')
    const scripts = pageScripts(['root', 'routes/app-layout', 'search'])
    for (const marker of Object.values(DEFERRED)) {
      expect(assetFiles().some((file) => code(file).includes(marker)), `some chunk holds "${marker}"`).toBe(true)
      expect(scripts.filter((file) => code(file).includes(marker)), `first-load scripts holding "${marker}"`).toEqual([])
    }
    const total = scripts.reduce((sum, file) => sum + servedBytes(file), messageBytes())
    expect(total / 1024).toBeLessThanOrEqual(SEARCH_PAGE_BUDGET_KB)
  })

  test('/login, signed out, loads only its own small script: no React, no zod, no texts bundle (build output)', async ({ request, javaScriptEnabled: js }) => {
    test.skip(!js, 'reads the build output once')
    const html = await (await request.get('/login')).text()
    const sources = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => path.basename(match[1]!))
    expect(sources).toHaveLength(1)
    expect(sources[0]).toMatch(/^login-page-[\w-]+\.js$/)
    expect(html).not.toContain('modulepreload')
    expect(html).not.toContain('__reactRouterContext')
    const script = code(sources[0]!)
    for (const marker of [DEFERRED.zod, DEFERRED.headlessUi, 'react.element']) expect(script, `the page script holds "${marker}"`).not.toContain(marker)
    expect(servedBytes(sources[0]!) / 1024).toBeLessThanOrEqual(LOGIN_PAGE_BUDGET_KB)
  })

  test('/login, signed out, fetches only its own script; signing in brings the app and its texts (browser)', async ({ page, request, baseURL, javaScriptEnabled: js }, testInfo) => {
    test.skip(!js, 'without JavaScript no script is fetched')
    const fetched: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'script') fetched.push(path.basename(new URL(request.url()).pathname))
    })
    await page.goto('/login')
    await waitForHydration(page, { js })
    await page.waitForLoadState('networkidle')
    expect(fetched).toEqual([expect.stringMatching(/^login-page-[\w-]+\.js$/)])
    // A sign-in attempt is checked in the browser (nothing posted, nothing more fetched), in the page's language.
    const posts: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url())
    })
    await emailInput(page).fill('not-an-email')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page.getByText('Please enter a valid email address')).toBeVisible()
    await expect(emailInput(page)).toBeFocused()
    expect(posts).toEqual([])
    expect(fetched).toHaveLength(1)

    // Signed in, the search page has React and its texts.
    const user = await createUser(request, baseURL, { email: uniqueEmail('page-weight-login', testInfo) })
    await emailInput(page).fill(user.email)
    await passwordInput(page).fill(user.password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page.getByRole('heading', { name: 'Find leads', level: 1 })).toBeVisible()
    await waitForHydration(page, { js })
    // Module preloads are not "script" requests: every .js the page asked for counts here.
    const everything = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name))
    expect(everything.some((url) => /\/signedIn-[\w-]+\.js$/.test(url))).toBe(true)
  })

  test('the stylesheet comes inside the page: no request holds the first paint', async ({ page, request }) => {
    const html = await (await request.get('/login')).text()
    expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/)
    const styles = /<style id="app-styles">([\s\S]*?)<\/style>/.exec(html)?.[1] ?? ''
    expect(styles.length).toBeGreaterThan(10_000)
    await page.goto('/login')
    // Styled: Tailwind's classes on <html> and <body> (bg-slate-50, antialiased) apply.
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)')
    await expect(page.getByRole('heading').first()).toBeVisible()
  })

  test('the category picker becomes a combobox on first use, keeping focus and what was typed', async ({ page, baseURL, javaScriptEnabled: js }, testInfo) => {
    test.skip(!js, 'without JavaScript the pickers stay the server-rendered ones')
    const scripts: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
    })
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('page-weight', testInfo) })
    // The combobox chunk arrives a moment after the first keystroke, as on a slow link.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(/picker-combobox-[\w-]+\.js$/, async (route) => {
      await held
      await route.fallback()
    })
    await page.goto('/')
    await waitForHydration(page, { js })
    await page.waitForLoadState('networkidle')
    const loadedBeforeUse = await deferredScriptsAmong(page, scripts)
    expect(loadedBeforeUse).toEqual([])
    await expect(page.locator('form[data-pickers="native"]')).toBeVisible()

    const category = page.locator('#search-sector')
    await category.click()
    await category.pressSequentially('Boul')
    release()
    await expect(page.locator('form[data-pickers="enhanced"]')).toBeVisible()
    const combobox = page.getByRole('combobox', { name: 'Category', exact: true })
    await expect(combobox).toBeFocused()
    await expect(combobox).toHaveValue('Boul')
    await combobox.pressSequentially('angerie')
    await expect(page.getByRole('option', { name: 'Bakery', exact: true })).toBeVisible()
  })
})

/** The script URLs among `scripts` whose code holds zod, conform or Headless UI. */
async function deferredScriptsAmong(page: Page, scripts: string[]): Promise<string[]> {
  const deferred: string[] = []
  for (const script of new Set(scripts)) {
    const code = await (await page.request.get(script)).text()
    if (Object.values(DEFERRED).some((marker) => code.includes(marker))) deferred.push(script)
  }
  return deferred
}
