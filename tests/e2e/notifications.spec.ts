import { expect, test } from '@playwright/test'
import { expectNoA11yViolations } from './support/a11y.ts'
import { sql } from './support/db.ts'
import { signUpViaRequest } from './support/http.ts'
import { readLatestEmail } from './support/outbox.ts'
import { uniqueEmail } from './support/users.ts'

/** An export of the user's that reaches `status` now, as the worker ends one (the trigger tells it). */
async function endExport(email: string, name: string, status: 'completed' | 'interrupted') {
  const [row] = await sql<{ id: string }>(
    `insert into public.exports (user_id, name, status, lead_count, total_credits_used)
     select id, $2, 'processing', 12, 7 from auth.users where email = $1 returning id`,
    [email, name],
  )
  await sql(`update public.exports set status = $2, enrichment_status_details = $3 where id = $1`, [row!.id, status, status === 'interrupted' ? { reason: 'insufficient_credits' } : null])
  return row!.id
}

test.describe('notifications', () => {
  test('the bell counts what is new; opening one reads it and shows its export; the email arrives', async ({ page, baseURL }, testInfo) => {
    const email = uniqueEmail('bell', testInfo)
    await signUpViaRequest(page, baseURL, { email })
    const exportId = await endExport(email, 'Boulangeries Brest', 'completed')
    await endExport(email, 'Plumbers Lyon', 'interrupted')

    await page.goto('/exports')
    const bell = page.getByRole('link', { name: 'Notifications, 2 unread' })
    await expect(bell).toBeVisible()
    await expect(page.getByTestId('unread-count')).toHaveText('2')
    await bell.click()
    await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible()
    const items = page.getByTestId('notification')
    await expect(items).toHaveCount(2)
    await expect(items.first()).toContainText('Export “Plumbers Lyon” stopped: you ran out of credits. Resume it when you are ready.')
    await expect(items.nth(1)).toContainText('Export “Boulangeries Brest” is ready: 12 leads, 7 credits used.')
    await expectNoA11yViolations(page)
    await page.screenshot({ path: testInfo.outputPath('notifications.png'), fullPage: true })

    await items.nth(1).getByRole('button').click()
    await page.waitForURL(`**/exports/${exportId}`)
    await expect(page.getByRole('link', { name: 'Notifications, 1 unread' })).toBeVisible()
    await page.goto('/notifications')
    await page.getByRole('button', { name: 'Mark all as read' }).click()
    await expect(page.getByRole('link', { name: 'Notifications', exact: true })).toBeVisible()
    await expect(page.getByTestId('unread-count')).toHaveCount(0)

    // The worker emails it through the same branded templates as the reset email (the local mailbox here).
    const message = await readLatestEmail(email)
    expect(message.subject).toMatch(/Plumbers Lyon|Boulangeries Brest/)
  })

  test('email switches are saved in Settings', async ({ page, baseURL }, testInfo) => {
    await signUpViaRequest(page, baseURL, { email: uniqueEmail('notify-prefs', testInfo) })
    await page.goto('/settings')
    const completed = page.getByLabel('An export is ready')
    await expect(completed).toBeChecked()
    await completed.uncheck()
    await page.getByRole('button', { name: 'Save preferences' }).click()
    await expect(page.getByText('Your notification preferences are saved.')).toBeVisible()
    await page.reload()
    await expect(page.getByLabel('An export is ready')).not.toBeChecked()
    await expect(page.getByLabel('An export failed')).toBeChecked()
    await expectNoA11yViolations(page)
  })
})

test.describe('notifications in French', () => {
  test.use({ locale: 'fr-FR', viewport: { width: 375, height: 800 } })
  test('at 375 px', async ({ page, baseURL }, testInfo) => {
    const email = uniqueEmail('bell-fr', testInfo)
    await signUpViaRequest(page, baseURL, { email })
    await endExport(email, 'Boulangeries Brest', 'completed')
    await page.goto('/notifications')
    await expect(page.getByTestId('notification')).toContainText('L’export « Boulangeries Brest » est prêt : 12 prospects, 7 crédits utilisés.')
    await expect(page.getByRole('link', { name: 'Notifications, 1 non lue' })).toBeVisible()
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0)
    await expectNoA11yViolations(page)
    await page.screenshot({ path: testInfo.outputPath('notifications-fr-375.png'), fullPage: true })
  })
})
