/**
 * Emails the notifications (issue 21 item 4). Rows are written by the export trigger and by notify() with
 * email_state 'pending'; the worker claims them one at a time (`for update skip locked`: several workers never email
 * one twice), asks the owner's preference, renders the branded email in the owner's language and sends it through
 * SMTP_URL or the local mailbox. A worker that dies while sending leaves the row pending (its transaction rolls
 * back): at-least-once, like the reset email's SMTP.
 */
import { sql } from 'kysely'
import { adminDb, getPool } from '#app/.server/db.ts'
import type { Env } from '#app/.server/env.server.ts'
import { createMailer, type Mailer } from '#app/.server/email/mailer.ts'
import { emailLanguage, notificationEmail } from '#app/.server/email/templates.ts'
import { isNotificationKind, PREFERENCE_OF, type NotificationData } from '#app/domain/notifications.ts'

export interface NotificationMailerOptions {
  mailer: Mailer
  /** Where the email's links lead (APP_URL, or the address npm start serves on). */
  appUrl: string
  log: (message: string) => void
  /** Only this user's notifications (tests that share a database with others). */
  userId?: string
}

export interface MailerRound {
  sent: number
  skipped: number
  failed: number
}

/** One round: every pending notification, oldest first, until none is left or `limit` were handled. */
export async function sendPendingNotificationEmails(options: NotificationMailerOptions, limit = 100): Promise<MailerRound> {
  const round: MailerRound = { sent: 0, skipped: 0, failed: 0 }
  for (let handled = 0; handled < limit; handled++) {
    const outcome = await sendNext(options)
    if (!outcome) break
    round[outcome]++
  }
  return round
}

async function sendNext({ mailer, appUrl, log, userId }: NotificationMailerOptions): Promise<keyof MailerRound | null> {
  return adminDb()
    .transaction()
    .execute(async (trx) => {
      const row = await trx
        .selectFrom('notifications as n')
        .innerJoin('users as u', 'u.id', 'n.user_id')
        .innerJoin(sql<{ id: string; email: string | null; raw_user_meta_data: { locale?: unknown } | null }>`auth.users`.as('a'), 'a.id', 'n.user_id')
        .select(['n.id', 'n.kind', 'n.data', 'a.email', 'a.raw_user_meta_data', 'u.notify_export_completed', 'u.notify_export_failed', 'u.notify_export_interrupted', 'u.notify_saved_search'])
        .where('n.email_state', '=', 'pending')
        .$if(userId !== undefined, (query) => query.where('n.user_id', '=', userId!))
        .orderBy('n.created_at')
        .limit(1)
        .forUpdate('n')
        .skipLocked()
        .executeTakeFirst()
      if (!row) return null
      const preference = isNotificationKind(row.kind) ? PREFERENCE_OF[row.kind] : undefined
      let state: keyof MailerRound
      if (!isNotificationKind(row.kind) || !row.email || (preference && !row[preference])) {
        state = 'skipped'
      } else {
        const data = row.data as NotificationData
        const lang = emailLanguage(row.raw_user_meta_data?.locale)
        const email = notificationEmail({ kind: row.kind, data, lang, appUrl, switchable: preference !== null })
        try {
          await mailer.send(getPool(), { to: row.email, ...email })
          state = 'sent'
        } catch (error) {
          // The address is not logged in full (personal data in logs): its domain says enough to investigate.
          log(`notification email to …@${row.email.split('@')[1] ?? '?'} failed: ${(error as Error).message}`)
          state = 'failed'
        }
      }
      await trx
        .updateTable('notifications')
        .set({ email_state: state, emailed_at: state === 'sent' ? sql`now()` : null })
        .where('id', '=', row.id)
        .execute()
      return state
    })
}

const POLL_MS = 2_000

/** Polls for pending notifications while the worker runs; stop() waits for the email in flight. */
function startNotificationMailer(options: NotificationMailerOptions): { stop: () => Promise<void> } {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()
  const tick = () => {
    running = sendPendingNotificationEmails(options)
      .then(() => undefined)
      .catch((error: unknown) => options.log(`notification emails: ${(error as Error).message}`))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, POLL_MS)
      })
  }
  tick()
  return {
    stop: async () => {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}

/**
 * The worker's mailer: SMTP_URL when set, else the local mailbox when this database has one (the embedded stack);
 * otherwise no emails (the bell still tells), said once in the log.
 */
export async function startNotificationEmails({ config, log }: { config: Env; log: (message: string) => void }): Promise<{ stop: () => Promise<void> } | null> {
  let mailer: Mailer
  if (config.SMTP_URL) {
    mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.SMTP_FROM })
  } else {
    const { rows } = await getPool().query<{ outbox: string | null }>(`select to_regclass('auth.local_outbox')::text as outbox`)
    if (!rows[0]?.outbox) {
      log('Notification emails are off: set SMTP_URL to send them (the in-app notifications still work).')
      return null
    }
    mailer = createMailer({})
  }
  if (!config.APP_URL) log('APP_URL is not set: notification emails link to http://localhost:3000.')
  return startNotificationMailer({ mailer, appUrl: config.APP_URL ?? 'http://localhost:3000', log })
}
