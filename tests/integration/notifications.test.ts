// Notifications (issue 21 item 4): an export's end is written once by the trigger whatever code path ends it; the
// user reads and marks only their own; email preferences are theirs to switch.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import type { SessionUser } from '#app/.server/auth.ts'
import { adminDb, closeDb } from '#app/.server/db.ts'
import { listNotifications, markRead, notify, readNotificationPreferences, saveNotificationPreferences, unreadNotifications } from '#app/.server/notifications/store.ts'
import { createUserWithCredits } from '#tests/support/credited-user.ts'
import { personalSession } from '#app/.server/workspaces/current.ts'

let admin: pg.Pool
beforeAll(() => {
  process.env.DATABASE_URL = inject('databaseUrl')
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
})
afterAll(async () => {
  await admin.end()
  await closeDb()
})

async function user(): Promise<SessionUser> {
  const id = await createUserWithCredits(admin, 10)
  return personalSession(id, `${id}@example.test`)
}

async function exportOf(owner: SessionUser, status = 'processing'): Promise<string> {
  const { rows } = await admin.query<{ id: string }>(
    `insert into public.exports (user_id, name, status, lead_count, total_credits_used) values ($1, 'Bakeries', $2, 12, 7) returning id`,
    [owner.id, status],
  )
  return rows[0]!.id
}

describe('export events', () => {
  test('completed, failed and interrupted are each told once; other changes are not', async () => {
    const owner = await user()
    const done = await exportOf(owner)
    await admin.query(`update public.exports set progress_percentage = 50 where id = $1`, [done])
    await admin.query(`update public.exports set status = 'completed' where id = $1`, [done])
    await admin.query(`update public.exports set status = 'completed', lead_count = 13 where id = $1`, [done])
    const stopped = await exportOf(owner)
    await admin.query(`update public.exports set status = 'interrupted', enrichment_status_details = '{"reason":"insufficient_credits"}' where id = $1`, [stopped])
    // A rolled-back transition tells nothing.
    const client = await admin.connect()
    await client.query('begin')
    await client.query(`update public.exports set status = 'failed' where id = $1`, [await exportOf(owner)])
    await client.query('rollback')
    client.release()

    const { items, unread } = await listNotifications(owner)
    expect(items.map((item) => item.kind)).toEqual(['export.interrupted', 'export.completed'])
    expect(items[0]!.data).toMatchObject({ exportId: stopped, name: 'Bakeries', reason: 'insufficient_credits' })
    expect(items[1]!.data).toMatchObject({ exportId: done, leadCount: 12, credits: 7 })
    expect(unread).toBe(2)
    const { rows } = await admin.query(`select email_state from public.notifications where user_id = $1`, [owner.id])
    expect(rows.every((row) => row.email_state === 'pending')).toBe(true)
  })
})

describe('reading', () => {
  test('opening one marks it read and gives its page; mark all; nobody else can read or mark them', async () => {
    const owner = await user()
    const other = await user()
    const exportId = await exportOf(owner)
    await admin.query(`update public.exports set status = 'completed' where id = $1`, [exportId])
    await notify(adminDb(), owner.id, 'saved_search.new_businesses', { savedSearchId: randomUUID(), name: 'Weekly bakeries', newCount: 4 })
    expect(await unreadNotifications(owner)).toBe(2)

    const [first] = (await listNotifications(owner)).items
    expect(await markRead(other, first!.id)).toBeNull()
    expect((await listNotifications(other)).items).toEqual([])
    expect(await unreadNotifications(owner)).toBe(2)

    const completed = (await listNotifications(owner)).items.find((item) => item.kind === 'export.completed')!
    expect(await markRead(owner, completed.id)).toMatchObject({ exportId })
    expect(await unreadNotifications(owner)).toBe(1)
    await markRead(owner, 'all')
    expect(await unreadNotifications(owner)).toBe(0)
    expect(await markRead(owner, 'not-a-uuid')).toBeNull()
  })
})

describe('email preferences', () => {
  test('are on by default and saved per user', async () => {
    const owner = await user()
    const other = await user()
    expect(await readNotificationPreferences(owner)).toEqual({ notify_export_completed: true, notify_export_failed: true, notify_export_interrupted: true, notify_saved_search: true })
    await saveNotificationPreferences(owner, { notify_export_completed: false, notify_export_failed: true, notify_export_interrupted: true, notify_saved_search: false })
    expect(await readNotificationPreferences(owner)).toMatchObject({ notify_export_completed: false, notify_saved_search: false })
    expect((await readNotificationPreferences(other)).notify_export_completed).toBe(true)
  })
})
