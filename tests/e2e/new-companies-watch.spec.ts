import { expect, test, type Page } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { sql, subscribe } from './support/db.ts'
import { signUpViaRequest } from './support/http.ts'
import { demoHistoryImported } from './support/registry-events.ts'
import { waitForExportEnd } from './support/export-status.ts'
import { uniqueEmail } from './support/users.ts'

// The new-companies watch end to end (issue 32 item 3): /companies with "Created after" reads the local registry store
// (the demo history the e2e server imported at start-up), "Watch new companies" saves a weekly watch of the page's
// filters, the saved searches list shows it, and "Run now" delivers the bakeries of the Rhône registered in the week.
const TEXT = {
  en: { watch: 'Watch new companies', name: 'Name', weekly: 'New companies · weekly', runNow: 'Run now', store: /from our local copy of the Sirene register, imported up to/ },
  fr: { watch: 'Surveiller les nouvelles entreprises', name: 'Nom', weekly: 'Nouvelles entreprises · chaque semaine', runNow: 'Exécuter maintenant', store: /d’après notre copie locale du répertoire Sirene, importée jusqu’au/ },
} as const

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10)

/** With SCREENSHOTS=1: the page at a phone's and a wide screen's width (scratch/screens/watch/). */
async function capture(page: Page, name: string) {
  if (!process.env.SCREENSHOTS) return
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: `scratch/screens/watch/${name}-${width}.png`, fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 720 })
}

for (const language of ['en', 'fr'] as const) {
  test.describe(language, () => {
    test.use({ locale: language === 'fr' ? 'fr-FR' : 'en-US' })
    test.describe.configure({ timeout: 420_000 })

    test(`created after, then a weekly watch of new bakeries in the Rhône, run now (${language})`, async ({ page, baseURL }, testInfo) => {
      const t = TEXT[language]
      const user = await signUpViaRequest(page, baseURL, { email: uniqueEmail(`registry-events-${language}`, testInfo) })
      await subscribe(user.email, 'premium')
      await demoHistoryImported()

      // The last 30 days of the Rhône's bakeries, from the store: some exist, and the page says where they come from.
      await page.goto(`/companies?run=1&active=1&naf=10.71C&department=69&createdAfter=${daysAgo(30)}`)
      await expect(page.getByText(t.store)).toBeVisible()
      const [{ n: inStore }] = (await sql<{ n: number }>(
        `select count(*)::int as n from public.registry_establishments where department = '69' and naf = '10.71C' and state = 'A' and created_on > $1::date`,
        [daysAgo(30)],
      )) as [{ n: number }]
      expect(inStore).toBeGreaterThan(0)
      await expectNoA11yViolations(page)

      await page.getByRole('link', { name: t.watch }).first().click()
      const form = page.getByTestId('watch-form')
      await expect(form).toBeVisible()
      await form.getByLabel(t.name, { exact: true }).fill(`Boulangeries Rhône ${language}`)
      await expectNoA11yViolations(page)
      await capture(page, `watch-form-${language}`)
      await page.getByTestId('watch-submit').click()
      await page.waitForURL(/\/saved-searches\?saved=1$/)
      const card = page.getByTestId('saved-search').filter({ hasText: `Boulangeries Rhône ${language}` }).first()
      await expect(card).toContainText(t.weekly)
      await capture(page, `saved-searches-${language}`)
      await expectNoA11yViolations(page)

      const [saved] = await sql<{ kind: string; registry_filters: { nafCodes: string[]; place: { kind: string; code: string } } }>(
        `select kind, registry_filters from public.saved_searches s join auth.users u on u.id = s.created_by where u.email = $1`,
        [user.email],
      )
      expect(saved).toMatchObject({ kind: 'new_companies', registry_filters: { nafCodes: ['10.71C'], place: { kind: 'department', code: '69' } } })

      await card.getByRole('button', { name: t.runNow }).click()
      await page.waitForURL(/\/exports\/[0-9a-f-]{36}/)
      await waitForExportEnd(page)
      const exportId = new URL(page.url()).pathname.split('/').pop()!
      const [run] = await sql<{ leads: number; outside: number }>(
        `select count(*)::int as leads,
                count(*) filter (where (l.admin_fr_info -> 'results' -> 0 ->> 'date_creation')::date < current_date - 7)::int as outside
           from public.export_leads el join public.leads l on l.id = el.lead_id where el.export_id = $1`,
        [exportId],
      )
      // The first weekly run delivers the last 7 days' creations: none older.
      expect(run!.outside).toBe(0)
      await expect(page.getByTestId('lead-row').first()).toBeVisible({ visible: run!.leads > 0 })
      await expectNoA11yViolations(page)
    })
  })
}
