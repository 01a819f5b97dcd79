// Issue 33 item 1: Escape closes every dialog and gives focus back to what opened it; an Enter right after Escape
// never submits the dialog's form (it did: the hidden export form stayed focused and an uncapped export started).
import { expect, test, type Locator, type Page } from '@playwright/test'
import { sql } from './support/db.ts'
import { signUpViaRequest } from './support/http.ts'
import { seedExports } from './support/seed-exports.ts'
import { waitForHydration } from './support/slow-network.ts'
import { uniqueEmail } from './support/users.ts'

const SEARCH = `/?sector=shop-bakery&country=France&region=${encodeURIComponent('Bretagne')}&department=${encodeURIComponent('Finistère')}&city=${encodeURIComponent('Plouguerneau')}&run=1`
const COMPANIES = '/companies?run=1&active=1&naf=10.71C&headcount=02&department=69'

/** What a submitted form would have changed, read from the database (a stable string to compare). */
async function footprint(email: string) {
  const [row] = await sql<{ state: string }>(
    `select json_build_object(
       'exports', (select json_agg(json_build_object('id', e.id, 'status', e.status, 'options', e.enrichment_options) order by e.id)
                   from public.exports e join auth.users u on u.id = e.user_id where u.email = $1),
       'saved', (select json_agg(s.id order by s.id) from public.saved_searches s join auth.users u on u.id = s.user_id where u.email = $1)
     )::text as state`,
    [email],
  )
  return row!.state
}

async function seedSavedSearch(email: string) {
  await sql(
    `insert into public.saved_searches (user_id, name, criteria, enrichments)
     select id, 'Bakeries Plouguerneau', $2::jsonb, '{phone}' from auth.users where email = $1`,
    [email, JSON.stringify({ sector: 'shop-bakery', country: 'France', region: 'Bretagne', department: 'Finistère', city: 'Plouguerneau' })],
  )
}

/** document.activeElement is the opener itself (not only something inside or named like it). */
const isActiveElement = (opener: Locator) => opener.evaluate((element) => element === document.activeElement)

interface Case {
  name: string
  /** Opens the page (signed in as `email` when there is one) and returns the dialog's opener. */
  open: (page: Page, email: string) => Promise<Locator>
  dialog: string
  signedIn?: boolean
}

const CASES: Case[] = [
  { name: 'search export', dialog: 'Enrich and export', open: async (page) => (await page.goto(SEARCH), page.getByRole('link', { name: 'Enrich and export' })) },
  {
    name: 'add enrichment',
    dialog: 'Add enrichment',
    open: async (page, email) => {
      const [id] = await seedExports(email, [{ name: 'Escape bakeries', status: 'completed', leadCount: 3, creditsUsed: 3 }])
      await page.goto(`/exports/${id}`)
      return page.getByRole('link', { name: 'Add enrichment' })
    },
  },
  {
    name: 'delete export',
    dialog: 'Delete this export?',
    open: async (page, email) => {
      const [id] = await seedExports(email, [{ name: 'Escape bakeries', status: 'completed', leadCount: 3, creditsUsed: 3 }])
      await page.goto(`/exports/${id}`)
      return page.getByRole('link', { name: 'Delete' })
    },
  },
  { name: 'save search', dialog: 'Save this search', open: async (page) => (await page.goto(SEARCH), page.getByRole('link', { name: 'Save this search' })) },
  {
    name: 'delete saved search',
    dialog: 'Delete this saved search?',
    open: async (page, email) => {
      await seedSavedSearch(email)
      await page.goto('/saved-searches')
      return page.getByTestId('saved-search').getByRole('link', { name: 'Delete' })
    },
  },
  { name: 'export companies', dialog: 'Export these companies', open: async (page) => (await page.goto(COMPANIES), page.getByRole('link', { name: 'Export these companies' })) },
  { name: 'forgot password', dialog: 'Reset Password', signedIn: false, open: async (page) => (await page.goto('/login'), page.getByRole('link', { name: 'Forgot your password?' })) },
]

test.describe('Escape closes dialogs', () => {
  test.describe.configure({ timeout: 120_000 })

  for (const item of CASES) {
    test(`${item.name}: Escape closes, focus goes back to the opener, Enter then submits nothing`, async ({ page, baseURL, javaScriptEnabled }, testInfo) => {
      test.skip(!javaScriptEnabled, 'Escape is a JavaScript behaviour: without JavaScript the dialog is page markup, closed by its ✕ and Cancel links (covered by the flows’ own specs)')
      const email = uniqueEmail(`escape-${item.name.replaceAll(' ', '-')}`, testInfo)
      if (item.signedIn !== false) await signUpViaRequest(page, baseURL, { email })
      const opener = await item.open(page, email)
      await waitForHydration(page, { js: true })
      const before = item.signedIn !== false ? await footprint(email) : ''
      const dialog = page.getByRole('dialog', { name: item.dialog })

      // Opened from the keyboard, so the opener had focus, as a keyboard user's would.
      await opener.focus()
      await page.keyboard.press('Enter')
      await expect(dialog).toBeVisible()
      await expect(dialog.locator(':focus')).toHaveCount(1)
      if (item.name === 'forgot password') await dialog.getByLabel('Email', { exact: true }).fill(`${email}`)
      // Focus on a field or the submit button: where an Enter submits.
      else await dialog.locator('input:not([type=hidden]):not([disabled]), button[type=submit]').first().focus()

      await page.keyboard.press('Escape')
      await expect(dialog).toBeHidden()
      await expect(opener).toBeFocused()
      expect(await isActiveElement(opener)).toBe(true)
      await expect(page).not.toHaveURL(/[?&](export|add|delete|save)=|mode=forgot/)

      // Closed by its ✕ (a link to the page without the dialog), focus goes back to the opener too.
      await page.keyboard.press('Enter')
      await expect(dialog).toBeVisible()
      await dialog.getByRole('link', { name: 'Close' }).click()
      await expect(dialog).toBeHidden()
      await expect(opener).toBeFocused()

      // Escape then Enter back to back, before the closing navigation could end: the Enter lands on the opener (which
      // may open the dialog again), never on the dialog's form.
      await opener.focus()
      await page.keyboard.press('Enter')
      await expect(dialog).toBeVisible()
      await page.keyboard.press('Escape')
      await page.keyboard.press('Enter')
      await page.waitForLoadState('networkidle')
      await expect(page).not.toHaveURL(/\/exports\/[0-9a-f-]{36}\?started=1/)
      await expect(page.getByText('Email sent!')).toHaveCount(0)
      if (await dialog.isVisible()) {
        await page.keyboard.press('Escape')
        await expect(dialog).toBeHidden()
      }
      if (item.signedIn !== false) expect(await footprint(email)).toBe(before)
    })
  }
})
