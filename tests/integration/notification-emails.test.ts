// Notification emails (issue 21 item 4): the worker emails each pending notification once, in its owner's language,
// through the same branded layout as the reset email, unless the owner switched that kind off.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { adminDb, closeDb } from '#app/.server/db.ts'
import { createMailer } from '#app/.server/email/mailer.ts'
import { notify } from '#app/.server/notifications/store.ts'
import { sendPendingNotificationEmails } from '#app/.server/notifications/mailer.ts'
import { closedPortUrl } from '#tests/support/closed-port.ts'
import { createUserWithCredits } from '#tests/support/credited-user.ts'

const APP_URL = 'https://app.leadatlas.test'
let admin: pg.Pool
beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
})
afterAll(async () => {
  await admin.end()
  await closeDb()
})

const log = () => {}

async function user(locale?: 'fr' | 'en'): Promise<string> {
  const id = await createUserWithCredits(admin, 10)
  if (locale) await admin.query(`update auth.users set raw_user_meta_data = jsonb_build_object('locale', $2::text) where id = $1`, [id, locale])
  return id
}

async function endExport(userId: string, name: string, status: 'completed' | 'failed' | 'interrupted'): Promise<string> {
  const { rows } = await admin.query<{ id: string }>(
    `insert into public.exports (user_id, name, status, lead_count, total_credits_used) values ($1, $2, 'processing', 12, 7) returning id`,
    [userId, name],
  )
  await admin.query(`update public.exports set status = $2, enrichment_status_details = $3 where id = $1`, [rows[0]!.id, status, status === 'interrupted' ? { reason: 'insufficient_credits' } : null])
  return rows[0]!.id
}

async function inbox(userId: string) {
  const { rows } = await admin.query<{ subject: string; body_text: string; link: string }>(`select subject, body_text, link from auth.local_outbox where to_email = $1 order by id`, [`${userId}@example.test`])
  return rows
}

async function states(userId: string) {
  const { rows } = await admin.query<{ kind: string; email_state: string; emailed_at: Date | null }>(`select kind, email_state, emailed_at from public.notifications where user_id = $1 order by created_at`, [userId])
  return rows
}

describe('notification emails', () => {
  test('an export end is emailed once, in the owner’s language, with a link to the export', async () => {
    const owner = await user('fr')
    const exportId = await endExport(owner, 'Boulangeries Brest', 'completed')
    const round = await sendPendingNotificationEmails({ mailer: createMailer({}), appUrl: APP_URL, log, userId: owner })
    expect(round).toEqual({ sent: 1, skipped: 0, failed: 0 })
    const [email, ...others] = await inbox(owner)
    expect(others).toHaveLength(0)
    expect(email!.subject).toBe('Votre export « Boulangeries Brest » est prêt')
    expect(email!.body_text).toContain('L’export « Boulangeries Brest » est prêt : 12 prospects, 7 crédits utilisés.')
    expect(email!.body_text).toContain(`${APP_URL}/settings#notifications`)
    expect(email!.link).toBe(`${APP_URL}/exports/${exportId}`)
    expect((await states(owner))[0]).toMatchObject({ email_state: 'sent', emailed_at: expect.any(Date) })

    // A second round has nothing left to send.
    expect(await sendPendingNotificationEmails({ mailer: createMailer({}), appUrl: APP_URL, log, userId: owner })).toEqual({ sent: 0, skipped: 0, failed: 0 })
    expect(await inbox(owner)).toHaveLength(1)
  })

  test('a kind switched off is skipped; the rest, and what no switch governs, are sent', async () => {
    const owner = await user()
    await admin.query(`update public.users set notify_export_completed = false, notify_saved_search = false where id = $1`, [owner])
    await endExport(owner, 'Plumbers Lyon', 'completed')
    await endExport(owner, 'Roofers Nantes', 'interrupted')
    await notify(adminDb(), owner, 'saved_search.new_businesses', { savedSearchId: crypto.randomUUID(), name: 'Bakeries', newCount: 3 })
    await notify(adminDb(), owner, 'webhook.disabled', { endpointId: crypto.randomUUID(), url: 'https://crm.example.com/hook' })
    const round = await sendPendingNotificationEmails({ mailer: createMailer({}), appUrl: APP_URL, log, userId: owner })
    expect(round).toEqual({ sent: 2, skipped: 2, failed: 0 })
    expect((await states(owner)).map((row) => [row.kind, row.email_state])).toEqual([
      ['export.completed', 'skipped'],
      ['export.interrupted', 'sent'],
      ['saved_search.new_businesses', 'skipped'],
      ['webhook.disabled', 'sent'],
    ])
    const emails = await inbox(owner)
    expect(emails.map((email) => email.subject)).toEqual(['Your export “Roofers Nantes” stopped', 'A webhook endpoint was disabled'])
    expect(emails[0]!.body_text).toContain('you ran out of credits.')
    expect(emails[1]!.body_text).toContain('https://crm.example.com/hook')
    // No preference governs it: the email does not offer a switch.
    expect(emails[1]!.body_text).not.toContain('/settings#notifications')
  })

  test('two workers at once email each notification once', async () => {
    const owner = await user()
    for (let i = 0; i < 6; i++) await endExport(owner, `Export ${i}`, 'completed')
    const rounds = await Promise.all([1, 2, 3].map(() => sendPendingNotificationEmails({ mailer: createMailer({}), appUrl: APP_URL, log, userId: owner })))
    expect(rounds.reduce((sum, round) => sum + round.sent, 0)).toBe(6)
    const subjects = (await inbox(owner)).map((email) => email.subject)
    expect(subjects).toHaveLength(6)
    expect(new Set(subjects).size).toBe(6)
  })

  test('an SMTP server that cannot be reached marks the email failed, and the round goes on', async () => {
    const owner = await user()
    await endExport(owner, 'Electricians Lille', 'failed')
    const smtpUrl = (await closedPortUrl()).replace('http:', 'smtp:')
    const messages: string[] = []
    const round = await sendPendingNotificationEmails({ mailer: createMailer({ smtpUrl }), appUrl: APP_URL, log: (message) => messages.push(message), userId: owner })
    expect(round).toEqual({ sent: 0, skipped: 0, failed: 1 })
    expect((await states(owner))[0]!.email_state).toBe('failed')
    // The address is not written to the log in full.
    expect(messages.join('\n')).toContain('…@example.test')
    expect(messages.join('\n')).not.toContain(owner)
  })
})
