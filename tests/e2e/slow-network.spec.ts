import { expect, test, type Page } from '@playwright/test'
import { emailInput, passwordInput } from './support/auth.ts'
import { sql } from './support/db.ts'
import { createUser, sameOrigin, signUpViaRequest } from './support/http.ts'
import { readResetLink } from './support/outbox.ts'
import { openSlowly, slowData, slowDocuments, waitForHydration } from './support/slow-network.ts'
import { DEFAULT_PASSWORD, uniqueEmail } from './support/users.ts'

/*
 * Slow connections: scripts, loader data and documents arrive seconds late while the user keeps
 * typing into what is on screen. Whatever lands (hydration, a navigation, a mode switch) must not
 * wipe what was typed. With JavaScript the scripts and data are slowed; without, the documents.
 */

const hydrated = (page: Page) => page.getByRole('button', { name: 'Show password' }).first()

test.describe('slow network: nothing typed is lost', () => {
  test('switching sign-in → sign-up while the page is slow keeps the email and password', async ({ page, javaScriptEnabled: js }, testInfo) => {
    const email = uniqueEmail('slow-switch', testInfo)
    if (js) {
      await page.goto('/login')
      await expect(hydrated(page)).toBeVisible()
      await slowData(page)
    } else {
      await slowDocuments(page)
      await page.goto('/login')
    }
    await page.getByRole('link', { name: "Don't have an account? Sign up" }).click()
    // At once, into whatever form is on screen (without JS the mode link is a plain GET link:
    // the browser shows the old page until the new one lands, so typing starts after it).
    if (!js) await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible()
    await emailInput(page).fill(email)
    await passwordInput(page).fill(DEFAULT_PASSWORD)
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible()
    await expect(page).toHaveURL(/mode=signup/)
    // Whatever was still in flight has landed.
    await page.waitForTimeout(js ? 3_000 : 0)
    await expect(emailInput(page)).toHaveValue(email)
    await expect(passwordInput(page)).toHaveValue(DEFAULT_PASSWORD)
    await page.getByRole('button', { name: 'Sign up', exact: true }).click()
    await page.waitForURL((url) => url.searchParams.get('step') === 'profile', { timeout: 20_000 })
  })

  test('switching back and forth keeps what was typed; "Forgot your password?" carries the email', async ({ page, javaScriptEnabled: js }, testInfo) => {
    test.skip(!js, 'Without JavaScript the mode links are plain GET links: a new page, typed before it loads')
    const email = uniqueEmail('slow-carry', testInfo)
    await page.goto('/login')
    await expect(hydrated(page)).toBeVisible()
    await slowData(page)
    await emailInput(page).fill(email)
    await page.getByRole('link', { name: "Don't have an account? Sign up" }).click()
    await passwordInput(page).fill(DEFAULT_PASSWORD)
    await page.getByRole('link', { name: 'Already have an account? Sign in' }).click()
    await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible()
    await expect(emailInput(page)).toHaveValue(email)
    await expect(passwordInput(page)).toHaveValue(DEFAULT_PASSWORD)

    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    const dialog = page.getByRole('dialog', { name: 'Reset Password' })
    await expect(dialog).toBeVisible()
    await expect(page).toHaveURL(/mode=forgot/)
    await expect(dialog.getByLabel('Email')).toHaveValue(email)
    await dialog.getByRole('link', { name: 'Cancel' }).click()
    await expect(dialog).toBeHidden()
    await expect(emailInput(page)).toHaveValue(email)
  })

  test('the sign-in form\'s errors do not follow to sign-up (the form is shared, the errors are not)', async ({ page, javaScriptEnabled: js }) => {
    await page.goto('/login')
    if (js) await expect(hydrated(page)).toBeVisible()
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page.getByText('Email is required')).toBeVisible()
    await page.getByRole('link', { name: "Don't have an account? Sign up" }).click()
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible()
    await expect(page.getByText('Email is required')).toBeHidden()
    await expect(emailInput(page)).not.toHaveAttribute('aria-invalid', 'true')
    await page.getByRole('button', { name: 'Sign up', exact: true }).click()
    await expect(page.getByText('Email is required')).toBeVisible()
  })

  test('sign-in typed before the scripts arrive', async ({ page, request, baseURL, javaScriptEnabled: js }, testInfo) => {
    const user = await createUser(request, baseURL, { email: uniqueEmail('slow-signin', testInfo) })
    await openSlowly(page, '/login', { js })
    await emailInput(page).fill(user.email)
    await passwordInput(page).fill(user.password)
    await waitForHydration(page, { js })
    await expect(emailInput(page)).toHaveValue(user.email)
    await expect(passwordInput(page)).toHaveValue(user.password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.waitForURL((url) => url.pathname === '/', { timeout: 20_000 })
  })

  test('sign-up (both steps) typed before the scripts arrive', async ({ page, javaScriptEnabled: js }, testInfo) => {
    const email = uniqueEmail('slow-signup', testInfo)
    await openSlowly(page, '/login?mode=signup', { js })
    await emailInput(page).fill(email)
    await passwordInput(page).fill(DEFAULT_PASSWORD)
    await waitForHydration(page, { js })
    await expect(emailInput(page)).toHaveValue(email)
    await expect(passwordInput(page)).toHaveValue(DEFAULT_PASSWORD)
    await page.getByRole('button', { name: 'Sign up', exact: true }).click()
    await page.waitForURL((url) => url.searchParams.get('step') === 'profile', { timeout: 20_000 })

    // Step 2 opened as its own (slow) page.
    await openSlowly(page, '/login?mode=signup&step=profile', { js })
    const profile = { 'First name': 'Grace', 'Last name': 'Hopper', 'Company name': 'Navy Labs', 'Phone number': '+33 6 12 34 56 78' }
    for (const [label, value] of Object.entries(profile)) await page.getByLabel(label).fill(value)
    await waitForHydration(page, { js })
    for (const [label, value] of Object.entries(profile)) await expect(page.getByLabel(label)).toHaveValue(value)
    await page.getByRole('button', { name: 'Save and continue' }).click()
    await page.waitForURL((url) => url.pathname === '/', { timeout: 20_000 })
    const [row] = await sql<{ first_name: string; phone: string }>(
      'select p.first_name, p.phone from public.users p join auth.users u on u.id = p.id where u.email = $1',
      [email],
    )
    expect(row).toMatchObject({ first_name: 'Grace', phone: '+33 6 12 34 56 78' })
  })

  test('forgot password typed before the scripts arrive', async ({ page, request, baseURL, javaScriptEnabled: js }, testInfo) => {
    const user = await createUser(request, baseURL, { email: uniqueEmail('slow-forgot', testInfo) })
    await openSlowly(page, '/login?mode=forgot', { js })
    const dialog = page.getByRole('dialog', { name: 'Reset Password' })
    await dialog.getByLabel('Email').fill(user.email)
    await waitForHydration(page, { js })
    await expect(dialog.getByLabel('Email')).toHaveValue(user.email)
    await dialog.getByRole('button', { name: 'Send reset link' }).click()
    await expect(page.getByRole('dialog', { name: 'Email sent!' })).toContainText(user.email, { timeout: 20_000 })
  })

  test('new password typed before the scripts arrive', async ({ page, request, baseURL, javaScriptEnabled: js }, testInfo) => {
    const user = await createUser(request, baseURL, { email: uniqueEmail('slow-reset', testInfo) })
    const asked = await request.post('/login?mode=forgot', { form: { intent: 'forgot', email: user.email }, headers: sameOrigin(baseURL) })
    expect(asked.status()).toBe(200)
    const link = await readResetLink(user.email)
    await openSlowly(page, link, { js })
    const next = 'slow-and-steady-9'
    await page.getByLabel('New password', { exact: true }).fill(next)
    await page.getByLabel('Confirm password', { exact: true }).fill(next)
    await waitForHydration(page, { js })
    await expect(page.getByLabel('New password', { exact: true })).toHaveValue(next)
    await expect(page.getByLabel('Confirm password', { exact: true })).toHaveValue(next)
    await page.getByRole('button', { name: 'Update password' }).click()
    await expect(page.getByRole('heading', { name: 'Password updated' })).toBeVisible({ timeout: 20_000 })
  })

  test('settings typed before the scripts arrive', async ({ page, baseURL, javaScriptEnabled: js }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('slow-settings', testInfo) })
    await openSlowly(page, '/settings', { js })
    await page.getByLabel('First name').fill('Katherine')
    await page.getByLabel('Company name').fill('NASA Langley')
    await waitForHydration(page, { js })
    await expect(page.getByLabel('First name')).toHaveValue('Katherine')
    await expect(page.getByLabel('Company name')).toHaveValue('NASA Langley')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.getByText('Your profile has been updated successfully.')).toBeVisible({ timeout: 20_000 })
    await expect(page.getByLabel('First name')).toHaveValue('Katherine')
    await expect(page.getByLabel('Company name')).toHaveValue('NASA Langley')
  })

  test('search criteria chosen before the scripts arrive', async ({ page, baseURL, javaScriptEnabled: js }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('slow-search', testInfo) })
    await openSlowly(page, `/?country=France&region=${encodeURIComponent('Bretagne')}`, { js })
    // Before hydration these are the server-rendered text input and selects.
    const category = page.locator('#search-sector')
    const department = page.locator('#search-department')
    await category.fill('Bakery')
    await department.selectOption('Finistère')
    await waitForHydration(page, { js })
    // With JavaScript they are now comboboxes, showing what was chosen.
    if (js) await expect(page.getByRole('combobox', { name: 'Category' })).toBeVisible()
    await expect(category).toHaveValue('Bakery')
    await expect(department).toHaveValue('Finistère')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await page.waitForURL((url) => url.searchParams.get('run') === '1', { timeout: 20_000 })
    const url = new URL(page.url())
    expect(url.searchParams.get('department')).toBe('Finistère')
    expect(url.searchParams.get('sector')).toMatch(/^(shop-bakery|Bakery)$/)
    await expect(category).toHaveValue('Bakery')
    await expect(page.locator('table tbody tr').first()).toBeVisible()
  })

  test('export name and enrichments chosen before the scripts arrive, then add enrichment', async ({ page, baseURL, javaScriptEnabled: js }, testInfo) => {
    test.setTimeout(180_000)
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('slow-export', testInfo) })
    const name = `Slow bakeries ${testInfo.project.name}`
    const search = `/?sector=shop-bakery&country=France&region=${encodeURIComponent('Bretagne')}&department=${encodeURIComponent('Finistère')}&city=${encodeURIComponent('Plouguerneau')}&run=1`
    await openSlowly(page, `${search}&export=1`, { js })
    const dialog = page.getByRole('dialog', { name: 'Enrich and export' })
    await dialog.getByLabel('Export name').fill(name)
    await dialog.getByLabel('Website', { exact: true }).uncheck()
    await dialog.getByLabel('Social media', { exact: true }).uncheck()
    await dialog.getByLabel(/Company registry/).uncheck()
    await dialog.getByLabel('Maximum number of leads').fill('7')
    await waitForHydration(page, { js })
    await expect(dialog.getByLabel('Maximum number of leads')).toHaveValue('7')
    await expect(dialog.getByLabel('Export name')).toHaveValue(name)
    await expect(dialog.getByLabel('Website', { exact: true })).not.toBeChecked()
    await expect(dialog.getByLabel('Social media', { exact: true })).not.toBeChecked()
    await expect(dialog.getByLabel(/Company registry/)).not.toBeChecked()
    await expect(dialog.getByLabel('Phone', { exact: true })).toBeChecked()
    await dialog.getByRole('button', { name: 'Start export' }).click()
    await page.waitForURL(/\/exports\/[0-9a-f-]{36}\?started=1$/, { timeout: 20_000 })
    const [created] = await sql<{ id: string; enrichment_options: Record<string, boolean>; search_params: { maxLeads?: number } }>('select id, enrichment_options, search_params from public.exports where name = $1', [name])
    expect(created?.enrichment_options).toMatchObject({ phone: true, email: true, website: false, social: false, admin_fr_info: false })
    expect(created?.search_params.maxLeads).toBe(7)

    await expect(async () => {
      const [row] = await sql<{ status: string }>('select status from public.exports where id = $1', [created!.id])
      expect(row?.status).toBe('completed')
    }).toPass({ timeout: 120_000, intervals: [1000, 2000] })

    await page.unrouteAll({ behavior: 'wait' })
    // Off /exports first: without JS its meta refresh would cut the slow navigation short.
    await page.goto('about:blank')
    await openSlowly(page, `/exports/${created!.id}?add=1`, { js })
    const add = page.getByRole('dialog', { name: 'Add enrichment' })
    await add.getByLabel('Social media', { exact: true }).check()
    await waitForHydration(page, { js })
    await expect(add.getByLabel('Social media', { exact: true })).toBeChecked()
    await add.getByRole('button', { name: 'Add enrichment' }).click()
    await expect(page.getByText('Enrichment added. The export is processing.')).toBeVisible({ timeout: 20_000 })
    const [updated] = await sql<{ enrichment_options: Record<string, boolean> }>('select enrichment_options from public.exports where id = $1', [created!.id])
    expect(updated?.enrichment_options).toMatchObject({ social: true })
  })
})
