import { expect, type Page, test } from '@playwright/test'
import { signUpViaRequest } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

const sidebarWidth = async (page: Page) => (await page.locator('aside').boundingBox())?.width ?? 0

/** Clicks the sidebar toggle and waits until the preference is stored (with JS the UI updates first). */
async function toggleSidebar(page: Page, name: 'Collapse sidebar' | 'Expand sidebar') {
  const saved = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname.startsWith('/preferences'))
  await page.locator('aside').getByRole('button', { name }).click()
  await saved
}

test.describe('sidebar (desktop, 1440 px)', () => {
  test('collapses to 64 px, stays collapsed after a reload, and expands back', async ({ page, baseURL, javaScriptEnabled }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('sidebar', testInfo) })
    await page.goto('/exports')
    const aside = page.locator('aside')
    await expect(aside).toBeVisible()
    await expect.poll(() => sidebarWidth(page)).toBe(256)
    await expect(aside.getByRole('link', { name: 'Exports' })).toHaveAttribute('aria-current', 'page')

    await toggleSidebar(page, 'Collapse sidebar')
    await expect(aside).toHaveAttribute('data-collapsed', 'true')
    await expect.poll(() => sidebarWidth(page)).toBe(64)
    await expect(page).toHaveURL((url) => url.pathname === '/exports')
    // Labels stay available to assistive tech while hidden.
    await expect(aside.getByRole('link', { name: 'Settings' })).toBeAttached()
    if (javaScriptEnabled) {
      const stored = await page.evaluate(() => localStorage.getItem('layout-storage'))
      expect(JSON.parse(stored!).state.menuCollapsed).toBe(true)
    }

    await page.reload()
    // Server-rendered from the cookie: collapsed from the first paint, no transition.
    await expect(aside).toHaveAttribute('data-collapsed', 'true')
    expect(await sidebarWidth(page)).toBe(64)
    if (javaScriptEnabled) {
      const stored = await page.evaluate(() => localStorage.getItem('layout-storage'))
      expect(JSON.parse(stored!).state.menuCollapsed).toBe(true)
    }

    await toggleSidebar(page, 'Expand sidebar')
    await expect(aside).toHaveAttribute('data-collapsed', 'false')
    await expect.poll(() => sidebarWidth(page)).toBe(256)
    await page.reload()
    await expect(aside).toHaveAttribute('data-collapsed', 'false')
    if (javaScriptEnabled) {
      const stored = await page.evaluate(() => localStorage.getItem('layout-storage'))
      expect(JSON.parse(stored!).state.menuCollapsed).toBe(false)
    }
  })
})

test.describe('mobile (375 px)', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: false, hasTouch: false })

  test('the sidebar is hidden and the menu button opens the drawer', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('drawer', testInfo) })
    await page.goto('/')
    await expect(page.locator('aside')).toBeHidden()
    const drawer = page.getByRole('dialog', { name: 'Main menu' })
    await expect(drawer).toBeHidden()

    await page.getByRole('link', { name: 'Open menu' }).click()
    await expect(drawer).toBeVisible()
    for (const name of ['Find leads', 'Exports', 'Subscription', 'Settings']) {
      await expect(drawer.getByRole('link', { name, exact: true })).toBeVisible()
    }
    // Signing out is a form's button (a POST), styled as the menu's last item.
    await expect(drawer.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible()
    // The drawer covers the whole viewport (not clipped to the header), its panel on the left.
    expect(await drawer.boundingBox()).toEqual({ x: 0, y: 0, width: 375, height: 812 })
    const panel = await drawer.locator('nav').locator('..').boundingBox()
    expect(panel).toMatchObject({ x: 0, y: 0, height: 812 })
    expect(panel!.width).toBeLessThan(375)
    const lastItem = await drawer.getByRole('button', { name: 'Sign out' }).boundingBox()
    expect(lastItem!.y + lastItem!.height).toBeLessThanOrEqual(812)

    // The backdrop closes it.
    await page.mouse.click(360, 400)
    await expect(drawer).toBeHidden()
    await page.getByRole('link', { name: 'Open menu' }).click()
    await expect(drawer).toBeVisible()

    await drawer.getByRole('link', { name: 'Close menu' }).click()
    await expect(drawer).toBeHidden()

    await page.getByRole('link', { name: 'Open menu' }).click()
    await drawer.getByRole('link', { name: 'Settings', exact: true }).click()
    await page.waitForURL((url) => url.pathname === '/settings')
    await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible()
    await expect(drawer).toBeHidden()
  })
})
