import { expect, test, type Page } from '@playwright/test'
import ExcelJS from 'exceljs'
import { routeRegistryRequest } from '#server/demo/registry.ts'
import { resolveCriteria, searchParamsOf } from '#app/.server/search/resolve-criteria.ts'
import { resolveCategory } from '#app/.server/search/preview.ts'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import { expectNoA11yViolations } from './support/a11y.ts'
import { signUpViaRequest } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

// "Enrich your own list" (issue 31), with and without JavaScript: a member uploads a trade-show CSV (semicolons,
// Windows-1252), checks the guessed columns and the rows that cannot be matched, sees the match before launching,
// launches, and downloads their own columns back with the match and what was found. A binary file and a file of
// 50 001 rows are refused with their reason. The app runs on the demo sources (map, registry, websites).

/** Three Brest bakeries of the demo map whose names the demo registry knows, and a name nothing knows. */
async function tradeShow(): Promise<{ names: string[]; unknown: string }> {
  const criteria = resolveCriteria({ sector: 'bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Brest' })
  if (!criteria.ok) throw new Error('Brest does not resolve')
  const registryKnows = (name: string) => (routeRegistryRequest('GET', `/search?q=${encodeURIComponent(name)}&code_postal=29200`).body as { results: unknown[] }).results.length > 0
  const names: string[] = []
  for await (const business of createDemoSource({}).search(searchParamsOf(criteria.criteria, 'fr'), resolveCategory('bakery', 'fr'), { limit: 30 })) {
    if (business.postalCode === '29200' && registryKnows(business.name)) names.push(business.name)
    if (names.length === 3) break
  }
  let n = 1
  while (registryKnows(`Zéphyr Quantique ${n}`)) n++
  return { names, unknown: `Zéphyr Quantique ${n}` }
}

function windows1252(text: string): Buffer {
  return Buffer.from([...text].map((ch) => (ch === '—' ? 0x97 : ch.charCodeAt(0) <= 0xff ? ch.charCodeAt(0) : 0x3f)))
}

/** 3 names with their postcode, a SIRET, a name no one knows, a repeat and a row with nothing to match by. */
async function tradeShowCsv(): Promise<Buffer> {
  const { names, unknown } = await tradeShow()
  const rows = [
    ['Raison sociale', 'SIRET', 'Code postal', 'Ville', 'Commentaire'],
    ...names.map((name, i) => [name, '', '29200', 'Brest', `Stand ${i + 1} — café offert`]),
    ['', '732 829 320 00009', '', '', 'vu au salon'],
    [unknown, '', '29200', 'Brest', 'inconnue'],
    [names[0]!, '', '29200', 'Brest', 'noté deux fois'],
    ['Boulangerie sans lieu', '', '', '', '=1+1'],
  ]
  return windows1252(rows.map((row) => row.join(';')).join('\r\n'))
}

async function waitForStatus(page: Page) {
  await expect(async () => {
    await page.reload()
    await expect(page.locator('[data-status]').first()).toHaveAttribute('data-status', 'completed', { timeout: 1000 })
  }).toPass({ timeout: 90_000, intervals: [1000, 2000] })
}

