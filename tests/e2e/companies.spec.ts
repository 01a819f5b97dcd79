// /companies (issue 22 items 1–3) with and without JavaScript: the registry's count for the filters, 20
// establishments, and the map-coverage panel, on the demo registry and the demo map; in English at 1440 px and in
// French at 375 px. The plan's location rule answers before the registry is asked.
import { expect, test, type Page } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { signUpViaRequest } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

const TEXT = {
  en: {
    nav: 'Companies (France)',
    category: 'Category',
    region: 'Region',
    department: 'Department',
    naf: 'Activity code (NAF)',
    city: 'Commune or postcode',
    search: 'Search',
    band: '3 to 5 employees',
    plan: 'Your plan requires selecting a region',
    total: /^[\d,]+\+? establishments? in the registry$/,
    onMap: /^(≈ \d+ % on the map, ± \d+ points, from [\d,]+ checked|\d+ of [\d,]+ on the map \(\d+ %\))$/,
    website: /with a website/,
    export: 'Export these companies',
    name: 'Export name',
    maxLeads: 'Maximum number of leads',
    start: 'Start export',
    notFound: 'Not found online',
  },
  fr: {
    nav: 'Entreprises (France)',
    category: 'Catégorie',
    region: 'Région',
    department: 'Département',
    naf: 'Code d’activité (NAF)',
    city: 'Commune ou code postal',
    search: 'Rechercher',
    band: '3 à 5 salariés',
    plan: 'Votre offre nécessite de sélectionner une région',
    total: /^[\d\s\u202f\u00a0]+\+? établissements? au répertoire$/,
    onMap: /^(≈ \d+\u00a0% sur la carte, ± \d+ points, sur [\d\s\u202f\u00a0]+ vérifiés?|\d+ sur [\d\s\u202f\u00a0]+ sur la carte \(\d+\u00a0%\))$/,
    website: /avec un site web/,
    export: 'Exporter ces entreprises',
    name: "Nom de l'export",
    maxLeads: 'Nombre maximal de prospects',
    start: "Lancer l'export",
    notFound: 'Non trouvée en ligne',
  },
} as const

const hasJs = (projectName: string) => projectName !== 'chromium-nojs'

/** With JavaScript the pickers become the search page's comboboxes on the form's first touch (page weight). */
async function enhance(page: Page) {
  await expect(async () => {
    await page.locator('form[data-pickers]').dispatchEvent('pointerdown')
    await expect(page.locator('form[data-pickers="enhanced"]')).toBeVisible({ timeout: 1_000 })
  }).toPass()
}

/** Types into a combobox and picks one of the options it lists. */
async function pick(page: Page, label: string, typed: string, option: string | RegExp) {
  const input = page.getByRole('combobox', { name: label, exact: true })
  await input.click()
  await input.fill(typed)
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click()
}

const PLACE = { region: 'Auvergne-Rhône-Alpes', department: 'Rhône' }

async function searchBakeries(page: Page, language: 'en' | 'fr', js: boolean, { department }: { department: boolean }) {
  const text = TEXT[language]
  const category = language === 'fr' ? 'Boulangerie' : 'Bakery'
  if (js) {
    await enhance(page)
    await pick(page, text.category, category, category)
    if (department) {
      await pick(page, text.region, 'rhone alpes', PLACE.region)
      await pick(page, text.department, 'rhone', PLACE.department)
    }
  } else {
    await page.getByLabel(text.category, { exact: true }).fill(category)
    if (department) {
      await page.getByLabel(text.region, { exact: true }).selectOption({ label: PLACE.region })
      await page.getByLabel(text.department, { exact: true }).selectOption({ label: PLACE.department })
    }
  }
  await page.getByLabel(text.band, { exact: true }).check()
  await page.getByRole('button', { name: text.search, exact: true }).click()
}

