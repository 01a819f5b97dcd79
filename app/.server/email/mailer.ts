import nodemailer from 'nodemailer'
import type { Queryable } from '#app/.server/db.ts'

export interface Mail {
  to: string
  subject: string
  text: string
  html: string
  /** The action link, kept apart so the local mailbox can show it as a button. */
  link: string
}

/**
 * Where LeadAtlas's emails go (the local auth server's reset emails, the worker's notifications): out through SMTP,
 * or into the local mailbox.
 */
export interface Mailer {
  kind: 'smtp' | 'local'
  send(db: Queryable, mail: Mail): Promise<void>
}

const SMTP_TIMEOUT_MS = 10_000

/** An email the local stack "sent": written to auth.local_outbox for the local mailbox (server/mailbox.ts) and the tests. */
async function writeOutboxEmail(db: Queryable, email: Mail) {
  await db.query('insert into auth.local_outbox (to_email, subject, body_text, link) values ($1, $2, $3, $4)', [email.to, email.subject, email.text, email.link])
}

/**
 * With SMTP_URL (smtp://user:pass@host:587, smtps://…) mail goes out through nodemailer, as
 * hosted Supabase does with custom SMTP; without it, into auth.local_outbox, which the local
 * mailbox (server/mailbox.ts) shows on its own loopback port, like Supabase's local Mailpit.
 */
export function createMailer({ smtpUrl, from }: { smtpUrl?: string; from?: string }): Mailer {
  if (!smtpUrl) return { kind: 'local', send: (db, mail) => writeOutboxEmail(db, mail) }
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  } as Parameters<typeof nodemailer.createTransport>[0])
  const sender = from || 'LeadAtlas <no-reply@localhost>'
  return {
    kind: 'smtp',
    send: async (_db, mail) => {
      await transport.sendMail({ from: sender, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html })
    },
  }
}
