import { expect, test, type Locator, type Page } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { signUpViaRequest } from './support/http.ts'
import { sql } from './support/db.ts'
import { seedExports, seedRichExport } from './support/seed-exports.ts'
import { waitForHydration } from './support/slow-network.ts'
import { uniqueEmail } from './support/users.ts'

const SEARCH = `/?sector=shop-bakery&country=France&region=${encodeURIComponent('Bretagne')}&department=${encodeURIComponent('Finistère')}&city=${encodeURIComponent('Brest')}&run=1`
const ENRICHMENT_HEADERS = ['Phone', 'Website', 'Email', 'Technologies', 'Social media', 'Administrative info']

/** The element is rendered and lies entirely inside the viewport horizontally (nothing cut off at either edge). */
async function expectInsideViewport(locator: Locator) {
  await expect(locator).toBeVisible()
  const box = (await locator.boundingBox())!
  const width = locator.page().viewportSize()!.width
  expect(box.x, 'left edge inside the viewport').toBeGreaterThanOrEqual(0)
  expect(box.x + box.width, 'right edge inside the viewport').toBeLessThanOrEqual(width + 0.5)
}

/** The page itself never scrolls sideways. */
async function expectNoPageOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
}

const openMenu = (page: Page, name: string) => page.locator('summary', { hasText: name }).click()

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } })

  test('every menu and modal opens inside the viewport', async ({ page, baseURL }, testInfo) => {
    const email = uniqueEmail('menus', testInfo)
    await signUpViaRequest(page, baseURL, { email })
    const exportId = await seedRichExport(email, { count: 3 })
    await page.goto(`/exports/${exportId}`)

    await openMenu(page, 'Download')
    const download = page.getByTestId('download-menu')
    await expectInsideViewport(download)
    // A GET form to the download route: column presets, then one submit button per format.
    await expect(download).toHaveAttribute('action', `/api/exports/${exportId}/download`)
    const choices = download.getByRole('button')
    await expect(choices).toHaveCount(3)
    for (const choice of await choices.all()) await expectInsideViewport(choice)
    await expect(download.getByRole('radio')).toHaveCount(3)
    const comma = download.getByRole('button', { name: /^CSV \(,\)/ })
    await expect(comma).toHaveAttribute('name', 'separator')
    await expect(comma).toHaveAttribute('value', 'comma')

    await openMenu(page, 'Download') // closes it, as a second click on a menu button does
    await expect(download).toBeHidden()
    await expectInsideViewport(page.getByRole('link', { name: 'Delete' }))

    await page.locator('header summary').click()
    await expectInsideViewport(page.getByRole('link', { name: 'Manage subscription' }))
    await expectInsideViewport(page.locator('header details > div'))
    await expectInsideViewport(page.getByRole('group', { name: 'Language' }))

    await page.goto(`/exports/${exportId}?delete=1`)
    await expectInsideViewport(page.getByRole('dialog', { name: 'Delete this export?' }))
    await page.goto(`/exports/${exportId}?add=1`)
    await expectInsideViewport(page.getByRole('dialog', { name: 'Add enrichment' }))
    await expectNoPageOverflow(page)

    await page.goto(`/exports/${exportId}`)
    await page.getByRole('link', { name: 'Open menu' }).click()
    await expectInsideViewport(page.getByRole('dialog', { name: 'Main menu' }).locator('nav'))

    await page.goto(`${SEARCH}&export=1`)
    await expectInsideViewport(page.getByRole('dialog', { name: 'Enrich and export' }))
  })

  test('the export detail shows one card per lead, inside the viewport, with every chosen enrichment', async ({ page, baseURL }, testInfo) => {
    const email = uniqueEmail('cards', testInfo)
    await signUpViaRequest(page, baseURL, { email })
    const exportId = await seedRichExport(email, { count: 12 })
    await page.goto(`/exports/${exportId}`)
    await expect(page.getByTestId('leads-table')).toBeHidden()
    const cards = page.getByTestId('lead-card')
    await expect(cards).toHaveCount(10)
    for (const card of await cards.all()) {
      await expectInsideViewport(card)
      for (const column of ['phone', 'website', 'email', 'technologies', 'social', 'admin_fr_info', 'reviews']) {
        await expectInsideViewport(card.locator(`[data-column=${column}] dd`))
      }
    }
    const first = cards.first()
    for (const label of [...ENRICHMENT_HEADERS, 'Reviews']) await expect(first.getByText(label, { exact: true })).toBeVisible()
    const phone = first.getByRole('link', { name: '+33 2 98 04 12 10' })
    await expect(phone).toHaveAttribute('href', 'tel:+33298041210')
    // A number never breaks in the middle on a narrow card: it is one line high.
    await expect(phone).toHaveCSS('white-space', 'nowrap')
    expect((await phone.boundingBox())!.height).toBeLessThan(24)
    const website = first.getByRole('link', { name: 'boulangerie-1.fr', exact: true })
    await expect(website).toHaveAttribute('href', /^https:\/\/www\.boulangerie-1\.fr\/nous-contacter\/horaires-et-acces\?utm_source=google-maps/)
    await expectInsideViewport(website)
    await expectInsideViewport(first.getByRole('link', { name: 'commandes.patisserie@boulangerie-1.fr' }))
    await expect(first.getByText('Available')).toBeVisible()
    await expectNoPageOverflow(page)
    await expectNoA11yViolations(page)
  })

  test('the search preview shows cards inside the viewport', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('preview-cards', testInfo) })
    await page.goto(SEARCH)
    const cards = page.getByTestId('result-card')
    await expect(cards.first()).toBeVisible()
    for (const card of (await cards.all()).slice(0, 8)) await expectInsideViewport(card)
    await expectNoPageOverflow(page)
  })
})

