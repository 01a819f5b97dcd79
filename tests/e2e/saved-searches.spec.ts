import { expect, test, type Page } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { signUpViaRequest } from './support/http.ts'
import { readLatestEmail } from './support/outbox.ts'
import { uniqueEmail } from './support/users.ts'

// A village-sized demo search: every business fits in one run, so a second run finds none.
const SEARCH = `/?sector=shop-bakery&country=France&region=${encodeURIComponent('Bretagne')}&department=${encodeURIComponent('Finistère')}&city=${encodeURIComponent('Plouguerneau')}&run=1`

async function waitForCompleted(page: Page) {
  await expect(async () => {
    await page.reload()
    await expect(page.locator('[data-status]').first()).toHaveAttribute('data-status', 'completed', { timeout: 1000 })
  }).toPass({ timeout: 90_000, intervals: [1000, 2000] })
}

async function noHorizontalOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0)
}

/** Saves the search shown, with phone only (fast on the demo data), under `name`. */
async function saveSearch(page: Page, name: string, labels: { save: string; dialog: string; name: string; submit: string; website: string; email: string; social: string; registry: RegExp }) {
  await page.goto(SEARCH)
  await page.getByRole('link', { name: labels.save }).click()
  const dialog = page.getByRole('dialog', { name: labels.dialog })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('textbox', { name: labels.name }).fill(name)
  for (const option of [labels.website, labels.email, labels.social]) await dialog.getByLabel(option, { exact: true }).uncheck()
  await dialog.getByLabel(labels.registry).uncheck()
  return dialog
}

const jsEnabled = () => test.info().project.use.javaScriptEnabled !== false

const EN = { save: 'Save this search', dialog: 'Save this search', name: 'Name', submit: 'Save search', website: 'Website', email: 'Email', social: 'Social media', registry: /Company registry/ }