for (const language of ['en', 'fr'] as const) {
  test.describe(`companies in ${language}`, () => {
    test.use({ locale: language === 'fr' ? 'fr-FR' : 'en-US' })

    test(`bakeries of a department with a headcount band: count, 20 establishments and map coverage (${language})`, async ({ page, baseURL }, testInfo) => {
      const text = TEXT[language]
      const js = hasJs(testInfo.project.name)
      const width = language === 'fr' ? 375 : 1440
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 })
      await signUpViaRequest(page, baseURL, { email: uniqueEmail(`companies-${language}`, testInfo) })
      await page.goto('/companies')
      await expect(page.getByRole('heading', { name: text.nav, level: 1 })).toBeVisible()
      await expectNoA11yViolations(page)

      // A free trial needs a department: refused with the plan's message, what was chosen kept.
      await searchBakeries(page, language, js, { department: false })
      await expect(page.locator('#companies-error')).toContainText(text.plan)
      await expect(page.getByLabel(text.band, { exact: true })).toBeChecked()
      await expect(page.getByLabel(/10\.71C/)).toBeChecked()
      await expect(page.getByLabel(text.category, { exact: true })).toHaveValue(language === 'fr' ? 'Boulangerie' : 'Bakery')

      if (js) {
        await enhance(page)
        await pick(page, text.region, 'auvergne', PLACE.region)
        await pick(page, text.department, 'rhone', PLACE.department)
      } else {
        await page.getByLabel(text.region, { exact: true }).selectOption({ label: PLACE.region })
        await page.getByLabel(text.department, { exact: true }).selectOption({ label: PLACE.department })
      }
      await page.getByRole('button', { name: text.search, exact: true }).click()
      // The first search of a cold server builds the demo registry's set and reads the demo map: slow on a busy machine.
      await expect(page.getByTestId('companies-total')).toHaveText(text.total, { timeout: 40_000 })
      expect(new URL(page.url()).searchParams.getAll('headcount')).toEqual(['02'])
      const rows = width === 1440 ? page.getByTestId('companies-table').locator('tbody tr') : page.getByTestId('companies-cards').locator(':scope > li')
      await expect(rows).toHaveCount(20)
      await expect(rows.first()).toContainText('10.71C')
      await expect(rows.first()).toContainText(text.band)
      await expect(page.locator('#companies-demo-notice')).toBeVisible()
      const panel = page.getByTestId('coverage-panel')
      await expect(panel.getByTestId('coverage-onMap')).toHaveText(text.onMap)
      await expect(panel.getByTestId('coverage-withWebsite')).toHaveText(text.website)
      await expectNoA11yViolations(page)
      await page.screenshot({ path: testInfo.outputPath(`companies-${language}-${width}.png`), fullPage: true })
      await page.locator('form[action="/companies"]').screenshot({ path: testInfo.outputPath(`companies-${language}-${width}-form.png`) })
      await panel.screenshot({ path: testInfo.outputPath(`companies-${language}-${width}-coverage.png`) })
      await rows.nth(1).screenshot({ path: testInfo.outputPath(`companies-${language}-${width}-row.png`) })

      // The search is its URL: opened again, it shows the same count.
      const total = await page.getByTestId('companies-total').textContent()
      await page.goto(page.url())
      await expect(page.getByTestId('companies-total')).toHaveText(total ?? '')
    })
  })
}

for (const language of ['en', 'fr'] as const) {
  test.describe(`companies export in ${language}`, () => {
    test.use({ locale: language === 'fr' ? 'fr-FR' : 'en-US' })
    test.describe.configure({ timeout: 180_000 })

    test(`"Export these companies": a refusal keeps what was typed, then the export completes with leads not found online (${language})`, async ({ page, baseURL }, testInfo) => {
      const text = TEXT[language]
      const width = language === 'fr' ? 375 : 1440
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 })
      await signUpViaRequest(page, baseURL, { email: uniqueEmail(`companies-export-${language}`, testInfo) })
      await page.goto('/companies')
      await searchBakeries(page, language, hasJs(testInfo.project.name), { department: true })
      await expect(page.getByTestId('companies-total')).toHaveText(text.total, { timeout: 40_000 })
      await page.getByRole('link', { name: text.export }).click()
      const dialog = page.getByRole('dialog', { name: text.export })
      await expect(dialog).toBeVisible()
      // The registry data is free and always included: locked on, out of the estimate.
      await expect(dialog.getByTestId('registry-free')).toBeVisible()
      await expectNoA11yViolations(page)
      await page.screenshot({ path: testInfo.outputPath(`companies-export-${language}-${width}.png`) })
      await dialog.getByTestId('export-cost').scrollIntoViewIfNeeded()
      await page.screenshot({ path: testInfo.outputPath(`companies-export-${language}-${width}-cost.png`) })

      // A name left empty is refused (in the browser with JS, a 400 without), the max leads typed kept.
      await dialog.getByLabel(text.name).fill('')
      await dialog.getByLabel(text.maxLeads).fill('12')
      await dialog.getByRole('button', { name: text.start }).click()
      await expect(dialog.getByLabel(text.name)).toHaveAttribute('aria-invalid', 'true')
      await expect(dialog.getByLabel(text.maxLeads)).toHaveValue('12')
      await expect(dialog.getByTestId('cost-leads')).toHaveText('12')

      await dialog.getByLabel(text.name).fill(`Boulangeries 69 ${language}`)
      await dialog.getByRole('button', { name: text.start }).click()
      await page.waitForURL(/\/exports\/[0-9a-f-]{36}\?started=1$/)
      await expect(async () => {
        await page.reload()
        await expect(page.locator('[data-status]').first()).toHaveAttribute('data-status', /^(completed|interrupted)$/, { timeout: 1000 })
      }).toPass({ timeout: 120_000, intervals: [1000, 2000] })
      await expect(page.getByTestId('not-found-online').filter({ visible: true }).first()).toHaveText(text.notFound)
      await expectNoA11yViolations(page)
    })
  })
}