test.describe('at 1440 px', () => {
  test('the leads table scrolls inside its card with the name column sticky', async ({ page, baseURL }, testInfo) => {
    const email = uniqueEmail('table', testInfo)
    await signUpViaRequest(page, baseURL, { email })
    const exportId = await seedRichExport(email, { count: 12 })
    await page.goto(`/exports/${exportId}`)
    await expect(page.getByTestId('lead-cards')).toBeHidden()
    const card = page.getByTestId('leads-table')
    const region = card.getByRole('region', { name: 'Leads table' })
    for (const name of ['Name', 'City', 'Categories', ...ENRICHMENT_HEADERS, 'Reviews']) await expect(card.getByRole('columnheader', { name })).toBeAttached()
    await expect(page.getByTestId('lead-row')).toHaveCount(10)
    await expectNoPageOverflow(page)

    const cardBox = (await card.boundingBox())!
    expect(cardBox.x + cardBox.width).toBeLessThanOrEqual(1440)
    const { scrollWidth, clientWidth } = await region.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }))
    expect(clientWidth).toBeLessThanOrEqual(cardBox.width)
    const nameCell = page.getByTestId('lead-row').first().locator('[data-column=name]')
    const before = (await nameCell.boundingBox())!
    if (scrollWidth > clientWidth) {
      // It does not fit: the card says so, and scrolling keeps the names in place.
      await expect(card.getByText('Scroll sideways for more columns')).toBeVisible()
      await region.evaluate((element) => element.scrollTo({ left: element.scrollWidth }))
      await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0)
      expect((await nameCell.boundingBox())!.x).toBeCloseTo(before.x, 0)
      const reviews = (await card.getByRole('columnheader', { name: 'Reviews' }).boundingBox())!
      expect(reviews.x + reviews.width).toBeLessThanOrEqual(cardBox.x + cardBox.width + 0.5)
      await expect(card.getByText('Scroll sideways for more columns')).toBeHidden()
    }
    expect(before.x).toBeGreaterThanOrEqual(cardBox.x)
    expect(await nameCell.evaluate((element) => getComputedStyle(element).position)).toBe('sticky')

    const row = page.getByTestId('lead-row').first()
    await expect(row.locator('[data-column=phone] a')).toHaveText('+33 2 98 04 12 10')
    await expect(row.locator('[data-column=phone]')).toContainText('Landline')
    await expect(row.locator('[data-column=website] a')).toHaveText('boulangerie-1.fr')
    await expect(row.locator('[data-column=website] a')).toHaveAttribute('href', /^https:\/\/www\.boulangerie-1\.fr\/nous-contacter/)
    await expectNoA11yViolations(page)
  })

  test('the exports list has labelled, sortable columns', async ({ page, baseURL }, testInfo) => {
    const email = uniqueEmail('sort', testInfo)
    await signUpViaRequest(page, baseURL, { email })
    await seedExports(email, [
      { name: 'Alpha', status: 'completed', minutesAgo: 30, leadCount: 1234, creditsUsed: 56 },
      { name: 'beta', status: 'processing', minutesAgo: 10 },
      { name: 'Éclair', status: 'failed', minutesAgo: 20 },
      { name: 'Zulu', status: 'interrupted', minutesAgo: 5 },
      { name: 'delta', status: 'pending', minutesAgo: 40 },
    ])
    const names = () => page.getByTestId('export-row').getByRole('link').allTextContents()
    const header = (name: string) => page.getByRole('columnheader', { name })

    await page.goto('/exports')
    await expect.poll(names).toEqual(['Zulu', 'beta', 'Éclair', 'Alpha', 'delta'])
    await expect(header('Created')).toHaveAttribute('aria-sort', 'descending')
    await expect(header('Name')).not.toHaveAttribute('aria-sort')
    for (const label of ['Leads', 'Credits used', 'Status']) await expect(header(label)).toBeVisible()
    const alpha = page.getByTestId('export-row').filter({ hasText: 'Alpha' })
    await expect(alpha.locator('[data-column=leads]')).toHaveText('1,234')
    await expect(alpha.locator('[data-column=credits]')).toHaveText('56')

    await header('Name').getByRole('link').click()
    await expect(page).toHaveURL(/[?&]sort=name-asc/)
    await expect(header('Name')).toHaveAttribute('aria-sort', 'ascending')
    await expect(header('Created')).not.toHaveAttribute('aria-sort')
    await expect.poll(names).toEqual(['Alpha', 'beta', 'delta', 'Éclair', 'Zulu'])

    await header('Name').getByRole('link').click()
    await expect(page).toHaveURL(/[?&]sort=name-desc/)
    await expect(header('Name')).toHaveAttribute('aria-sort', 'descending')
    await expect.poll(names).toEqual(['Zulu', 'Éclair', 'delta', 'beta', 'Alpha'])

    await header('Status').getByRole('link').click()
    await expect(page).toHaveURL(/[?&]sort=status-asc/)
    await expect.poll(names).toEqual(['beta', 'delta', 'Zulu', 'Éclair', 'Alpha'])

    // The order survives the status filter, and the header links keep the filter.
    await page.goto('/exports?status=completed&sort=name-desc')
    await expect.poll(names).toEqual(['Alpha'])
    await expect(header('Created').getByRole('link')).toHaveAttribute('href', /status=completed/)
    await page.goto('/exports?sort=nonsense')
    await expect.poll(names).toEqual(['Zulu', 'beta', 'Éclair', 'Alpha', 'delta'])

    // Each row opens its export.
    await page.getByTestId('export-row').filter({ hasText: 'Alpha' }).getByRole('link').click()
    await expect(page.getByRole('heading', { name: 'Alpha', level: 1 })).toBeVisible()
    await page.goto('/exports')
    await expectNoA11yViolations(page)
  })

  test('opening an export while the list refreshes itself stays on that export', async ({ page, baseURL }, testInfo) => {
    const email = uniqueEmail('refresh-race', testInfo)
    await signUpViaRequest(page, baseURL, { email })
    // A processing export keeps the list refreshing itself (every 2 s with JavaScript, a meta refresh without).
    const [opened] = await seedExports(email, [
      { name: 'Finished bakeries', status: 'completed', minutesAgo: 5 },
      { name: 'Running bakeries', status: 'processing', minutesAgo: 1 },
    ])
    await page.goto('/exports')
    await waitForHydration(page, { js: testInfo.project.name !== 'chromium-nojs' })
    // The export's data arrives slowly (a flaky connection): the list's refresh timer fires while the navigation waits.
    await page.route(`**/exports/${opened}.data*`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2_500))
      await route.continue()
    })
    await page.getByTestId('export-row').filter({ hasText: 'Finished bakeries' }).getByRole('link').click()
    await expect(page.getByRole('heading', { name: 'Finished bakeries', level: 1 })).toBeVisible({ timeout: 15_000 })
    // Several refresh periods later the export is still what the user sees (it used to fall back to the list).
    await page.waitForTimeout(5_000)
    await expect(page).toHaveURL(new RegExp(`/exports/${opened}$`))
    await expect(page.getByRole('heading', { name: 'Finished bakeries', level: 1 })).toBeVisible()
  })

  test('a list refresh still in flight when an export is opened does not bring the list back', async ({ page, baseURL }, testInfo) => {
    test.skip(testInfo.project.name === 'chromium-nojs', 'without JavaScript the list refreshes by reloading itself')
    const email = uniqueEmail('refresh-race-2', testInfo)
    await signUpViaRequest(page, baseURL, { email })
    const [opened] = await seedExports(email, [
      { name: 'Finished bakeries', status: 'completed', minutesAgo: 5 },
      { name: 'Running bakeries', status: 'processing', minutesAgo: 1 },
    ])
    await page.goto('/exports')
    await waitForHydration(page, { js: true })
    // The list's own refreshes are slow (a flaky connection): one is still on its way when the user opens an export.
    let refreshing = false
    await page.route('**/exports.data*', async (route) => {
      refreshing = true
      await new Promise((resolve) => setTimeout(resolve, 3_000))
      await route.continue().catch(() => {})
    })
    await expect.poll(() => refreshing, { timeout: 10_000 }).toBe(true)
    await page.getByTestId('export-row').filter({ hasText: 'Finished bakeries' }).getByRole('link').click()
    await expect(page.getByRole('heading', { name: 'Finished bakeries', level: 1 })).toBeVisible()
    await page.waitForTimeout(5_000)
    await expect(page).toHaveURL(new RegExp(`/exports/${opened}$`))
    await expect(page.getByRole('heading', { name: 'Finished bakeries', level: 1 })).toBeVisible()
  })

  test('a long list of exports with long names stays inside its card', async ({ page, baseURL }, testInfo) => {
    const email = uniqueEmail('many', testInfo)
    await signUpViaRequest(page, baseURL, { email })
    await sql(
      `insert into public.exports (user_id, name, status, lead_count, total_credits_used, progress_percentage, created_at)
       select u.id, 'Restaurants et brasseries du centre-ville de Saint-Pol-de-Léon, export numéro ' || n, 'completed', n * 101, n * 37, 100,
              now() - make_interval(mins => n)
       from auth.users u, generate_series(1, 60) n where u.email = $1`,
      [email],
    )
    // Pages of 50 that keep the order: oldest first, then the next page holds the last 10.
    await page.goto('/exports?sort=date-asc')
    await expect(page.getByTestId('export-row')).toHaveCount(50)
    await expect(page.getByTestId('export-row').first().getByRole('link')).toHaveAttribute('title', /export numéro 60$/)
    await page.getByRole('link', { name: 'Next' }).click()
    await expect(page).toHaveURL(/sort=date-asc/)
    await expect(page).toHaveURL(/page=2/)
    await expect(page.getByTestId('export-row')).toHaveCount(10)
    await expect(page.getByTestId('export-row').last().getByRole('link')).toHaveAttribute('title', /export numéro 1$/)
    await page.goto('/exports')
    await expect(page.getByTestId('export-row')).toHaveCount(50)
    await expectNoPageOverflow(page)
    const table = page.getByTestId('exports-list')
    const card = (await table.locator('..').boundingBox())!
    const tableBox = (await table.boundingBox())!
    expect(tableBox.x + tableBox.width).toBeLessThanOrEqual(card.x + card.width + 0.5)
    await expect(page.getByTestId('export-row').first().getByRole('link')).toHaveAttribute('title', /export numéro 1$/)
    await page.setViewportSize({ width: 375, height: 812 })
    for (const item of (await page.getByTestId('export-cards').getByRole('link').all()).slice(0, 5)) await expectInsideViewport(item)
    await expectNoPageOverflow(page)
  })

  test('narrow screens sort with a select and label every number', async ({ page, baseURL, javaScriptEnabled }, testInfo) => {
    await page.setViewportSize({ width: 375, height: 812 })
    const email = uniqueEmail('sort-mobile', testInfo)
    await signUpViaRequest(page, baseURL, { email })
    await seedExports(email, [
      { name: 'Alpha', minutesAgo: 30, leadCount: 12, creditsUsed: 7 },
      { name: 'Zulu', minutesAgo: 5 },
    ])
    await page.goto('/exports')
    const cards = page.getByTestId('export-cards').getByRole('link')
    await expect(cards).toHaveCount(2)
    await expect(cards.first()).toContainText('Zulu')
    // With JavaScript the select sorts on change, which needs its handler: wait for the page to be hydrated.
    await waitForHydration(page, { js: javaScriptEnabled })
    await page.getByLabel('Sort by').selectOption({ label: 'Name (A–Z)' })
    if (!javaScriptEnabled) await page.getByRole('button', { name: 'Apply' }).click()
    await expect(page).toHaveURL(/[?&]sort=name-asc/)
    await expect(cards.first()).toContainText('Alpha')
    const alpha = page.getByTestId('export-cards').getByRole('listitem').first()
    await expect(alpha.getByText('Leads')).toBeVisible()
    await expect(alpha.getByText('Credits used')).toBeVisible()
    for (const card of await cards.all()) await expectInsideViewport(card)
    await expectNoPageOverflow(page)
    await expectNoA11yViolations(page)
  })
})