test.describe('saved searches', () => {
  test.describe.configure({ timeout: 240_000 })
  test.use({ viewport: { width: 1440, height: 900 }, timezoneId: 'America/New_York' })

  test('save → list → run now twice (the second free and empty) → schedule → pause → delete', async ({ page, baseURL }, testInfo) => {
    const email = uniqueEmail('saved', testInfo)
    await signUpViaRequest(page, baseURL, { email })
    const dialog = await saveSearch(page, '', EN)
    await expectNoA11yViolations(page)
    // A refused post keeps the dialog and what was chosen.
    await dialog.getByRole('button', { name: 'Save search' }).click()
    await expect(page.getByRole('dialog', { name: 'Save this search' }).getByText('Give this search a name.')).toBeVisible()
    await expect(page.getByRole('dialog', { name: 'Save this search' }).getByLabel('Website', { exact: true })).not.toBeChecked()
    await page.screenshot({ path: testInfo.outputPath('save-dialog-en-1440.png'), fullPage: true })
    await page.getByRole('dialog', { name: 'Save this search' }).getByRole('textbox', { name: 'Name' }).fill('Bakeries Plouguerneau')
    await page.getByRole('dialog', { name: 'Save this search' }).getByRole('button', { name: 'Save search' }).click()

    await page.waitForURL(/\/saved-searches\?saved=/)
    await expect(page.getByText('Search saved.')).toBeVisible()
    const card = page.getByTestId('saved-search').filter({ hasText: 'Bakeries Plouguerneau' })
    await expect(card).toContainText('Plouguerneau · Finistère · Bretagne · France')
    await expect(card).toContainText('Bakery')
    await expect(card).toContainText('Never run')
    await expect(card).toContainText('No schedule')
    await expectNoA11yViolations(page)

    // First run: the export's page, then its new businesses on the list.
    await card.getByRole('button', { name: 'Run now' }).click()
    await page.waitForURL(/\/exports\/[0-9a-f-]{36}\?started=1$/)
    await waitForCompleted(page)
    await page.goto('/saved-searches')
    await expect(card.getByTestId('last-run')).toContainText(/\d+ new since the last run\s*· \d+ credits?/)
    await expect(card.getByTestId('last-run')).not.toContainText('0 new businesses')
    // The owner is told by email (the local mailbox here), with the count and a link to the run's export.
    const told = await readLatestEmail(email)
    expect(told.subject).toBe('“Bakeries Plouguerneau”: new businesses found')
    expect(told.text).toMatch(/Saved search “Bakeries Plouguerneau” found \d+ new business/)
    expect(told.link).toMatch(/\/exports\/[0-9a-f-]{36}$/)

    // Second run right after: nothing new, nothing charged.
    await card.getByRole('button', { name: 'Run now' }).click()
    await page.waitForURL(/\/exports\/[0-9a-f-]{36}\?started=1$/)
    await waitForCompleted(page)
    await page.goto('/saved-searches')
    await expect(card.getByTestId('last-run')).toContainText('0 new businesses — no credits used')
    await page.screenshot({ path: testInfo.outputPath('saved-searches-en-1440.png'), fullPage: true })

    // Schedule: weekly on Monday at 08:00, Paris time, with a credit budget.
    await card.getByRole('link', { name: 'Edit' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Edit “Bakeries Plouguerneau”' })).toBeVisible()
    // Saved with JavaScript, the search took the browser's time zone; without, the default.
    await expect(page.getByLabel('Time zone')).toHaveValue(jsEnabled() ? 'America/New_York' : 'Europe/Paris')
    await page.getByLabel('Every week').check()
    await page.getByLabel('Day of the week').selectOption({ label: 'Monday' })
    await page.getByLabel('Hour').selectOption('8')
    await page.getByLabel('Time zone').selectOption('Europe/Paris')
    // With JavaScript the date is shown before saving; without, the list shows it once saved.
    if (jsEnabled()) await expect(page.getByTestId('next-run-preview')).toContainText(/Next run: Monday, .* at 8:00/)
    await page.getByLabel('Credit budget per run').fill('0')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.getByText('Enter a whole number of credits, at least 1.')).toBeVisible()
    await expect(page.getByLabel('Every week')).toBeChecked()
    await expectNoA11yViolations(page)
    await page.getByLabel('Credit budget per run').fill('50')
    await page.screenshot({ path: testInfo.outputPath('saved-search-edit-en-1440.png'), fullPage: true })
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.waitForURL(/\/saved-searches\?updated=1$/)
    await expect(card).toContainText('Every Monday at 08:00 (Europe/Paris)')
    await expect(card).toContainText(/Next run\s*Monday, /)

    await card.getByRole('button', { name: 'Pause' }).click()
    await expect(page.getByText('Schedule paused')).toBeVisible()
    await expect(card).toContainText('Paused')
    await card.getByRole('button', { name: 'Resume' }).click()
    await expect(card).toContainText(/Next run\s*Monday, /)

    // The same list on a phone.
    await page.setViewportSize({ width: 375, height: 812 })
    await page.reload()
    await noHorizontalOverflow(page)
    await page.screenshot({ path: testInfo.outputPath('saved-searches-en-375.png'), fullPage: true })

    await card.getByRole('link', { name: 'Delete' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete this saved search?' })
    await expect(confirm).toBeVisible()
    await expectNoA11yViolations(page)
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByText('Saved search deleted.')).toBeVisible()
    await expect(page.getByText('No saved search yet')).toBeVisible()
  })
})

test.describe('saved searches in French at 375 px', () => {
  test.describe.configure({ timeout: 120_000 })
  // With JavaScript the saved search takes the browser's time zone.
  test.use({ locale: 'fr-FR', viewport: { width: 375, height: 812 }, timezoneId: 'Europe/Paris' })

  test('save, list, edit: nothing overflows', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('saved', testInfo) })
    const dialog = await saveSearch(page, 'Boulangeries Plouguerneau', {
      save: 'Enregistrer cette recherche',
      dialog: 'Enregistrer cette recherche',
      name: 'Nom',
      submit: 'Enregistrer la recherche',
      website: 'Site web',
      email: 'E-mail',
      social: 'Réseaux sociaux',
      registry: /registre/i,
    })
    await page.screenshot({ path: testInfo.outputPath('save-dialog-fr-375.png'), fullPage: true })
    await dialog.getByRole('button', { name: 'Enregistrer la recherche' }).click()
    await page.waitForURL(/\/saved-searches\?saved=/)
    const card = page.getByTestId('saved-search').filter({ hasText: 'Boulangeries Plouguerneau' })
    await expect(card).toContainText('Jamais exécutée')
    await expect(card).toContainText('Pas de planification')
    await noHorizontalOverflow(page)
    await expectNoA11yViolations(page)
    await card.getByRole('link', { name: 'Modifier' }).click()
    await page.getByLabel('Chaque mois').check()
    await page.getByLabel('Jour du mois').selectOption('31')
    // Two enrichments for a budget of 1 credit: not even one lead is affordable.
    await page.getByLabel('Site web', { exact: true }).check()
    await page.getByLabel('Budget de crédits par exécution').fill('1')
    await page.getByRole('button', { name: 'Enregistrer les modifications' }).click()
    await page.waitForURL(/\/saved-searches\?updated=1$/)
    await expect(card).toContainText('Chaque mois le 31 à 08:00 (Europe/Paris)')
    await expect(card).toContainText('Prochaine exécution')
    // Run now is refused, says why, and the refusal is the last run (also told in the notifications).
    await card.getByRole('button', { name: 'Exécuter maintenant' }).click()
    await expect(card.getByRole('alert')).toContainText('son budget de crédits ne paie pas un seul prospect')
    await page.goto('/saved-searches')
    await expect(card).toContainText(/Refusée le .*\s: son budget de crédits ne paie pas un seul prospect/)
    await noHorizontalOverflow(page)
    await page.screenshot({ path: testInfo.outputPath('saved-searches-fr-375.png'), fullPage: true })
    await card.getByRole('link', { name: 'Modifier' }).click()
    await noHorizontalOverflow(page)
    await page.screenshot({ path: testInfo.outputPath('saved-search-edit-fr-375.png'), fullPage: true })
    // And on a wide screen.
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.screenshot({ path: testInfo.outputPath('saved-search-edit-fr-1440.png'), fullPage: true })
    await page.goto('/saved-searches')
    await page.screenshot({ path: testInfo.outputPath('saved-searches-fr-1440.png'), fullPage: true })
  })
})