test('a region, a department and a commune or postcode with the pickers, several activities picked by label', async ({ page, baseURL }, testInfo) => {
  const text = TEXT.en
  const js = hasJs(testInfo.project.name)
  await signUpViaRequest(page, baseURL, { email: uniqueEmail('companies-pickers', testInfo) })
  await page.goto('/companies')
  const search = async (city: string) => {
    const before = page.url()
    await page.getByRole('button', { name: text.search, exact: true }).click()
    // The previous search's count stays on the page until the new answer: wait for the new URL first.
    await page.waitForURL((url) => url.href !== before)
    await expect(page.getByTestId('companies-total')).toHaveText(text.total, { timeout: 40_000 })
    const params = new URL(page.url()).searchParams
    expect([params.get('region'), params.get('department'), params.get('city')]).toEqual([PLACE.region, PLACE.department, city])
    return params
  }
  if (js) {
    await enhance(page)
    // Each activity picked joins the chosen ones; the field is empty again for the next.
    await pick(page, text.naf, 'boulangerie et', /^10\.71C — /)
    await pick(page, text.naf, 'patisserie', /^10\.71D — /)
    await expect(page.getByRole('combobox', { name: text.naf, exact: true })).toHaveValue('')
    await expect(page.getByLabel(/10\.71C/)).toBeChecked()
    await expect(page.getByLabel(/10\.71D/)).toBeChecked()
    // A level waits for the one above it, as on the search page.
    await expect(page.getByRole('combobox', { name: text.department, exact: true })).toBeDisabled()
    await pick(page, text.region, 'auvergne', PLACE.region)
    await pick(page, text.department, 'rhone', PLACE.department)
    await pick(page, text.city, 'lyon', 'Lyon')
    await expectNoA11yViolations(page)
    await page.locator('form[action="/companies"]').screenshot({ path: testInfo.outputPath('companies-pickers-en-1440-form.png') })
    expect((await search('Lyon')).getAll('naf')).toEqual(['10.71C', '10.71D'])
    // A postcode is typed as is.
    await enhance(page)
    await pick(page, text.city, '69003', 'Use "69003"')
  } else {
    // Without JavaScript one activity per search joins the ticked ones; the region's departments are listed.
    await page.getByLabel(text.naf, { exact: true }).fill('Boulangerie et boulangerie-pâtisserie')
    await page.getByLabel(text.region, { exact: true }).selectOption({ label: PLACE.region })
    await page.getByLabel(text.department, { exact: true }).selectOption({ label: PLACE.department })
    await page.getByLabel(text.city, { exact: true }).fill('Lyon')
    await search('Lyon')
    await expect(page.getByLabel(/10\.71C/)).toBeChecked()
    await page.getByLabel(text.naf, { exact: true }).fill('10.71D')
    expect((await search('Lyon')).getAll('naf')).toEqual(['10.71C'])
    await expect(page.getByLabel(/10\.71C/)).toBeChecked()
    await expect(page.getByLabel(/10\.71D/)).toBeChecked()
    await expect(page.getByLabel(text.department, { exact: true }).locator('option', { hasText: 'Isère' })).toHaveCount(1)
    await expect(page.getByLabel(text.department, { exact: true }).locator('option', { hasText: 'Gironde' })).toHaveCount(0)
    await page.getByLabel(text.city, { exact: true }).fill('69003')
  }
  await search('69003')
  await expect(page.getByLabel(/10\.71C/)).toBeChecked()
  await expect(page.getByLabel(/10\.71D/)).toBeChecked()
})

test('a bad filter in the URL is a localized 400 that keeps the valid filters', async ({ page, baseURL }, testInfo) => {
  await signUpViaRequest(page, baseURL, { email: uniqueEmail('companies-bad', testInfo) })
  const response = await page.goto('/companies?run=1&active=1&naf=10.71C&headcount=99&department=69')
  expect(response?.status()).toBe(400)
  await expect(page.locator('#companies-error')).toContainText('Some filters are invalid')
  await expect(page.getByLabel(/10\.71C/)).toBeChecked()
  const unknown = await page.goto('/companies?run=1&active=1&nafAdd=not%20an%20activity&department=69')
  expect(unknown?.status()).toBe(400)
  await expect(page.getByText('Unknown activity code. Please pick an activity from the list.')).toBeVisible()
  await expect(page.getByLabel('Activity code (NAF)')).toHaveValue('not an activity')
})

test('a tampered export command is a localized 400 with the modal as it was left, never a 500', async ({ page, baseURL }, testInfo) => {
  await signUpViaRequest(page, baseURL, { email: uniqueEmail('companies-tampered', testInfo) })
  const url = '/companies?run=1&active=1&naf=10.71C&headcount=02&department=69&export=1'
  const form = { intent: 'create-registry-export', name: 'Kept name', maxLeads: '7', filters: '{"place":{"kind":"moon"}}' }
  const response = await page.request.post(url, { form })
  expect(response.status()).toBe(400)
  const html = await response.text()
  expect(html).toContain('Some filters are invalid')
  expect(html).toContain('value="Kept name"')
  expect((await page.request.post(url, { form: { intent: 'something-else' } })).status()).toBe(400)
})

