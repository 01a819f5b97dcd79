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
    department: 'Department',
    search: 'Search',
    band: '3 to 5 employees',
    plan: 'Your plan requires selecting a region',
    total: /^[\d,]+\+? establishments? in the registry$/,
    onMap: /^(≈ \d+ % on the map, ± \d+ points, from [\d,]+ checked|\d+ of [\d,]+ on the map \(\d+ %\))$/,
    website: /with a website/,
  },
  fr: {
    nav: 'Entreprises (France)',
    category: 'Catégorie',
    department: 'Département',
    search: 'Rechercher',
    band: '3 à 5 salariés',
    plan: 'Votre offre nécessite de sélectionner une région',
    total: /^[\d\s\u202f\u00a0]+\+? établissements? au répertoire$/,
    onMap: /^(≈ \d+\u00a0% sur la carte, ± \d+ points, sur [\d\s\u202f\u00a0]+ vérifiés?|\d+ sur [\d\s\u202f\u00a0]+ sur la carte \(\d+\u00a0%\))$/,
    website: /avec un site web/,
  },
} as const

async function searchBakeries(page: Page, language: 'en' | 'fr', { department }: { department: boolean }) {
  const text = TEXT[language]
  await page.getByLabel(text.category, { exact: true }).fill(language === 'fr' ? 'Boulangerie' : 'Bakery')
  await page.getByLabel(text.department, { exact: true }).selectOption(department ? { label: 'Rhône (69)' } : { index: 0 })
  await page.getByLabel(text.band, { exact: true }).check()
  await page.getByRole('button', { name: text.search, exact: true }).click()
}

for (const language of ['en', 'fr'] as const) {
  test.describe(`companies in ${language}`, () => {
    test.use({ locale: language === 'fr' ? 'fr-FR' : 'en-US' })

    test(`bakeries of a department with a headcount band: count, 20 establishments and map coverage (${language})`, async ({ page, baseURL }, testInfo) => {
      const text = TEXT[language]
      const width = language === 'fr' ? 375 : 1440
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 })
      await signUpViaRequest(page, baseURL, { email: uniqueEmail(`companies-${language}`, testInfo) })
      await page.goto('/companies')
      await expect(page.getByRole('heading', { name: text.nav, level: 1 })).toBeVisible()
      await expectNoA11yViolations(page)

      // A free trial needs a department: refused with the plan's message, what was chosen kept.
      await searchBakeries(page, language, { department: false })
      await expect(page.locator('#companies-error')).toContainText(text.plan)
      await expect(page.getByLabel(text.band, { exact: true })).toBeChecked()
      await expect(page.getByLabel(/10\.71C/)).toBeChecked()

      await page.getByLabel(text.department, { exact: true }).selectOption({ label: 'Rhône (69)' })
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
