import { expect, request } from '@playwright/test'

/** The local mailbox of the e2e server (its own loopback port; never the app's). */
const MAILBOX_URL = `http://127.0.0.1:${Number(process.env.E2E_MAILBOX_PORT ?? 54410)}`

interface MailboxMessage {
  subject: string
  text: string
  link: string | null
}

/**
 * The newest email the local auth server "sent" to `email`, read from the local mailbox's JSON
 * API. It polls briefly since the email is written right after the request.
 */
export async function readLatestEmail(email: string): Promise<MailboxMessage> {
  const mailbox = await request.newContext()
  let message: MailboxMessage | undefined
  try {
    await expect(async () => {
      const response = await mailbox.get(`${MAILBOX_URL}/api/messages?to=${encodeURIComponent(email)}`)
      expect(response.ok()).toBe(true)
      const { messages } = (await response.json()) as { messages: MailboxMessage[] }
      message = messages[0]
      expect(message).toBeTruthy()
    }).toPass({ timeout: 10_000, intervals: [200, 500, 1000] })
  } finally {
    await mailbox.dispose()
  }
  return message!
}

/** The password-reset link the local auth server "sent" to `email`. */
export async function readResetLink(email: string): Promise<string> {
  const { link } = await readLatestEmail(email)
  expect(link).toBeTruthy()
  return link!
}