test.describe('enrich a list', () => {
  test.describe.configure({ timeout: 180_000 })

  test('upload a trade-show file, map it, see the match, launch, download it back with its own columns first', async ({ page, baseURL }, testInfo) => {
    const email = uniqueEmail('lists', testInfo)
    await signUpViaRequest(page, baseURL, { email })
    await page.goto('/')
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Enrich a list' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Enrich your own list' })).toBeVisible()
    await expect(page.getByText(/up to 50,000 rows and 30 MB/)).toBeVisible()
    await expectNoA11yViolations(page)

    // A binary file is refused whole, with its reason.
    await page.getByLabel('Your file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]) })
    await page.getByRole('button', { name: 'Upload and map the columns' }).click()
    await expect(page.getByTestId('list-upload-error')).toContainText('This file is an image, not a CSV or .xlsx file.')

    await page.getByLabel('Your file').setInputFiles({ name: 'salon-2026.csv', mimeType: 'text/csv', buffer: await tradeShowCsv() })
    await page.getByRole('button', { name: 'Upload and map the columns' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Map the columns of salon-2026.csv' })).toBeVisible()
    // The headers' guesses, and the whole file's counts.
    await expect(page.getByLabel('Raison sociale')).toHaveValue('name')
    await expect(page.getByLabel('SIRET')).toHaveValue('siret')
    await expect(page.getByLabel('Code postal')).toHaveValue('postal_code')
    await expect(page.getByLabel('Commentaire')).toHaveValue('ignore')
    await expect(page.getByTestId('list-counts')).toContainText('5 rows to match')
    await expect(page.getByTestId('list-counts')).toContainText('1 row with nothing to match by')
    await expect(page.getByTestId('list-counts')).toContainText('1 repeated row left out')
    await expect(page.getByTestId('list-preview')).toContainText('Repeats an earlier row: left out')
    await expect(page.getByTestId('list-problems')).toContainText('Line 8 — A name without postal code or city')
    await expect(page.getByTestId('list-preview')).toContainText('73282932000009')
    await expectNoA11yViolations(page)

    // A wrong mapping is refused with its reason, the choices kept.
    await page.getByLabel('Code postal').selectOption('name')
    await page.getByRole('button', { name: 'Continue to the match' }).click()
    await expect(page.getByTestId('list-mapping-error')).toHaveText('Two columns cannot hold the same thing: choose “Ignore” for one of them.')
    await expect(page.getByLabel('Code postal')).toHaveValue('name')
    await page.getByLabel('Code postal').selectOption('postal_code')
    await page.getByRole('button', { name: 'Continue to the match' }).click()

    await expect(page.getByRole('heading', { level: 1, name: 'Ready to enrich salon-2026.csv' })).toBeVisible()
    await expect(page.getByTestId('list-stat-matched')).toHaveText('4 (80%)')
    await expect(page.getByTestId('list-stat-new')).toHaveText('4')
    await expect(page.getByTestId('list-estimate-basis')).toContainText('All 5 rows were matched')
    await expectNoA11yViolations(page)

    await page.getByRole('link', { name: 'Choose enrichments and launch' }).click()
    await expect(page.getByRole('dialog', { name: 'Enrich this list' })).toBeVisible()
    await expect(page.getByLabel('Export name')).toHaveValue('salon-2026')
    await expect(page.getByTestId('cost-leads')).toHaveText('4')
    await expectNoA11yViolations(page)
    await page.getByRole('button', { name: 'Start export' }).click()
    await page.waitForURL(/\/exports\/[0-9a-f-]{36}/)
    await waitForStatus(page)
    const exportId = new URL(page.url()).pathname.split('/').pop()!
    await expect(page.getByTestId('export-source')).toHaveText('salon-2026.csv · 4 of 5 rows matched')

    // The file: the user's columns first, as uploaded, then what was found, then the match.
    const csv = await (await page.request.get(`/api/exports/${exportId}/download?format=csv&separator=comma`)).text()
    const [header, ...rows] = csv.replace(/^\uFEFF/, '').trim().split(/\r?\n/)
    expect(header!.startsWith('Raison sociale,SIRET,Code postal,Ville,Commentaire,')).toBe(true)
    expect(header!.endsWith('Match,Match confidence')).toBe(true)
    expect(rows).toHaveLength(5)
    expect(csv).toContain('Stand 1 — café offert')
    // The match and its confidence close each row: the unknown name is "Not found" (no confidence), the SIRET certain.
    expect(rows.filter((row) => row.endsWith(',Not found,'))).toHaveLength(1)
    expect(rows.filter((row) => row.endsWith(',Found by SIRET,100'))).toHaveLength(1)
    expect(rows.filter((row) => /,Found by name and place,\d+$/.test(row))).toHaveLength(3)
    // The bakeries are found on the map too: their phones come back (the demo map knows every one).
    expect(rows.filter((row) => row.includes(',+33'))).not.toHaveLength(0)

    // The list is its export now: its pages lead there.
    await page.goto('/lists/new')
    await expect(page.getByTestId('recent-lists')).toContainText('Launched')
  })

  test('an Excel file from a trade show: two columns guessed, matched, ready to launch', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('lists-xlsx', testInfo) })
    const { names } = await tradeShow()
    const book = new ExcelJS.Workbook()
    const sheet = book.addWorksheet('Visiteurs')
    sheet.addRow(['Société', 'CP', 'Prénom du visiteur'])
    for (const name of names) sheet.addRow([name, 29200, 'Camille'])
    await page.goto('/lists/new')
    await page.getByLabel('Your file').setInputFiles({ name: 'visiteurs.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: Buffer.from(await book.xlsx.writeBuffer()) })
    await page.getByRole('button', { name: 'Upload and map the columns' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Map the columns of visiteurs.xlsx' })).toBeVisible()
    await expect(page.getByLabel('Société')).toHaveValue('name')
    await expect(page.getByLabel('CP')).toHaveValue('postal_code')
    await expect(page.getByLabel('Prénom du visiteur')).toHaveValue('ignore')
    await page.getByRole('button', { name: 'Continue to the match' }).click()
    await expect(page.getByTestId('list-stat-matched')).toHaveText('3 (100%)')
    await expect(page.getByRole('link', { name: 'Choose enrichments and launch' })).toBeVisible()
  })

  test('a file of 50 001 rows is refused whole, in French', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('lists-big', testInfo) })
    await page.goto('/lists/new')
    await page.getByRole('button', { name: 'Français' }).click()
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
    const lines = ['Site web', ...Array.from({ length: 50_001 }, (_, i) => `entreprise-${i}.fr`)]
    await page.getByLabel('Votre fichier').setInputFiles({ name: 'gros.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) })
    await page.getByRole('button', { name: 'Importer et choisir les colonnes' }).click()
    await expect(page.getByTestId('list-upload-error')).toHaveText(/Ce fichier compte 50\s001 lignes\s: une liste en contient 50\s000 au plus\./)
    await expect(page.getByTestId('recent-lists')).toHaveCount(0)
  })

  /** Not a test: the three steps in both languages at both widths, for a human look (`SCREENSHOTS=1`). */
  test('capture the list pages', async ({ page, baseURL }, testInfo) => {
    test.skip(!process.env.SCREENSHOTS, 'set SCREENSHOTS=1 to capture the screens')
    const dir = `scratch/lists/${testInfo.project.name.replace(/^chromium-/, '')}`
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('lists-shots', testInfo) })
    await page.goto('/lists/new')
    await page.getByLabel('Your file').setInputFiles({ name: 'salon-2026.csv', mimeType: 'text/csv', buffer: await tradeShowCsv() })
    await page.getByRole('button', { name: 'Upload and map the columns' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toContainText('salon-2026.csv')
    const mapping = page.url()
    await page.getByRole('button', { name: 'Continue to the match' }).click()
    await expect(page.getByTestId('list-estimate')).toBeVisible()
    const confirm = page.url()
    for (const language of ['en', 'fr']) {
      if (language === 'fr') {
        await page.goto('/lists/new')
        await page.getByRole('button', { name: 'Français' }).click()
        await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
      }
      for (const [width, height] of [[1440, 900], [375, 812]] as const) {
        await page.setViewportSize({ width, height })
        for (const [name, url] of [['upload', '/lists/new'], ['mapping', mapping], ['confirm', confirm], ['launch', `${confirm}?launch=1`]] as const) {
          await page.goto(url)
          // The modal fades in: its screen once it has.
          if (name === 'launch') await page.getByRole('dialog').evaluate((dialog) => Promise.all(dialog.getAnimations().map((animation) => animation.finished)))
          await page.screenshot({ path: `${dir}/${name}-${language}-${width}.png`, fullPage: name !== 'launch' })
        }
      }
    }
  })
})
