import fs from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { sql } from './support/db.ts'
import { signUpViaRequest } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

// A village-sized demo search: few leads, so three email-only exports fit in the free-trial credits.
const SEARCH = `/?sector=shop-bakery&country=France&region=${encodeURIComponent('Bretagne')}&department=${encodeURIComponent('Finistère')}&city=${encodeURIComponent('Plouguerneau')}&run=1`
const DNC = '/settings/do-not-contact'

async function waitForStatus(page: Page) {
  await expect(async () => {
    await page.reload()
    await expect(page.locator('[data-status]').first()).toHaveAttribute('data-status', /^(completed|interrupted)$/, { timeout: 1000 })
  }).toPass({ timeout: 90_000, intervals: [1000, 2000] })
}

/** Starts an email-only export from the search page and opens its detail once it has run. */
async function runExport(page: Page, name: string, { onlyNew = false } = {}) {
  await page.goto(SEARCH)
  await expect(page.locator('table tbody tr').first()).toBeVisible()
  await page.getByRole('link', { name: 'Enrich and export' }).click()
  const dialog = page.getByRole('dialog', { name: 'Enrich and export' })
  await dialog.getByLabel('Export name').fill(name)
  for (const label of ['Website', 'Social media', 'Phone']) await dialog.getByLabel(label, { exact: true }).uncheck()
  await dialog.getByLabel(/Company registry/).uncheck()
  if (onlyNew) await dialog.getByLabel('Only new businesses').check()
  await dialog.getByRole('button', { name: 'Start export' }).click()
  // Started, the export's own page opens (issue "Polish round 3", item 4).
  await page.waitForURL(/\/exports\/[0-9a-f-]{36}\?started=1$/)
  await waitForStatus(page)
}

/** The day as the list writes it ("Added Nov 26, 2026"): server and browser share this machine's clock. */
const today = () => new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date())

const leadNames = (page: Page) => page.getByTestId('lead-row').locator('th').evaluateAll((cells) => cells.map((cell) => cell.firstChild?.textContent ?? ''))
const shownEmails = (page: Page) => page.locator('td[data-column=email] a[href^="mailto:"]').allTextContents()

