import { expect, test, type Page } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { signUp } from './support/auth.ts'
import { subscribe } from './support/db.ts'

const hasJs = (projectName: string) => projectName !== 'chromium-nojs'

type Level = 'Country' | 'Region' | 'Department' | 'City'
const FRENCH: Record<string, string> = {
  Country: 'Pays',
  Region: 'Région',
  Department: 'Département',
  City: 'Ville',
  Category: 'Catégorie',
  Search: 'Rechercher',
  'Load the next level': 'Charger le niveau suivant',
}
let french = false
const label = (text: string) => (french ? (FRENCH[text] ?? text) : text)

/**
 * The comboboxes arrive in their own chunk on the first touch of the form (a pointer press or focus inside it, once
 * hydrated); until then the form shows its native pickers (a text input with a datalist has the combobox role too).
 * Touch the form, without focusing a field, and interact with the enhanced ones.
 */
async function enhancedPickers(page: Page) {
  await expect(async () => {
    await page.locator('form[data-pickers]').dispatchEvent('pointerdown')
    await expect(page.locator('form[data-pickers="enhanced"]')).toBeVisible({ timeout: 1_000 })
  }).toPass()
}

/** Chooses a value in a location picker: a combobox with JavaScript, a select + "load next level" without. */
async function pickLocation(page: Page, js: boolean, level: Level, name: string) {
  if (js) {
    await enhancedPickers(page)
    const input = page.getByRole('combobox', { name: label(level), exact: true })
    await input.click()
    await input.fill(name.slice(0, 4))
    await page.getByRole('option', { name, exact: true }).click()
    await expect(input).toHaveValue(name)
  } else {
    await page.getByLabel(label(level), { exact: true }).selectOption({ label: name })
    if (level !== 'City') {
      await page.getByRole('button', { name: label('Load the next level') }).click()
      await page.waitForLoadState()
      // The keyboard lands on the level just loaded (the next one offered), not at the top of the page.
      const lower = (['Region', 'Department', 'City'] as const).slice(['Country', 'Region', 'Department'].indexOf(level)).map((name) => name.toLowerCase())
      await expect(page.locator('select:focus')).toHaveAttribute('name', new RegExp(`^(?:${lower.join('|')})$`))
    }
  }
}

async function pickCategory(page: Page, js: boolean, typed: string, option: string) {
  if (js) {
    await enhancedPickers(page)
    const input = page.getByRole('combobox', { name: label('Category'), exact: true })
    await input.click()
    await input.fill(typed)
    await page.getByRole('option', { name: option, exact: true }).click()
    // A custom entry ('Use "text"') leaves the typed text in the field.
    await expect(input).toHaveValue(option.startsWith('Use "') ? typed : option)
  } else {
    await page.getByLabel(label('Category'), { exact: true }).fill(typed)
  }
}

async function runSearch(page: Page) {
  await page.getByRole('button', { name: label('Search'), exact: true }).click()
}

