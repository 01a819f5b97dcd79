import { expect, request } from '@playwright/test'

/** The local mailbox of the e2e server (its own loopback port; never the app's). */
const MAILBOX_URL = `http://127.0.0.1:${Number(process.env.E2E_MAILBOX_PORT ?? 54410)}`

/**
 * The password-reset link the local auth server "sent" to `email`, read from the local mailbox's
 * JSON API. It polls briefly since the email is written right after the request.
 */
export async function readResetLink(email: string): Promise<string> {
  const mailbox = await request.newContext()
  let link: string | null = null
  try {
    await expect(async () => {
      const response = await mailbox.get(`${MAILBOX_URL}/api/messages?to=${encodeURIComponent(email)}`)
      expect(response.ok()).toBe(true)
      const { messages } = (await response.json()) as { messages: Array<{ link: string | null }> }
      link = messages[0]?.link ?? null
      expect(link).toBeTruthy()
    }).toPass({ timeout: 10_000, intervals: [200, 500, 1000] })
  } finally {
    await mailbox.dispose()
  }
  return link!
}