test.describe('do-not-contact list and only new businesses', () => {
  test.describe.configure({ timeout: 300_000 })

  test('managed in Settings: add one, paste many, import a CSV, remove, download; bad input comes back named', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('dnc', testInfo) })
    await page.goto('/settings')
    await page.getByRole('link', { name: /Do-not-contact list/ }).click()
    await expect(page.getByRole('heading', { name: 'Do-not-contact list', level: 1 })).toBeVisible()
    await expect(page.getByTestId('dnc-count')).toHaveText('0 entries')

    await page.getByLabel('Add one entry').fill('not an entry')
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await expect(page.getByText('This is not an email, domain, phone number, SIREN or SIRET.')).toBeVisible()
    await expect(page.getByLabel('Add one entry')).toHaveValue('not an entry')
    await page.getByLabel('Add one entry').fill('Contact@Boulangerie-Martin.FR')
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await expect(page.getByTestId('dnc-notice')).toHaveText('1 entry added.')

    const pasted = 'exemple.fr\n04 78 12 34 56\nhello world\n552 100 554'
    await page.getByLabel('Paste many').fill(pasted)
    await page.getByRole('button', { name: 'Add all' }).click()
    await expect(page.getByTestId('dnc-rejected')).toHaveText('hello world')
    await expect(page.getByLabel('Paste many')).toHaveValue(pasted)
    await expect(page.getByTestId('dnc-count')).toHaveText('1 entry')
    await page.getByLabel('Paste many').fill(pasted.replace('hello world\n', ''))
    await page.getByRole('button', { name: 'Add all' }).click()
    await expect(page.getByTestId('dnc-notice')).toHaveText('3 entries added.')

    await page.getByLabel('Import a CSV file').setInputFiles({ name: 'optouts.csv', mimeType: 'text/csv', buffer: Buffer.from('email;phone\njean@autre.fr;+33 1 23 45 67 89\n') })
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    await expect(page.getByTestId('dnc-report-added')).toHaveText('2')
    await expect(page.getByTestId('dnc-count')).toHaveText('6 entries')
    await page.getByLabel('Import a CSV file').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x01]) })
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    await expect(page.getByText('This file is not a readable CSV or text file.')).toBeVisible()
    await expectNoA11yViolations(page)

    await page.goto(DNC)
    await page.getByRole('button', { name: 'Remove exemple.fr' }).click()
    await expect(page.getByTestId('dnc-notice')).toHaveText('Entry removed.')
    await expect(page.getByTestId('dnc-count')).toHaveText('5 entries')
    await expect(page.getByRole('button', { name: 'Remove exemple.fr' })).toHaveCount(0)

    const csv = await page.request.get(`${DNC}/download`)
    expect(csv.status()).toBe(200)
    const text = (await csv.text()).replace(/^\uFEFF/, '')
    const day = new Date().toISOString().slice(0, 10)
    expect(text.split('\n').filter(Boolean).sort()).toEqual(
      ['kind,value,name,city,added', ...['email,contact@boulangerie-martin.fr', 'email,jean@autre.fr', 'phone,+33478123456', 'phone,+33123456789', 'siren,552100554'].map((row) => `${row},,,${day}`)].sort(),
    )
  })

  test('imports ordinary files: a French Excel `email;société` sheet and a HubSpot export, with counts and each rejected line', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('dnc-import', testInfo) })
    await page.goto(DNC)
    const report = page.getByTestId('dnc-import-report')
    const counts = async () => Object.fromEntries(await Promise.all(['added', 'alreadyListed', 'duplicates', 'rejected'].map(async (count) => [count, await report.getByTestId(`dnc-report-${count}`).textContent()])))

    await page.getByLabel('Import a CSV file').setInputFiles({ name: 'optouts.csv', mimeType: 'text/csv', buffer: fs.readFileSync('tests/fixtures/dnc/excel-fr-semicolon.csv') })
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    await expect(page.getByText('Import done')).toBeVisible()
    await expect(report.getByTestId('dnc-report-columns')).toHaveText('Columns read: email')
    expect(await counts()).toEqual({ added: '3', alreadyListed: '0', duplicates: '1', rejected: '2' })
    await expect(report.locator('[data-line="5"]')).toHaveText('Line 5 (email): “jean.dupont@” is not an email address.')
    await expect(report.locator('[data-line="4"]')).toHaveText('Line 4: nothing in the columns read.')
    await expect(page.getByTestId('dnc-count')).toHaveText('3 entries')
    await expectNoA11yViolations(page)

    await page.getByLabel('Import a CSV file').setInputFiles({ name: 'hubspot-crm-exports-all-contacts.csv', mimeType: 'text/csv', buffer: fs.readFileSync('tests/fixtures/dnc/hubspot-contacts.csv') })
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    await expect(report.getByTestId('dnc-report-columns')).toHaveText('Columns read: Email, Phone Number, Website URL')
    expect(await counts()).toEqual({ added: '8', alreadyListed: '1', duplicates: '2', rejected: '2' })
    await expect(report.locator('[data-line="5"]')).toHaveText('Line 5 (Email): “anne.kerbrat@” is not an email address. The rest of the line was read.')
    await expect(report.locator('[data-line="10"]')).toHaveText('Line 10 (Email): “n/a” is not an email address.')
    await expect(page.getByTestId('dnc-count')).toHaveText('11 entries')

    // A file with nothing to read adds nothing and says why, line by line.
    await page.getByLabel('Import a CSV file').setInputFiles({ name: 'names.csv', mimeType: 'text/csv', buffer: Buffer.from('Nom;Ville\nMartin;Brest\n') })
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    await expect(page.getByText('Nothing in this file could be read: nothing was added.')).toBeVisible()
    await expect(page.locator('#dnc-import-error [data-line="2"]')).toHaveText('Line 2 (Nom): “Martin” is not an email, domain, phone number, SIREN or SIRET.')
    await expect(page.getByTestId('dnc-count')).toHaveText('11 entries')
  })

  test('a new user: only new businesses leaves out the first export; a listed domain and a "never export" business stay out', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('onlynew', testInfo) })
    await runExport(page, 'First bakeries')
    const first = await leadNames(page)
    expect(first.length).toBeGreaterThan(1)
    const firstCount = (await page.getByTestId('lead-count').textContent())!.trim()
    // One lead with an email gives the domain to list; another is the business never to export again.
    const rows = page.getByTestId('lead-row')
    const withEmail = await rows.evaluateAll((all) => all.findIndex((row) => row.querySelector('td[data-column=email] a[href^="mailto:"]')))
    expect(withEmail).toBeGreaterThanOrEqual(0)
    const email = await rows.nth(withEmail).locator('td[data-column=email] a').first().textContent()
    const domain = email!.split('@')[1]!
    const bannedIndex = withEmail === 0 ? 1 : 0
    const banned = first[bannedIndex]!

    // "Never export this business": one icon button at the end of the row, named after the business (a <details>: JS on and off).
    const action = rows.nth(bannedIndex).getByTestId('never-export')
    await expect(rows.nth(bannedIndex).locator('th').getByText('Never export this business')).toHaveCount(0)
    await action.getByLabel(`Never export ${banned}`).click()
    await expect(action.getByText('Never export this business')).toBeVisible()
    await expect(action.getByText(`${banned} will be added to your do-not-contact list`)).toBeVisible()
    await action.getByRole('button', { name: 'Add to do-not-contact list' }).click()
    await expect(page.getByTestId('never-export-notice')).toBeVisible()
    await expectNoA11yViolations(page)

    // An unusable DNS during the run (exports.email_verification_unavailable, set by the run): the page says so.
    const exportId = new URL(page.url()).pathname.split('/').at(-1)
    await sql('update public.exports set email_verification_unavailable = true where id = $1', [exportId])
    await page.reload()
    await expect(page.getByTestId('email-verification-unavailable')).toContainText('They are delivered as "unverified"')
    await expect(page.getByText('Email verification was unavailable')).toBeVisible()

    // The list names the business (its name, its city, the day it was added), not its raw id.
    await page.goto(DNC)
    const bannedEntry = page.getByTestId('dnc-entry').filter({ hasText: banned })
    await expect(bannedEntry.getByTestId('dnc-entry-label')).toHaveText(banned)
    await expect(bannedEntry.getByTestId('dnc-entry-details')).toHaveText(`Plouguerneau · Added ${today()}`)
    await expect(page.getByTestId('dnc-entry').filter({ hasText: /demo:/ })).toHaveCount(0)
    await expect(bannedEntry.getByRole('button', { name: `Remove ${banned}` })).toBeVisible()
    const csv = await (await page.request.get(`${DNC}/download`)).text()
    const businessRow = csv.split(/\r?\n/).find((line) => line.startsWith('business,demo:'))
    expect(businessRow).toContain(banned)
    expect(businessRow).toMatch(new RegExp(`,Plouguerneau,${new Date().toISOString().slice(0, 10)}$`))

    await page.getByLabel('Add one entry').fill(domain)
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await expect(page.getByTestId('dnc-count')).toHaveText('2 entries')
    await expect(page.getByTestId('dnc-entry').filter({ hasText: domain })).toBeVisible()

    await runExport(page, 'Only new bakeries', { onlyNew: true })
    await expect(page.getByTestId('only-new')).toHaveText(/Only new businesses/)
    expect((await leadNames(page)).filter((name) => first.includes(name))).toEqual([])
    await expect(page.getByTestId('exclusions').locator('[data-reason=already_exported]')).toHaveText(`${firstCount} businesses already in your earlier exports`)

    await runExport(page, 'Everything again')
    const again = await leadNames(page)
    expect(again).not.toContain(banned)
    expect(again.filter((name) => first.includes(name)).length).toBeGreaterThan(0)
    expect((await shownEmails(page)).filter((email) => email.endsWith(`@${domain}`))).toEqual([])
    await expect(page.getByTestId('exclusions').locator('[data-reason=dnc_business]')).toHaveText('1 business on your do-not-contact list')
    await expect(page.getByTestId('exclusions').locator('[data-reason=dnc_email]')).toBeVisible()
  })
})
