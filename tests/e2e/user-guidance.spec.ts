import { expect, test, type Page } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { sql, subscribe } from './support/db.ts'
import { nextPost, sameOrigin, signUpViaRequest } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

// A village-sized demo search (few leads), with the export modal open.
const CRITERIA = { sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Plouguerneau' }
const SEARCH = `/?${new URLSearchParams(CRITERIA)}&run=1`

/** Spends every credit of the user (a ledger adjustment, as support would). */
async function drainCredits(email: string) {
  await sql(
    `select public.apply_credit_change(u.id, -c.remaining_credits, 'adjustment', 'e2e-drain:' || u.id)
       from auth.users u join public.user_credits c on c.user_id = u.id where u.email = $1 and c.remaining_credits > 0`,
    [email],
  )
}

async function insertExport(email: string, status: 'interrupted' | 'completed') {
  const [row] = await sql<{ id: string }>(
    `insert into public.exports (user_id, name, search_params, enrichment_options, status, can_resume)
     select id, $2, $3, $4, $5, $6 from auth.users where email = $1 returning id`,
    [email, `Guidance ${status}`, JSON.stringify(CRITERIA), JSON.stringify({ phone: true }), status, status === 'interrupted'],
  )
  return row!.id
}

const FR = { title: 'Enrichir et exporter', name: "Nom de l'export", submit: "Lancer l'export", required: 'Le nom est obligatoire' }

const plansLink = (scope: Page | ReturnType<Page['getByRole']>) => scope.getByRole('link', { name: /^See plans/ })

test.describe('credits: the way to the plans', () => {
  test.describe.configure({ timeout: 120_000 })

  test('a user without credits sees it in the export modal before filling anything, and the server still refuses', async ({ page, baseURL }, testInfo) => {
    const { email } = await signUpViaRequest(page, baseURL, { email: uniqueEmail('no-credits', testInfo) })
    await drainCredits(email)
    await page.goto(`${SEARCH}&export=1`)
    const dialog = page.getByRole('dialog', { name: 'Enrich and export' })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByTestId('no-credits-notice')).toHaveText(/Choose a plan to get more credits/)
    await expect(dialog.getByText('You have no credits left')).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Start export' })).toHaveCount(0)
    await expect(plansLink(dialog)).toHaveCount(2)
    await expectNoA11yViolations(page)

    // The server enforces it whatever is posted: 402 and the message with the link.
    const response = await page.request.post(`/?index&${new URLSearchParams(CRITERIA)}&run=1&export=1`, {
      form: { intent: 'create-export', idempotencyKey: crypto.randomUUID(), name: 'Sneaky', options: 'phone', ...CRITERIA },
      headers: sameOrigin(baseURL),
    })
    expect(response.status()).toBe(402)
    expect(await response.text()).toContain('Insufficient credits')

    await plansLink(dialog).last().click()
    await page.waitForURL((url) => url.pathname === '/subscription')
    await expect(page.getByRole('heading', { name: 'Subscription', level: 1 })).toBeVisible()
  })

  test('an interrupted export and add-enrichment at 0 credits link to the plans', async ({ page, baseURL }, testInfo) => {
    const { email } = await signUpViaRequest(page, baseURL, { email: uniqueEmail('no-credits-detail', testInfo) })
    await drainCredits(email)
    const interrupted = await insertExport(email, 'interrupted')
    await page.goto(`/exports/${interrupted}`)
    const banner = page.getByRole('status').filter({ hasText: 'Your credits ran out' })
    await expect(plansLink(banner)).toHaveAttribute('href', '/subscription')
    await page.getByRole('button', { name: 'Resume' }).click()
    const refusal = page.getByRole('alert').filter({ hasText: 'Insufficient credits' })
    await expect(refusal).toBeVisible()
    await expect(plansLink(refusal)).toHaveAttribute('href', '/subscription')

    const completed = await insertExport(email, 'completed')
    await page.goto(`/exports/${completed}?add=1`)
    const add = page.getByRole('dialog', { name: 'Add enrichment' })
    await add.getByLabel('Email', { exact: true }).check()
    await add.getByRole('button', { name: 'Add enrichment' }).click()
    const error = add.getByRole('alert')
    await expect(error).toContainText('You have no credits left')
    await expectNoA11yViolations(page)
    await plansLink(error).click()
    await page.waitForURL((url) => url.pathname === '/subscription')
  })
})

