import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import fr from '#app/locales/fr.json' with { type: 'json' }
import { expectNoA11yViolations } from './support/a11y.ts'
import { signUpViaRequest } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

/*
 * /developers, the public API reference (API.md): server-rendered from GET /api/v1/openapi.json's document,
 * without a script, in English and French, readable at 375 px and 1440 px.
 */

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

interface Operation {
  id: string
  method: string
  path: string
}

/** Every operation of the served document, as the page must list it. */
async function documentOperations(page: Page): Promise<Operation[]> {
  const response = await page.request.get('/api/v1/openapi.json')
  expect(response.status()).toBe(200)
  const document = (await response.json()) as { servers?: Array<{ url: string }>; paths: Record<string, Record<string, { operationId?: string }>> }
  const prefix = new URL(document.servers?.[0]?.url ?? '/', 'http://x').pathname.replace(/\/$/, '')
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ id: item[method]!.operationId!, method: method.toUpperCase(), path: `${prefix}${path}` })),
  )
}

async function expectNoPageOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
}

const frenchSummaries = (fr.developers as unknown as { operations?: Record<string, { summary?: string }> }).operations ?? {}

test.describe('/developers: the API reference', () => {
  test('lists every operation of /api/v1/openapi.json, with its method, path, anchor and curl example', async ({ page }) => {
    const operations = await documentOperations(page)
    expect(operations.length).toBeGreaterThan(5)
    const response = await page.goto('/developers')
    expect(response?.status()).toBe(200)
    await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible()
    await expect(page.locator('[data-operation-id]')).toHaveCount(operations.length)
    const toc = page.getByTestId('toc-desktop')
    for (const operation of operations) {
      const section = page.locator(`[data-operation-id="${operation.id}"]`)
      await expect(section.getByTestId('operation-path')).toHaveText(operation.path)
      await expect(section.getByText(operation.method, { exact: true }).first()).toBeVisible()
      const anchor = await section.getByRole('heading', { level: 3 }).getAttribute('id')
      await expect(toc.locator(`a[href="#${anchor}"]`)).toHaveCount(1)
      await expect(section.getByRole('region', { name: /^Example request/ })).toContainText('curl')
    }
    // The general sections of API.md.
    for (const name of ['Authentication', 'Errors', 'Rate limits', 'Pagination', 'Idempotency', 'Webhooks']) {
      await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible()
    }
    await expect(page.getByRole('region', { name: 'Example request: POST /api/v1/exports', exact: true })).toContainText('Idempotency-Key:')
    await expect(page.getByRole('region', { name: 'Example request: GET /api/v1/me', exact: true })).toContainText('Authorization: Bearer $LEADATLAS_API_KEY')
  })

  test('is plain HTML: no script is shipped, and the table of contents opens without one', async ({ page }) => {
    const scripts: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url())
    })
    const html = await (await page.request.get('/developers')).text()
    expect(html).not.toContain('<script')
    await page.setViewportSize({ width: 375, height: 800 })
    await page.goto('/developers')
    await page.getByText('On this page', { exact: true }).click()
    await page.getByRole('navigation', { name: 'On this page' }).getByRole('link', { name: 'Webhooks' }).click()
    await expect(page).toHaveURL(/#webhooks$/)
    await expect(page.getByRole('heading', { level: 2, name: 'Webhooks' })).toBeInViewport()
    expect(scripts).toEqual([])
  })

  test("the app's scripts carry none of the page's texts (build output)", async ({ javaScriptEnabled: js }) => {
    test.skip(!js, 'reads the build output once')
    // vite.config.ts leaves `developers` out of the browser's messages: every other page would load it for nothing.
    const assets = path.resolve('build/client/assets')
    const scripts = fs.readdirSync(assets).filter((file) => file.endsWith('.js'))
    const holding = scripts.filter((file) => /Sur cette page|Verifying signatures/.test(fs.readFileSync(path.join(assets, file), 'utf8')))
    expect(holding).toEqual([])
    const server = path.resolve('build/server/assets')
    expect(fs.readdirSync(server).some((file) => fs.readFileSync(path.join(server, file), 'utf8').includes('Verifying signatures'))).toBe(true)
  })

  test('switches to French and back, on the same page', async ({ page }) => {
    await page.goto('/developers')
    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Français' }).click()
    await expect(page.getByRole('heading', { level: 1, name: "Référence de l'API" })).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
    await expect(page).toHaveURL((url) => url.pathname === '/developers')
    await expect(page.getByRole('heading', { level: 2, name: 'Authentification' })).toBeVisible()
    // Each operation's summary comes from fr.json (the document is in English).
    for (const [id, { summary }] of Object.entries(frenchSummaries)) {
      if (summary) await expect(page.locator(`[data-operation-id="${id}"]`).getByRole('heading', { level: 3 })).toHaveText(summary)
    }
    await page.getByRole('group', { name: 'Langue' }).getByRole('button', { name: 'English' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible()
  })

  test('signed out, the header offers sign-in back to the page; signed in, the app links here', async ({ page, baseURL }, testInfo) => {
    await page.goto('/developers')
    await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login?redirectTo=%2Fdevelopers')
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('developers', testInfo) })
    await page.goto('/settings')
    await page.locator('main').getByRole('link', { name: /API reference/ }).click()
    await expect(page).toHaveURL((url) => url.pathname === '/developers')
    await expect(page.getByRole('link', { name: 'Open the app' })).toHaveAttribute('href', '/')
    await page.goto('/exports')
    await page.locator('aside').getByRole('link', { name: 'API reference' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible()
  })

  test('has no serious or critical accessibility violations, in English and in French', async ({ page }) => {
    test.slow()
    await page.goto('/developers')
    await expectNoA11yViolations(page)
    await page.getByRole('button', { name: 'Français' }).click()
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
    await expectNoA11yViolations(page)
  })

  test('at 375 px the page never scrolls sideways: code blocks scroll inside themselves', async ({ page }, testInfo) => {
    // The whole reference (≈ 1.1 MB of HTML) measured and photographed at a phone's width: ~30–60 s on 2 cores.
    test.slow()
    await page.setViewportSize({ width: 375, height: 812 })
    await page.goto('/developers')
    await page.getByRole('button', { name: 'Français' }).click()
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
    await expectNoPageOverflow(page)
    const blocks = page.locator('pre')
    const overflowing = await blocks.evaluateAll((elements) => elements.filter((element) => element.scrollWidth > element.clientWidth).map((element) => getComputedStyle(element).overflowX))
    expect(overflowing.length).toBeGreaterThan(0)
    expect(new Set(overflowing)).toEqual(new Set(['auto']))
    // Every code block can be reached and scrolled from the keyboard.
    for (const block of await blocks.all()) await expect(block).toHaveAttribute('tabindex', '0')
    await page.screenshot({ path: testInfo.outputPath('developers-375-fr.png'), fullPage: false })
    const longest = page.locator('[data-operation-id]').nth(await longestOperation(page))
    await longest.screenshot({ path: testInfo.outputPath('developers-375-long-section.png') })
  })

  test('at 1440 px the table of contents stays in view while the reference scrolls', async ({ page }, testInfo) => {
    await page.goto('/developers')
    await page.screenshot({ path: testInfo.outputPath('developers-1440-en.png') })
    const toc = page.getByTestId('toc-desktop')
    await page.locator('[data-operation-id]').last().scrollIntoViewIfNeeded()
    await expect(toc).toBeInViewport()
    const box = (await toc.boundingBox())!
    expect(box.y).toBeGreaterThanOrEqual(64) // below the sticky header
    await expectNoPageOverflow(page)
    await page.screenshot({ path: testInfo.outputPath('developers-1440-scrolled.png') })
  })
})

/** Index of the operation section with the most content (the long-section screenshot). */
async function longestOperation(page: Page): Promise<number> {
  const heights = await page.locator('[data-operation-id]').evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().height))
  return heights.indexOf(Math.max(...heights))
}
