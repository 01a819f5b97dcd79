import { expect, test, type Locator, type Page } from '@playwright/test'
import { signUpViaRequest } from './support/http.ts'
import { uniqueEmail } from './support/users.ts'

/*
 * The settings page on a phone: the email-notifications card keeps its switches' labels inside it (they wrap), the
 * page never scrolls sideways, and the "saved" notice sits under the card's title, not behind it (nor is the title
 * under the sticky header when the save comes back to #notifications).
 */

type Box = { x: number; y: number; width: number; height: number }
const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox()
  expect(found, `${locator} is laid out`).not.toBeNull()
  return found!
}

async function expectCardLaidOut(page: Page, { title, saved }: { title: string; saved: string }) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  const card = page.locator('form#notifications')
  const cardBox = await box(card)
  const labels = card.locator('label')
  await expect(labels).toHaveCount(4)
  for (const label of await labels.all()) {
    const labelBox = await box(label)
    expect(inside(labelBox, cardBox), `"${await label.textContent()}" ${JSON.stringify(labelBox)} lies inside the card ${JSON.stringify(cardBox)}`).toBe(true)
    // Wrapped, not one word per line: a label uses most of the card's width.
    expect(labelBox.width).toBeGreaterThan(cardBox.width / 2)
  }
  const notice = card.getByRole('status').filter({ hasText: saved })
  await expect(notice).toBeVisible()
  const titleBox = await box(card.getByText(title, { exact: true }))
  const noticeBox = await box(notice)
  expect(overlap(titleBox, noticeBox), `the notice ${JSON.stringify(noticeBox)} is clear of the title ${JSON.stringify(titleBox)}`).toBe(false)
  expect(noticeBox.y).toBeGreaterThanOrEqual(titleBox.y + titleBox.height)
  expect(inside(noticeBox, cardBox)).toBe(true)
}

test.describe('settings on a phone (375 px)', () => {
  test.use({ viewport: { width: 375, height: 800 } })

  for (const language of [
    { locale: 'en-US', title: 'Email notifications', save: 'Save preferences', saved: 'Your notification preferences are saved.' },
    { locale: 'fr-FR', title: 'Notifications par e-mail', save: 'Enregistrer les préférences', saved: 'Vos préférences de notification sont enregistrées.' },
  ]) {
    test.describe(language.locale, () => {
      test.use({ locale: language.locale })
      test('the email-notifications card holds its labels and its saved notice, and the page is no wider than the screen', async ({ page, baseURL }, testInfo) => {
        await signUpViaRequest(page, baseURL, { email: uniqueEmail('settings-layout', testInfo) })
        await page.goto('/settings')
        const card = page.locator('form#notifications')
        await card.getByRole('checkbox').first().uncheck()
        await card.getByRole('button', { name: language.save }).click()
        await expect(page).toHaveURL(/notifications=saved/)
        await expectCardLaidOut(page, language)
        // Back at #notifications, the card's title shows below the sticky header.
        const header = await box(page.locator('header').first())
        const title = await box(card.getByText(language.title, { exact: true }))
        expect(title.y).toBeGreaterThanOrEqual(header.y + header.height)
      })
    })
  }
})