test.describe('export name validation', () => {
  test('an empty name gets the app’s message under the field, not the browser’s bubble', async ({ page, baseURL, javaScriptEnabled }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('export-name', testInfo) })
    await page.goto(`${SEARCH}&export=1`)
    const dialog = page.getByRole('dialog', { name: 'Enrich and export' })
    const name = dialog.getByLabel('Export name')
    await expect(name).toHaveValue(/Bakery/)
    await expect(dialog.locator('form')).toHaveAttribute('novalidate', '')
    // Empty: a `required` input would stop here with the browser's own bubble, in the browser's language.
    await name.fill('')
    if (javaScriptEnabled) {
      // Checked in the page: no request leaves.
      const posts: string[] = []
      page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()))
      await dialog.getByRole('button', { name: 'Start export' }).click()
      await expect(dialog.getByText('The name is required')).toBeVisible()
      expect(posts).toEqual([])
    } else {
      const posted = nextPost(page, '/')
      await dialog.getByRole('button', { name: 'Start export' }).click()
      expect((await posted).status()).toBe(400)
    }
    const reopened = page.getByRole('dialog', { name: 'Enrich and export' })
    await expect(reopened.getByText('The name is required')).toBeVisible()
    await expect(reopened.getByLabel('Export name')).toHaveAttribute('aria-invalid', 'true')
    await expect(reopened.getByLabel('Export name')).toHaveAccessibleDescription('The name is required')

    // Corrected, the same (re-rendered) form starts the export.
    await reopened.getByLabel('Export name').fill('Guidance bakeries')
    await reopened.getByRole('button', { name: 'Start export' }).click()
    await page.waitForURL(/\/exports\/[0-9a-f-]{36}\?started=1$/)
    await expect(page.getByRole('heading', { name: 'Guidance bakeries' })).toBeVisible()
  })

  test.describe('in French', () => {
    test.use({ locale: 'fr-FR' })
    test('the message is the app’s, in French', async ({ page, baseURL }, testInfo) => {
      await signUpViaRequest(page, baseURL, { email: uniqueEmail('export-name-fr', testInfo) })
      await page.goto(`${SEARCH}&export=1`)
      const dialog = page.getByRole('dialog', { name: FR.title })
      await dialog.getByLabel(FR.name).fill('')
      await dialog.getByRole('button', { name: FR.submit }).click()
      await expect(page.getByRole('dialog', { name: FR.title }).getByText(FR.required)).toBeVisible()
    })
  })
})

test.describe('subscription page highlights', () => {
  test('a free-trial user sees Professional recommended; a Basic user sees Basic as current and Professional recommended', async ({ page, baseURL }, testInfo) => {
    const { email } = await signUpViaRequest(page, baseURL, { email: uniqueEmail('highlight', testInfo) })
    await page.goto('/subscription')
    const card = (plan: string) => page.getByTestId(`plan-${plan}`)
    await expect(card('professional')).toHaveAttribute('data-recommended', 'true')
    await expect(card('professional').getByTestId('plan-badge')).toHaveText('Recommended')
    await expect(page.locator('[data-current]')).toHaveCount(0)
    await expect(page.getByTestId('plan-badge')).toHaveCount(1)

    await subscribe(email, 'basic')
    await page.reload()
    await expect(card('basic')).toHaveAttribute('data-current', 'true')
    await expect(card('basic').getByTestId('plan-badge')).toHaveText('Current plan')
    await expect(card('professional').getByTestId('plan-badge')).toHaveText('Recommended')
    await expect(card('premium').getByTestId('plan-badge')).toHaveCount(0)
    // Distinct borders: the current plan's is not the recommended one's.
    const ring = (plan: string) => card(plan).evaluate((element) => getComputedStyle(element).boxShadow)
    expect(await ring('basic')).not.toBe(await ring('professional'))
    expect(await ring('basic')).not.toBe(await ring('premium'))
    await expectNoA11yViolations(page)
  })
})

test.describe('header', () => {
  test('does not repeat the page title; Book a demo stays reachable on phones, in the drawer', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('header', testInfo) })
    await page.goto('/exports')
    const header = page.locator('header').first()
    // The drawer's (hidden) navigation sits in the header too: only visible text counts.
    const visibleTitle = header.getByText('Exports', { exact: true }).filter({ visible: true })
    await expect(page.getByRole('heading', { name: 'Exports', level: 1 })).toBeVisible()
    await expect(visibleTitle).toHaveCount(0)
    await expect(header.getByRole('link', { name: 'Book a demo' }).first()).toBeVisible()

    await page.setViewportSize({ width: 375, height: 812 })
    await expect(visibleTitle).toHaveCount(0)
    await expect(header.getByRole('link', { name: 'Book a demo' }).filter({ visible: true })).toHaveCount(0)
    // The header fits: nothing pushed out of the 375 px viewport.
    expect(await header.evaluate((element) => element.scrollWidth)).toBeLessThanOrEqual(375)
    await page.getByRole('link', { name: 'Open menu' }).click()
    const drawer = page.getByRole('dialog', { name: 'Main menu' })
    await expect(drawer.getByRole('link', { name: 'Book a demo' })).toBeVisible()
    await expect(drawer.getByRole('link', { name: 'Book a demo' })).toHaveAttribute('target', '_blank')
  })
})
