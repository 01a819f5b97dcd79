import { expect, type Page } from '@playwright/test'

/**
 * The password-reset link the local auth server "sent" to `email`, read from the dev outbox page
 * (/dev/outbox?to=…). It polls briefly since the email is written right after the request.
 */
export async function readResetLink(page: Page, email: string): Promise<string> {
  let link: string | null = null
  await expect(async () => {
    await page.goto(`/dev/outbox?to=${encodeURIComponent(email)}`)
    const links = page.getByTestId('outbox-link')
    expect(await links.count()).toBeGreaterThan(0)
    link = await links.first().getAttribute('href')
    expect(link).toBeTruthy()
  }).toPass({ timeout: 10_000, intervals: [200, 500, 1000] })
  return link!
}