/** Not a test: screenshots of the screens above for a human look (`SCREENSHOTS=1`). */
test('capture tables and menus', async ({ page, baseURL }, testInfo) => {
  test.skip(!process.env.SCREENSHOTS, 'set SCREENSHOTS=1 to capture the screens')
  test.slow()
  const dir = `scratch/tables/${testInfo.project.name.replace(/^chromium-/, '')}`
  const email = uniqueEmail('shots', testInfo)
  await signUpViaRequest(page, baseURL, { email })
  const exportId = await seedRichExport(email, { count: 12 })
  await seedExports(email, [
    { name: 'Plombiers Lyon', status: 'processing', minutesAgo: 3, leadCount: 320, creditsUsed: 118, progress: 42 },
    { name: 'Restaurants Nantes — centre-ville et alentours', status: 'interrupted', minutesAgo: 600, leadCount: 87, creditsUsed: 100 },
    { name: 'Avocats Paris', status: 'failed', minutesAgo: 3000 },
  ])
  for (const language of ['en', 'fr']) {
    if (language === 'fr') {
      await page.goto('/exports')
      await page.getByRole('button', { name: 'Français' }).click()
      await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
    }
    for (const [width, height] of [[1440, 900], [375, 812]] as const) {
      await page.setViewportSize({ width, height })
      const shot = (name: string, fullPage = true) => page.screenshot({ path: `${dir}/${name}-${language}-${width}.png`, fullPage })
      await page.goto(`/exports/${exportId}`)
      await shot('detail')
      if (width === 375) {
        await page.getByTestId('lead-card').first().scrollIntoViewIfNeeded()
        await shot('detail-cards', false)
      }
      await page.locator('summary').filter({ hasText: /Download|Télécharger/ }).click()
      await shot('download-menu', false)
      await page.goto('/exports?sort=name-asc')
      await shot('exports')
      await page.goto(SEARCH)
      await expect(page.locator('main')).toBeVisible()
      await shot('search')
    }
  }
})
