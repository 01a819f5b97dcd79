// Security issue 18: a location whose names and country code disagree, or that names a place that does not exist,
// is refused with a localized 400 on the search page (with and without JavaScript, keeping what was sent) and by
// every API command — never searched, never exported.
import { expect, test, type Page } from '@playwright/test'
import { sql } from './support/db.ts'
import { sameOrigin, signUpViaRequest } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

const hasJs = (projectName: string) => projectName !== 'chromium-nojs'

/** The country field as the page renders it: a combobox with JavaScript, a select without. */
async function expectCountry(page: Page, js: boolean, label: string, value: string) {
  const field = js ? page.getByRole('combobox', { name: label, exact: true }) : page.getByLabel(label, { exact: true })
  await expect(field).toHaveValue(value)
}

test.describe('search location refused', () => {
  test('the search page shows the localized error and keeps the search (free trial)', async ({ page, baseURL }, testInfo) => {
    const js = hasJs(testInfo.project.name)
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('atlantis', testInfo) })
    const atlantis = '/?sector=shop-bakery&country=Atlantis&countryCode=FR&run=1'
    const response = await page.goto(atlantis)
    expect(response?.status()).toBe(400)
    // In the form, once (not again below it).
    await expect(page.locator('form #search-location-error')).toHaveText('Unknown country. Please choose a country from the list.')
    await expect(page.getByRole('alert').filter({ hasText: 'Unknown country' })).toHaveCount(1)
    await expectCountry(page, js, 'Country', 'Atlantis')
    await expect(page.getByText('results found')).toHaveCount(0)

    expect((await page.goto('/?sector=shop-bakery&country=Germany&countryCode=FR&region=Berlin&run=1'))?.status()).toBe(400)
    await expect(page.locator('form #search-location-error')).toHaveText('The country code does not match the chosen country.')
    await expectCountry(page, js, 'Country', 'Germany')

    await page.getByRole('button', { name: 'Français' }).click()
    await expect(page.getByRole('heading', { name: 'Trouver des prospects', level: 1 })).toBeVisible()
    expect((await page.goto(atlantis))?.status()).toBe(400)
    await expect(page.locator('form #search-location-error')).toHaveText('Pays inconnu. Veuillez choisir un pays dans la liste.')
    await expectCountry(page, js, 'Pays', 'Atlantis')
  })

  test('every command answers 400 with the message, and nothing is exported', async ({ page, baseURL }, testInfo) => {
    test.skip(!hasJs(testInfo.project.name), 'API calls: the same without JavaScript')
    const user = await signUpViaRequest(page, baseURL, { email: uniqueEmail('atlantis-api', testInfo) })
    const headers = sameOrigin(baseURL)

    const preview = await page.request.post('/api/search/preview', { headers, data: { sector: 'shop-bakery', country: 'Atlantis', countryCode: 'FR' } })
    expect(preview.status()).toBe(400)
    expect(await preview.json()).toEqual({ error: 'invalid_location', field: 'country', message: 'Unknown country. Please choose a country from the list.' })
    const mismatch = await page.request.post('/api/search/preview', { headers, data: { sector: 'shop-bakery', country: 'Germany', countryCode: 'FR', region: 'Berlin' } })
    expect(await mismatch.json()).toMatchObject({ error: 'invalid_location', field: 'countryCode' })
    const codeAlone = await page.request.post('/api/search/preview', { headers, data: { sector: 'shop-bakery', countryCode: 'DE' } })
    expect(codeAlone.status()).toBe(400)
    expect(await codeAlone.json()).toMatchObject({ error: 'invalid_location', field: 'countryCode' })

    const create = await page.request.post('/search', {
      form: { intent: 'create-export', name: 'All of France', sector: 'shop-bakery', country: 'Atlantis', countryCode: 'FR', options: 'email', idempotencyKey: `k-${Date.now()}` },
      headers,
      maxRedirects: 0,
    })
    expect(create.status()).toBe(400)
    expect(await create.text()).toContain('Unknown country. Please choose a country from the list.')

    // Exports stored before the check: resume and add enrichment resolve them again and refuse them.
    const [owner] = await sql<{ id: string }>('select id from auth.users where email = $1', [user.email])
    const seeded = async (status: string) => {
      const [row] = await sql<{ id: string }>(
        `insert into public.exports (user_id, name, status, search_status, enrichment_status, can_resume, search_params, enrichment_options)
         values ($1, 'Old', $2, 'completed', $2, $3, '{"sector":"shop-bakery","country":"Atlantis","countryCode":"FR"}', '{"email":true}') returning id`,
        [owner!.id, status, status === 'interrupted'],
      )
      return row!.id
    }
    const resume = await page.request.post('/api/exports/resume', { headers, data: { exportId: await seeded('interrupted'), userId: owner!.id } })
    expect(resume.status()).toBe(400)
    expect(await resume.json()).toMatchObject({ error: 'invalid_location', message: 'Unknown country. Please choose a country from the list.' })
    const add = await page.request.post(`/api/exports/${await seeded('completed')}/add-enrichment`, { headers, data: { userId: owner!.id, enrichmentOptions: { phone: true } } })
    expect(add.status()).toBe(400)
    expect(await add.json()).toMatchObject({ error: 'invalid_location', message: 'Unknown country. Please choose a country from the list.' })
    const [counts] = await sql<{ exports: number; processing: number }>(
      `select count(*)::int as exports, count(*) filter (where status = 'processing')::int as processing from public.exports where user_id = $1`,
      [owner!.id],
    )
    expect(counts).toEqual({ exports: 2, processing: 0 })
  })

})

test.describe('typed place names', () => {
  test('names typed with spaces, without accents or with "St" find the place, in the picker and on the server (issue 19)', async ({ page, baseURL }, testInfo) => {
    const js = hasJs(testInfo.project.name)
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('folding', testInfo) })
    if (js) {
      await page.goto('/')
      // The comboboxes load on the form's first touch (page weight).
      await expect(async () => {
        await page.locator('form[data-pickers]').dispatchEvent('pointerdown')
        await expect(page.locator('form[data-pickers="enhanced"]')).toBeVisible({ timeout: 1_000 })
      }).toPass()
      const pick = async (level: string, typed: string, option: string) => {
        const input = page.getByRole('combobox', { name: level, exact: true })
        await input.click()
        await input.fill(typed)
        await page.getByRole('option', { name: option, exact: true }).click()
        await expect(input).toHaveValue(option)
      }
      await pick('Country', 'france', 'France')
      await pick('Region', 'ile de france', 'Île-de-France')
      await pick('Department', 'val de marne', 'Val-de-Marne')
      await pick('City', 'st maur des', 'Saint-Maur-des-Fossés')
    } else {
      // Without JavaScript the pickers are selects; the server reads typed names (a shared URL) the same way.
      await page.goto('/?country=France&region=ile+de+france')
      await expect(page.getByLabel('Department', { exact: true }).locator('option', { hasText: 'Val-de-Marne' })).toHaveCount(1)
    }
    // Apostrophes and hyphens left out, accents too: the server resolves the same place.
    const typed = await page.goto('/?sector=shop-bakery&country=france&region=ile+de+france&department=val+de+marne&city=l%27hay+les+roses&run=1')
    expect(typed?.status()).toBe(200)
    await expect(page.locator('#search-location-error')).toHaveCount(0)
    await expect(page.getByRole('table')).toBeVisible()
  })
})
