import { expect, test } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { sql } from './support/db.ts'
import { signUpViaRequest } from './support/http.ts'
import { seedRichExport } from './support/seed-exports.ts'
import { uniqueEmail } from './support/users.ts'

// A registry-first export's establishment the map does not know (app/.server/registry/map-match.ts): the export page
// says "Not found online" in its registry cell, in both languages, on a phone and on a wide screen.
for (const language of ['en', 'fr'] as const) {
  test.describe(language, () => {
    test.use({ locale: language === 'fr' ? 'fr-FR' : 'en-US' })

    test(`a lead not found online says so (${language})`, async ({ page, baseURL }, testInfo) => {
      const { email } = await signUpViaRequest(page, baseURL, { email: uniqueEmail(`registry-${language}`, testInfo) })
      const exportId = await seedRichExport(email, { name: 'Boulangeries du registre', count: 3 })
      await sql(
        `update public.leads l set phone = null, website = null, email = '{}', technologies = '{}', social_media = '{}',
                admin_fr_info = jsonb_build_object('confidence', null, 'matched_by', 'registry_not_online',
                  'results', jsonb_build_array(jsonb_build_object('siren', '552100554', 'etat_administratif', 'A', 'confidence', null)))
           from public.export_leads el
          where el.lead_id = l.id and el.export_id = $1 and el.position = 0`,
        [exportId],
      )
      const label = language === 'fr' ? 'Non trouvée en ligne' : 'Not found online'
      for (const width of [1440, 375]) {
        await page.setViewportSize({ width, height: 900 })
        await page.goto(`/exports/${exportId}`)
        const badge = page.getByTestId('not-found-online').filter({ visible: true })
        await expect(badge).toHaveCount(1)
        await expect(badge).toHaveText(label)
        if (process.env.SCREENSHOTS) await page.screenshot({ path: `scratch/screens/registry/${language}-${width}.png`, fullPage: true })
      }
      await expectNoA11yViolations(page)
    })
  })
}
