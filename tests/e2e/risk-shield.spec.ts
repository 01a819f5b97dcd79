import { expect, test } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { sql, subscribe } from './support/db.ts'
import { signUpViaRequest } from './support/http.ts'
import { seedRichExport } from './support/seed-exports.ts'
import { demoHistoryImported } from './support/registry-events.ts'
import { waitForExportEnd } from './support/export-status.ts'
import { uniqueEmail } from './support/users.ts'

// The risk shield end to end (issue 32): plumbers in Gironde, on the demo map, with "exclude companies in insolvency
// proceedings" and "exclude struck off" ticked in the search's filters; the export runs the registry step, and the
// companies the demo BODACC history (server/demo/registry-events-history.ts, imported at start-up through the local
// INSEE and BODACC servers) puts in a procedure or struck off are left out, uncharged, and the export page says so.
const SEARCH = `/?sector=craft-plumber&country=France&region=${encodeURIComponent('Nouvelle-Aquitaine')}&department=Gironde&excludeInsolvent=1&excludeRadiated=1&run=1`

const TEXT = {
  en: { open: 'Enrich and export', name: 'Export name', start: 'Start export', left: /companies? in insolvency proceedings per BODACC \(left out, not charged\)/, registry: /Company registry/ },
  fr: { open: 'Enrichir et exporter', name: "Nom de l'export", start: "Lancer l'export", left: /entreprises? en procédure collective selon le BODACC \(écartées?, non facturées?\)/, registry: /Registre des entreprises/ },
} as const
const OTHER_OPTIONS = { en: ['Phone', 'Website', 'Email', 'Social media'], fr: ['Téléphone', 'Site web', 'E-mail', 'Réseaux sociaux'] } as const

for (const language of ['en', 'fr'] as const) {
  test.describe(language, () => {
    test.use({ locale: language === 'fr' ? 'fr-FR' : 'en-US' })
    test.describe.configure({ timeout: 420_000 })

    test(`an export of plumbers in Gironde leaves out the companies in insolvency proceedings and says so (${language})`, async ({ page, baseURL }, testInfo) => {
      const t = TEXT[language]
      const user = await signUpViaRequest(page, baseURL, { email: uniqueEmail(`registry-events-${language}`, testInfo) })
      await subscribe(user.email, 'premium')
      await sql(`select public.apply_credit_change(id, 1000, 'adjustment', 'e2e:risk-shield:' || id::text) from auth.users where email = $1`, [user.email])
      await demoHistoryImported()

      await page.goto(SEARCH)
      await expect(page.locator('table tbody tr').first()).toBeVisible()
      // The filters travel in the URL: the panel shows them ticked.
      await expect(page.locator('input[name=excludeInsolvent]')).toBeChecked()
      await expect(page.locator('input[name=excludeRadiated]')).toBeChecked()
      if (process.env.SCREENSHOTS) {
        for (const width of [1440, 375]) {
          await page.setViewportSize({ width, height: 900 })
          await page.getByTestId('search-filters').screenshot({ path: `scratch/screens/risk-shield/filters-${language}-${width}.png` })
        }
        await page.setViewportSize({ width: 1280, height: 720 })
      }
      await page.getByRole('link', { name: t.open }).first().click()
      const dialog = page.getByRole('dialog', { name: t.open })
      await expect(dialog).toBeVisible()
      await dialog.getByLabel(t.name).fill(`Plombiers Gironde ${language}`)
      // The registry step alone: it identifies each plumber (and so judges its risk) before anything is charged.
      for (const label of OTHER_OPTIONS[language]) await dialog.getByLabel(label, { exact: true }).setChecked(false)
      await dialog.getByLabel(t.registry).setChecked(true)
      await dialog.getByRole('button', { name: t.start }).click()
      await page.waitForURL(/\/exports\/[0-9a-f-]{36}\?started=1$/)
      const exportId = new URL(page.url()).pathname.split('/').pop()!
      await waitForExportEnd(page)

      const [row] = await sql<{ excluded: Record<string, number>; used: number; charged: number }>(
        `select excluded, total_credits_used as used, (select coalesce(-sum(delta), 0)::int from public.credit_ledger where export_id = e.id) as charged
           from public.exports e where id = $1`,
        [exportId],
      )
      const insolvent = row!.excluded.risk_insolvency ?? 0
      expect(insolvent).toBeGreaterThanOrEqual(1)
      expect(row!.charged).toBe(row!.used)
      const line = page.getByText(t.left)
      await expect(line).toBeVisible()
      await expect(line).toContainText(String(insolvent))
      if (process.env.SCREENSHOTS) {
        for (const width of [1440, 375]) {
          await page.setViewportSize({ width, height: 900 })
          await page.screenshot({ path: `scratch/screens/risk-shield/${language}-${width}.png`, fullPage: true })
        }
        await page.goto(`/exports/${exportId}`)
      }
      await expectNoA11yViolations(page)
    })
  })
}