test.describe('search', () => {
  // Long journeys (sign-up, four pickers, axe twice) on a 2-core machine.
  test.describe.configure({ timeout: 90_000 })
  test.afterEach(() => {
    french = false
  })

  test('finds up to 20 demo businesses for a category down to a city (French UI, unaccented typing)', async ({ page }, testInfo) => {
    const js = hasJs(testInfo.project.name)
    await signUp(page, { skipProfile: true })
    // The e2e server runs LEADS_SOURCE=auto with Overpass unreachable (playwright.config.ts): demo data, and it says why.
    const notice = page.getByRole('status').filter({ hasText: 'Demo data — OpenStreetMap could not be reached.' })
    await expect(notice).toBeVisible()
    await expect(notice).toContainText("These sample businesses are generated for demonstration: they are not real companies, so don't contact them.")
    // Before anything is done the page guides, in a neutral tone: no error colour greets a new user.
    const requirement = page.locator('#search-requirement')
    await expect(requirement).toHaveText('Choose a category or a country to start your search.')
    await expect(requirement).toHaveClass(/text-slate-600/)
    await expect(requirement).not.toHaveClass(/amber|red/)
    await page.getByRole('button', { name: 'Français' }).click()
    await expect(page.getByRole('heading', { name: 'Trouver des prospects', level: 1 })).toBeVisible()
    await expect(page.getByRole('status').filter({ hasText: 'Données de démonstration — OpenStreetMap est injoignable.' })).toBeVisible()
    french = true
    await expectNoA11yViolations(page)
    // "patisserie" finds "Pâtisserie": matching ignores case and accents.
    await pickCategory(page, js, 'patisserie', 'Pâtisserie')
    await pickLocation(page, js, 'Country', 'France')
    await pickLocation(page, js, 'Region', 'Île-de-France')
    await pickLocation(page, js, 'Department', 'Paris')
    await pickLocation(page, js, 'City', 'Paris')
    await runSearch(page)
    await expect(page.getByRole('heading', { name: /Aperçu des résultats/ })).toBeVisible()
    const rows = page.locator('table tbody tr')
    await expect(rows.first()).toBeVisible()
    expect(await rows.count()).toBeLessThanOrEqual(20)
    expect(await rows.count()).toBeGreaterThan(0)
    await expect(rows.first()).toContainText('Paris')
    await expect(page.getByRole('link', { name: 'Enrichir et exporter' })).toBeVisible()
    if (js) expect(new URL(page.url()).searchParams.get('sector')).toBe('shop-pastry')
    // The search lives in the URL: a reload renders the same results server-side.
    expect(new URL(page.url()).searchParams.get('department')).toBe('Paris')
    const firstName = await rows.first().locator('td').first().textContent()
    await page.reload()
    await expect(page.locator('table tbody tr').first().locator('td').first()).toHaveText(firstName!)
    await expectNoA11yViolations(page)
  })

  test('stops a free-trial user at region level with the plan-restriction modal', async ({ page }, testInfo) => {
    const js = hasJs(testInfo.project.name)
    await signUp(page, { skipProfile: true })
    await pickCategory(page, js, 'bakery', 'Bakery')
    await pickLocation(page, js, 'Country', 'France')
    await pickLocation(page, js, 'Region', 'Bretagne')
    await runSearch(page)
    const dialog = page.getByRole('dialog', { name: 'Upgrade to search wider areas' })
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('Your plan requires selecting a department')
    await expect(dialog).toContainText('Upgrade to Professional or Premium')
    await expect(dialog.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/subscription')
    await expect(page.locator('table')).toHaveCount(0)
    // With JS the form checks the plan itself once the department list has loaded (a button closes the modal); while
    // that list is still loading it leaves the check to the server, whose modal closes with a link (as without JS).
    const gotIt = js ? dialog.getByRole('button', { name: 'Got it' }).or(dialog.getByRole('link', { name: 'Got it' })) : dialog.getByRole('link', { name: 'Got it' })
    await gotIt.click()
    await expect(dialog).toBeHidden()
  })

  test('lets a professional user search a whole region', async ({ page }, testInfo) => {
    const js = hasJs(testInfo.project.name)
    const user = await signUp(page, { skipProfile: true })
    await subscribe(user.email, 'professional')
    await page.reload()
    await pickCategory(page, js, 'bakery', 'Bakery')
    await pickLocation(page, js, 'Country', 'France')
    await pickLocation(page, js, 'Region', 'Bretagne')
    await runSearch(page)
    await expect(page.locator('table tbody tr').first()).toBeVisible()
    await expect(page.getByRole('dialog')).toHaveCount(0)
  })

  test('searches a custom category typed as free text', async ({ page }, testInfo) => {
    const js = hasJs(testInfo.project.name)
    await signUp(page, { skipProfile: true })
    await pickCategory(page, js, 'Vintage synth repair', js ? 'Use "Vintage synth repair"' : '')
    await pickLocation(page, js, 'Country', 'France')
    await pickLocation(page, js, 'Region', 'Occitanie')
    await pickLocation(page, js, 'Department', 'Haute-Garonne')
    await runSearch(page)
    await expect(page.locator('table tbody tr').first()).toBeVisible()
    expect(new URL(page.url()).searchParams.get('sector')).toBe('Vintage synth repair')
  })

  test('lets a free-trial user search a region of a country without departments (Germany → Berlin)', async ({ page }, testInfo) => {
    const js = hasJs(testInfo.project.name)
    await signUp(page, { skipProfile: true })
    await pickCategory(page, js, 'bakery', 'Bakery')
    await pickLocation(page, js, 'Country', 'Germany')
    await pickLocation(page, js, 'Region', 'Berlin')
    if (js) {
      // The department list has loaded, empty: the client knows the level has no data.
      const department = page.getByRole('combobox', { name: 'Department', exact: true })
      await department.click()
      await expect(page.getByText('No locations found')).toBeVisible()
      await department.press('Escape')
    }
    // The form says the level is not needed here, with and without JavaScript.
    await expect(page.getByText('None here — this level is optional.')).toBeVisible()
    await runSearch(page)
    await expect(page.locator('table tbody tr').first()).toBeVisible()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await expect(page.getByText('Your plan requires selecting a department')).toHaveCount(0)
    const url = new URL(page.url())
    expect([url.searchParams.get('country'), url.searchParams.get('region'), url.searchParams.get('department') ?? '']).toEqual(['Germany', 'Berlin', ''])
  })

  test('lets a free-trial user pick a city of a region without departments (Germany → Berlin → Charlottenburg) and export it', async ({ page }, testInfo) => {
    const js = hasJs(testInfo.project.name)
    await signUp(page, { skipProfile: true })
    // France is unchanged: a region alone leaves the city waiting for a department.
    await pickLocation(page, js, 'Country', 'France')
    await pickLocation(page, js, 'Region', 'Bretagne')
    const city = js ? page.getByRole('combobox', { name: 'City', exact: true }) : page.getByLabel('City', { exact: true })
    await expect(city).toBeDisabled()
    await expect(page.getByText('Please select a department first').first()).toBeVisible()

    await pickCategory(page, js, 'bakery', 'Bakery')
    await pickLocation(page, js, 'Country', 'Germany')
    await pickLocation(page, js, 'Region', 'Berlin')
    await expect(page.getByText('None here — this level is optional.')).toBeVisible()
    // Berlin has no departments: its cities are offered straight away, with and without JavaScript.
    await expect(city).toBeEnabled()
    await expect(page.getByText('Please select a department first')).toHaveCount(0)
    await pickLocation(page, js, 'City', 'Charlottenburg')
    await runSearch(page)
    await expect(page.getByRole('heading', { name: /Results preview/ })).toBeVisible()
    await expect(page.locator('table tbody tr').first()).toBeVisible()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await expect(page.getByText('Your plan requires selecting a department')).toHaveCount(0)
    const url = new URL(page.url())
    expect(['country', 'region', 'department', 'city'].map((name) => url.searchParams.get(name) ?? '')).toEqual(['Germany', 'Berlin', '', 'Charlottenburg'])
    // The server kept the city: a reload shows it picked, and the export is created for it.
    await page.reload()
    await expect(city).toHaveValue('Charlottenburg')
    await page.getByRole('link', { name: 'Enrich and export' }).click()
    const dialog = page.getByRole('dialog', { name: 'Enrich and export' })
    await expect(dialog.getByLabel('Export name')).toHaveValue(/Charlottenburg/)
    await dialog.getByRole('button', { name: 'Start export' }).click()
    await page.waitForURL(/\/exports\/[0-9a-f-]{36}\?started=1$/)
    await expect(page.getByRole('heading', { name: /Charlottenburg/ })).toBeVisible()
  })

  test('matches categories in both languages and by preset terms, like the server', async ({ page }, testInfo) => {
    const js = hasJs(testInfo.project.name)
    await signUp(page, { skipProfile: true })
    const category = page.getByRole('combobox', { name: 'Category', exact: true })
    if (js) {
      await enhancedPickers(page)
      // English interface, French words (and a French preset term): each finds its category.
      for (const [typed, option] of [
        ['pâtisserie', 'Pastry Shop'],
        ['DENTISTE', 'Dentist'],
        ['cabinet dentaire', 'Dentist'],
        ['plombier', 'Plumber'],
      ] as const) {
        await category.fill(typed)
        await expect(page.getByRole('option', { name: option, exact: true })).toBeVisible()
      }
      // Text naming a category needs no 'Use "…"' entry.
      await category.fill('boulangerie')
      await expect(page.getByRole('option', { name: 'Bakery', exact: true })).toBeVisible()
      await expect(page.getByRole('option', { name: /^Use "/ })).toHaveCount(0)
    }
    await pickCategory(page, js, 'boulangerie', 'Bakery')
    await pickLocation(page, js, 'Country', 'France')
    await pickLocation(page, js, 'Region', 'Bretagne')
    await pickLocation(page, js, 'Department', 'Finistère')
    await runSearch(page)
    await expect(page.locator('table tbody tr').first()).toBeVisible()
    // Without JavaScript the server resolved the free text: the field now shows the category.
    await expect(page.getByLabel('Category', { exact: true })).toHaveValue('Bakery')
    if (js) expect(new URL(page.url()).searchParams.get('sector')).toBe('shop-bakery')

    // French interface, English word.
    await page.getByRole('button', { name: 'Français' }).click()
    await expect(page.getByRole('heading', { name: 'Trouver des prospects', level: 1 })).toBeVisible()
    french = true
    await page.goto('/?country=France&region=Bretagne&department=Finist%C3%A8re')
    await pickCategory(page, js, 'bakery', 'Boulangerie')
    await runSearch(page)
    await expect(page.locator('table tbody tr').first()).toBeVisible()
    await expect(page.getByLabel('Catégorie', { exact: true })).toHaveValue('Boulangerie')
  })

  test('fits every picker placeholder in its field at 1440 and 375 px, in English and French', async ({ page }) => {
    await signUp(page, { skipProfile: true })
    for (const language of ['English', 'Français']) {
      if (language === 'Français') {
        await page.getByRole('button', { name: 'Français' }).click()
        await expect(page.getByRole('heading', { name: 'Trouver des prospects', level: 1 })).toBeVisible()
      }
      for (const width of [1440, 375]) {
        await page.setViewportSize({ width, height: 900 })
        await page.goto('/')
        const overflowing = await page.locator('form[action="/"] input[placeholder]').evaluateAll((inputs) =>
          (inputs as HTMLInputElement[]).flatMap((input) => {
            const style = getComputedStyle(input)
            const context = document.createElement('canvas').getContext('2d')!
            context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
            const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
            return context.measureText(input.placeholder).width > room ? [input.placeholder] : []
          }),
        )
        expect(overflowing, `${language} at ${width} px`).toEqual([])
        expect(await page.locator('form[action="/"] input[placeholder]').count()).toBeGreaterThan(0)
      }
    }
  })

  test('picking a country clears the lower levels', async ({ page }, testInfo) => {
    test.skip(!hasJs(testInfo.project.name), 'without JavaScript the server drops orphan levels (unit-tested)')
    await signUp(page, { skipProfile: true })
    await pickLocation(page, true, 'Country', 'France')
    await pickLocation(page, true, 'Region', 'Bretagne')
    await expect(page.getByRole('combobox', { name: 'Department', exact: true })).toBeEnabled()
    await pickLocation(page, true, 'Country', 'Germany')
    await expect(page.getByRole('combobox', { name: 'Region', exact: true })).toHaveValue('')
    await expect(page.getByRole('combobox', { name: 'Department', exact: true })).toBeDisabled()
  })
})

test.describe('search API', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'HTTP-level checks run once')

  test('answers categories, locations and previews, and refuses bad input with 4xx', async ({ page, baseURL }) => {
    await signUp(page, { skipProfile: true })
    const api = page.request
    const categories = await api.get('/api/categories?lang=en')
    expect(categories.status()).toBe(200)
    const list = (await categories.json()) as Array<{ id: string; value: string; label: string }>
    expect(list.length).toBeGreaterThanOrEqual(200)
    expect(list[0]).toEqual({ id: expect.any(String), value: expect.any(String), label: expect.any(String) })
    expect((await api.get('/api/categories?lang=de')).status()).toBe(400)
    // The picker asks for the search keys too: the other language's label and the presets' terms.
    const withTerms = (await (await api.get('/api/categories?lang=en&include=terms')).json()) as Array<Record<string, unknown>>
    expect(withTerms.find((option) => option.id === 'shop-bakery')).toMatchObject({
      label: 'Bakery',
      otherLabel: 'Boulangerie',
      terms: expect.arrayContaining(['bakeshop']),
      otherTerms: expect.any(Array),
    })

    const regions = await api.get('/api/locations?type=region&countryName=France')
    expect(regions.status()).toBe(200)
    expect(((await regions.json()) as Array<{ name: string }>).map((r) => r.name)).toContain('Bretagne')
    const unknownType = await api.get('/api/locations?type=planet')
    expect(unknownType.status()).toBe(400)
    expect(await unknownType.json()).toMatchObject({ error: 'unknown_type', message: expect.any(String) })
    expect((await api.get('/api/locations?type=department&countryName=France')).status()).toBe(400)

    const origin = { Origin: new URL(baseURL!).origin }
    const malformed = await api.post('/api/search/preview', { headers: { ...origin, 'Content-Type': 'application/json' }, data: '{"sector":' })
    expect(malformed.status()).toBe(400)
    expect(await malformed.json()).toMatchObject({ error: 'bad_json', message: expect.any(String) })
    const noCriteria = await api.post('/api/search/preview', { headers: origin, data: {} })
    expect(noCriteria.status()).toBe(400)
    const planLimited = await api.post('/api/search/preview', { headers: origin, data: { sector: 'shop-bakery', country: 'France', region: 'Bretagne' } })
    expect(planLimited.status()).toBe(403)
    expect(await planLimited.json()).toMatchObject({ error: 'plan', message: 'Your plan requires selecting a department' })
    const preview = await api.post('/api/search/preview', {
      headers: origin,
      data: { sector: 'shop-bakery', country: 'fr', region: 'Bretagne', department: 'Finistère', lang: 'en' },
    })
    expect(preview.status()).toBe(200)
    const results = (await preview.json()) as Array<Record<string, unknown>>
    expect(results.length).toBeGreaterThan(0)
    expect(results.length).toBeLessThanOrEqual(20)
    expect(Object.keys(results[0]!).sort()).toEqual(['address', 'businessTypes', 'id', 'name', 'rating', 'reviewCount', 'website'])

    const crossSite = await api.post('/api/search/preview', { headers: { Origin: 'http://evil.example' }, data: { country: 'France' } })
    expect(crossSite.status()).toBe(403)
  })

  test('refuses anonymous callers with 401', async ({ request }) => {
    const response = await request.get('/api/categories')
    expect(response.status()).toBe(401)
    expect(await response.json()).toMatchObject({ error: 'User not authenticated' })
  })
})