// A lead whose company the store knows in liquidation shows it in the registry column, linked to its announcement.
const BADGE = { en: /^Liquidation · \d{1,2}\/\d{1,2}\/\d{2,4}$/, fr: /^Liquidation judiciaire · \d{2}\/\d{2}\/\d{4}$/ } as const
for (const language of ['en', 'fr'] as const) {
  test.describe(`${language} badge`, () => {
    test.use({ locale: language === 'fr' ? 'fr-FR' : 'en-US' })

    test(`a lead in liquidation says so, with the announcement (${language})`, async ({ page, baseURL }, testInfo) => {
      const { email } = await signUpViaRequest(page, baseURL, { email: uniqueEmail(`risk-badge-${language}`, testInfo) })
      const exportId = await seedRichExport(email, { name: 'Plombiers en difficulté', count: 3, distinctSirens: true })
      // A SIREN of its own: other tests' seeded leads must not find this announcement.
      const siren = `9${String(Date.now()).slice(-7)}${language === 'fr' ? 1 : 2}`
      await sql(
        `update public.leads l set admin_fr_info = jsonb_build_object('confidence', 0.95, 'results', jsonb_build_array(jsonb_build_object('siren', $2::text, 'etat_administratif', 'A')))
           from public.export_leads el where el.lead_id = l.id and el.export_id = $1 and el.position = 0`,
        [exportId, siren],
      )
      const id = `A2026${String(Date.now()).slice(-7)}${language === 'fr' ? 1 : 2}`
      const url = `https://www.bodacc.fr/pages/annonces-commerciales-detail/?q.id=id:${id}`
      const announcement = {
        id, sirens: [siren], publishedOn: '2026-10-02', family: 'collective', kind: 'annonce', correctsId: null,
        judgment: { famille: "Jugement d'ouverture", nature: "Jugement d'ouverture de liquidation judiciaire", complement: '', date: '2026-09-28' },
        radiation: null, createdOn: null, naturalPerson: false, tribunal: 'TRIBUNAL DE COMMERCE DE BORDEAUX', url,
      }
      await sql(`insert into public.registry_announcements (id, sirens, published_on, family, announcement) values ($1, $2, '2026-10-02', 'collective', $3)`, [id, [siren], announcement])
      for (const width of [1440, 375]) {
        await page.setViewportSize({ width, height: 900 })
        await page.goto(`/exports/${exportId}`)
        const badge = page.getByTestId('registry-risk').filter({ visible: true })
        await expect(badge).toHaveCount(1)
        await expect(badge).toHaveText(BADGE[language])
        await expect(badge).toHaveAttribute('href', url)
        if (process.env.SCREENSHOTS) await page.screenshot({ path: `scratch/screens/risk-shield/badge-${language}-${width}.png`, fullPage: true })
      }
      await expectNoA11yViolations(page)
    })
  })
}
